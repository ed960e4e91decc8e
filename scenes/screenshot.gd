extends Node3D
## Renders the desktop view of a building to a PNG and quits (needs a real renderer: run it
## under a display, e.g. Xvfb, with `--rendering-driver opengl3`):
##
##   python -m pyagent.godot run --display -- --path . --rendering-driver opengl3 \
##       res://scenes/screenshot.tscn -- --glb PATH --out PATH.png [--size 1280x720]
##       [--frames 12] [--from x,y,z] [--hud] [--state STATE.json]
##
## `--from` is the direction from the building towards the eye (Godot frame); the default is a
## three-quarter view from above. `--state` applies a scene state (the agent's `engine_state`:
## hidden, colours, moves, props, selection, pose, section, sun, scale model) and, unless `--from`
## is given, renders from the user's pose in it. Exit code 0 when the PNG was written, else 1.

## Default view direction (Godot frame) from the building's centre towards the eye.
const DEFAULT_FROM: Vector3 = Vector3(-1.0, 0.5, 1.3)

var _frames_left: int = 12
var _out: String = ""


func _ready() -> void:
	var rt: BimVoiceRuntime = BimVoiceRuntime.find_in(get_tree())
	if rt == null:
		rt = BimVoiceRuntime.new()
		add_child(rt)
	rt.disconnect_agent()
	var options: Dictionary = BimVoiceRuntime.parse_args(OS.get_cmdline_user_args())
	_out = options.get("out", "")
	_frames_left = int(options.get("frames", "12"))
	if _out.is_empty() or not options.has("glb"):
		_quit(1, "screenshot: give --glb PATH and --out PATH.png")
		return
	if not rt.building.is_loaded() and rt.load_glb(options["glb"]) != OK:
		_quit(1, "screenshot: cannot load " + str(options["glb"]))
		return
	if options.has("size"):
		var wh: PackedStringArray = str(options["size"]).split("x")
		if wh.size() == 2:
			get_window().size = Vector2i(int(wh[0]), int(wh[1]))
	var environment: BimVoiceEnvironment = BimVoiceEnvironment.new()
	add_child(environment)
	rt.environment = environment
	var rig: BimVoiceDesktopRig = BimVoiceDesktopRig.new()
	rig.runtime = rt
	add_child(rig)
	rig.set_active(true)
	rig.hud.visible = options.has("hud")
	if options.has("state"):
		var problem: String = _apply_state_file(rt, rig, str(options["state"]))
		if not problem.is_empty():
			_quit(1, "screenshot: " + problem)
			return
		if not options.has("from"):
			return
	var from: Vector3 = DEFAULT_FROM
	if options.has("from"):
		var xyz: PackedStringArray = str(options["from"]).split(",")
		if xyz.size() == 3:
			from = Vector3(float(xyz[0]), float(xyz[1]), float(xyz[2]))
	var view: Array[Vector3] = BimVoiceEnvironment.three_quarter_view(
		rt.building.world_aabb(), rig.camera().fov, from
	)
	rig.look_from(view[0], view[1])


# Applies the engine_state in the JSON file at [param path]; the rig follows its pose. "" when done.
func _apply_state_file(rt: BimVoiceRuntime, rig: BimVoiceDesktopRig, path: String) -> String:
	var text: String = FileAccess.get_file_as_string(path)
	if text.is_empty():
		return "cannot read the state %s: %s" % [path, error_string(FileAccess.get_open_error())]
	var parsed: Variant = JSON.parse_string(text)
	if not parsed is Dictionary:
		return "the state %s is not a JSON object" % path
	rt.rig = rig
	var report: BimVoiceApplyReport = rt.applier.apply_state(parsed)
	if not report.ok:
		return "the state %s was refused: %s" % [path, report.error]
	var state: Dictionary = parsed
	if state.get("pose") is Dictionary and not (state["pose"] as Dictionary).is_empty():
		rig.teleport_to_pose(state["pose"])
	return ""


func _process(_delta: float) -> void:
	if _out.is_empty():
		return
	_frames_left -= 1
	if _frames_left > 0:
		return
	var image: Image = get_viewport().get_texture().get_image()
	if image == null or image.is_empty():
		_quit(1, "screenshot: nothing was rendered (run with a display, not --headless)")
		return
	var path: String = _out
	_out = ""
	var err: Error = image.save_png(path)
	if err != OK:
		_quit(1, "screenshot: cannot write %s: %s" % [path, error_string(err)])
		return
	print("screenshot: %dx%d -> %s" % [image.get_width(), image.get_height(), path])
	_quit(0, "")


func _quit(code: int, message: String) -> void:
	_out = ""
	if not message.is_empty():
		printerr(message)
	get_tree().quit(code)
