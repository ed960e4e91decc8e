extends Node3D
## A host project's own scene using only what `addons/bimvoice/` ships: the runtime found through
## its autoload, the drop-in rig, HUD and spectator scenes; no addon class name is written here,
## so the check holds whatever the addon's classes are called.
## -- --agent tcp://HOST:PORT --expect PATH.json ({"pose", "door"})

const ADDON: String = "res://addons/bimvoice/"
const TIMEOUT_MS: int = 60000

var checks: int = 0
var failed: int = 0


func _ready() -> void:
	_run.call_deferred()


func _run() -> void:
	var args: Dictionary = {}
	var user: PackedStringArray = OS.get_cmdline_user_args()
	for i: int in range(0, user.size() - 1, 2):
		args[user[i].trim_prefix("--")] = user[i + 1]
	var expect: Dictionary = JSON.parse_string(FileAccess.get_file_as_string(args["expect"]))
	var runtime_script: Script = load(ADDON + "runtime/bimvoice_runtime.gd")
	var rt: Node = runtime_script.call("find_in", get_tree())
	_check(rt != null, "the runtime autoload is found")
	if rt == null:
		return _finish()
	_check(rt.get_parent() == get_tree().root, "the runtime is an autoload: " + str(rt.get_path()))
	rt.set("speak_answers", false)
	var link: Object = rt.call("connect_agent", args["agent"])
	_check(await _wait(func() -> bool: return link.call("is_in_sync"), "link"), "linked to the agent")
	var building: Node = rt.get("building")
	_check(await _wait(func() -> bool: return building.call("is_loaded"), "model"), "building loaded")

	var rig: Node3D = _instance("scenes/desktop_rig.tscn") as Node3D
	add_child(rig)
	rig.call("set_active", true)
	_check(rig.get("runtime") == rt, "the rig found the runtime by itself")
	rt.set("rig", rig)
	rig.call("teleport_to_pose", expect["pose"])
	var panel: Node3D = _instance("scenes/hud_panel_3d.tscn") as Node3D
	add_child(panel)
	var spectator: Node3D = _instance("scenes/spectator_view.tscn") as Node3D
	add_child(spectator)
	var xr_rig: Node3D = _instance("scenes/xr_rig.tscn") as Node3D
	add_child(xr_rig)
	_check(xr_rig.get("runtime") == rt, "the XR rig scene found the runtime")
	var warnings: PackedStringArray = xr_rig.call("_get_configuration_warnings")
	_check(warnings.size() == 1 and warnings[0].contains("OpenXR is off"),
		"the XR rig warns that this project has OpenXR off (and nothing else): " + str(warnings))
	_check(runtime_script.call("autoload_name") == "BimVoice", "autoload name from the settings")
	xr_rig.queue_free()
	await get_tree().physics_frame
	await get_tree().physics_frame

	var answers: Array = []
	rt.connect("answer_received", func(response: Dictionary) -> void: answers.append(response))
	rt.call("say", "hide the door in front of me")
	var applier: Object = rt.get("applier")
	var door: String = expect["door"]
	_check(await _wait(func() -> bool: return applier.call("is_hidden", door), "hide"),
		"the door in front of the rig is hidden")
	_check(await _wait(func() -> bool: return not answers.is_empty(), "answer"), "answered")
	var answer: String = str(answers[0].get("answer", "")) if not answers.is_empty() else "?"
	_check(answer != "" and str(panel.call("shown_text")).contains(answer),
		"the HUD panel shows the answer: " + str(panel.call("shown_text")))
	_check(spectator.get("rig") == rig, "the spectator follows the runtime's rig")
	link.call("stop")
	_finish()


func _instance(path: String) -> Node:
	var scene: PackedScene = load(ADDON + path) as PackedScene
	_check(scene != null, "drop-in scene " + path)
	return scene.instantiate() if scene != null else Node3D.new()


func _check(ok: bool, what: String) -> bool:
	checks += 1
	if not ok:
		failed += 1
		printerr("FAIL: " + what)
	return ok


func _wait(condition: Callable, what: String) -> bool:
	var deadline: int = Time.get_ticks_msec() + TIMEOUT_MS
	while not condition.call():
		if Time.get_ticks_msec() > deadline:
			printerr("timed out waiting for " + what)
			return false
		await get_tree().process_frame
	return true


func _finish() -> void:
	print("HOST: %d checks, %d failed" % [checks, failed])
	get_tree().quit(0 if failed == 0 and checks > 0 else 1)
