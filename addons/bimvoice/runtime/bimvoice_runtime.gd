@icon("res://addons/bimvoice/icons/runtime.svg")
class_name BimVoiceRuntime
extends Node
## The BimVoice runtime (autoload `BimVoice`): the link to the agent, the building, the mirror
## of the agent's scene state, picking, push-to-talk and the HUD text.
##
## Rigs ([XRRig], [DesktopRig]) report the user's pose and actions here; the runtime sends them
## to the agent and applies what comes back. Command line (after `--`):
## `--glb PATH` load a building without an agent, `--agent tcp://HOST:PORT`, `--token SECRET`,
## `--no-agent`, `--desktop` (never start XR), `--spectator` (open the spectator window).
## Without `--agent`/`--token` the project settings `bimvoice/link/endpoint` and
## `bimvoice/link/token` apply (a standalone headset has no command line).

## A building was loaded and indexed.
signal building_loaded(element_count: int)
## A state or delta from the agent was applied (or refused: see [member ApplyReport.ok]).
signal changes_applied(report: ApplyReport)
## The agent answered a say/do/utterance ({ok, program, answer, value, error, transcript?}).
signal answer_received(response: Dictionary)

## Folder of the glbs received from agents, by model hash.
const MODEL_CACHE_DIR: String = "user://models"

## Command-line options: flag -> value ("" for bare flags).
var options: Dictionary = {}
## The building.
var building: BuildingModel
## Applies the agent's states and deltas to [member building].
var applier: ChangeApplier
## Ray picking against [member building].
var picker: ElementPicker
## The link to the agent (null when running without one).
var link: AgentLink = null
## Push-to-talk capture.
var mic: MicCapture
## What the HUDs show.
var hud: HudText = HudText.new()
## The rig whose pose goes to the agent and which the agent moves.
var rig: BimRig = null
## Hash of the loaded agent model ("" when loaded from a file or not loaded).
var model_hash: String = ""
## Speak answers aloud when a text-to-speech voice exists.
var speak_answers: bool = true

var _wanted_hash: String = ""
var _talk_id: int = -1


func _init() -> void:
	building = BuildingModel.new()
	building.name = "Building"
	applier = ChangeApplier.new(building)
	picker = ElementPicker.new(building)
	mic = MicCapture.new()
	mic.name = "Mic"
	applier.pose_changed.connect(_on_pose_changed)
	applier.batch_applied.connect(_on_batch_applied)
	applier.budget_usec = ProjectSettings.get_setting("bimvoice/apply/budget_usec", 2000)
	building.loaded.connect(_on_building_loaded)
	building.load_failed.connect(_on_load_failed)
	mic.chunk_ready.connect(_on_mic_chunk)


func _ready() -> void:
	add_child(building)
	add_child(mic)
	options = parse_args(OS.get_cmdline_user_args())
	if options.has("glb"):
		load_glb(options["glb"])
	if not options.has("no-agent") and ProjectSettings.get_setting("bimvoice/link/autoconnect", true):
		var endpoint: String = options.get(
			"agent", ProjectSettings.get_setting("bimvoice/link/endpoint", "tcp://127.0.0.1:5557")
		)
		var token: String = ProjectSettings.get_setting("bimvoice/link/token", "")
		connect_agent(endpoint, options.get("token", token))
	else:
		hud.set_line("status", "no agent (offline viewing)")


func _process(_delta: float) -> void:
	step_frame()


## The runtime's work for one frame, within the frame budget (`bimvoice/apply/budget_usec`):
## read the link (which applies deltas as they arrive), finish queued changes, and with time
## left add picking colliders. Called from [method Node._process].
func step_frame() -> void:
	applier.begin_frame()
	if link != null:
		link.poll()
	if applier.has_pending():
		applier.drain_frame()
	elif not picker.is_complete() and applier.frame_budget_left() > 0:
		picker.build_some(applier.frame_budget_left())


func _physics_process(_delta: float) -> void:
	if link != null and rig != null and rig.is_inside_tree():
		link.send_pose_from_transform(rig.head_transform())


## Connects to an agent at [param endpoint] (`tcp://host:port`).
func connect_agent(endpoint: String, token: String = "") -> AgentLink:
	disconnect_agent()
	link = AgentLink.new()
	link.name = "AgentLink"
	link.endpoint = endpoint
	link.token = token
	link.welcome.connect(_on_welcome)
	link.delta.connect(_on_delta)
	link.result.connect(_on_result)
	link.partial.connect(_on_partial)
	link.model_bytes.connect(_on_model_bytes)
	link.status_changed.connect(_on_status)
	link.agent_error.connect(_on_agent_error)
	link.set_process(false)  # polled by step_frame, inside the frame budget
	link.delta_preparer = applier.prepare_delta
	add_child(link)
	return link


## Closes the link to the agent (the building and the mirrored state stay).
func disconnect_agent() -> void:
	if link == null:
		return
	link.stop()
	remove_child(link)
	link.queue_free()
	link = null
	hud.set_line("status", "no agent (offline viewing)")


## Loads a building from a .glb file (no agent needed). Returns OK or the error.
func load_glb(path: String) -> Error:
	var err: Error = building.load_file(path)
	if err == OK:
		model_hash = ""
	return err


## Sends a typed or recognised command to the agent.
func say(text: String) -> int:
	hud.set_line("transcript", text)
	hud.set_line("answer", "")
	if link == null or not link.is_in_sync():
		hud.set_line("answer", "the agent is not connected")
		return -1
	return link.say(text)


## Tells the agent what the user points at; without an agent the selection is shown locally.
func select_ids(ids: PackedStringArray) -> void:
	var names: PackedStringArray = PackedStringArray()
	for gid: String in ids:
		names.append(describe_element(gid))
	hud.set_line("note", "selected: " + (", ".join(names) if not names.is_empty() else "nothing"))
	if link != null and link.is_in_sync():
		link.send_select(ids)
	else:
		applier.apply_delta({
			"elements": [], "props_added": [], "props_removed": [], "selected": Array(ids)
		})


## Picks along a ray and selects what it hits (nothing when it hits nothing).
func select_along(from: Vector3, to: Vector3) -> String:
	var hit: Dictionary = picker.pick(from, to)
	var gid: String = hit.get("id", "")
	select_ids(PackedStringArray([gid]) if gid != "" else PackedStringArray())
	return gid


## The nearest visible element along a segment (see [method ElementPicker.pick]).
func pick(from: Vector3, to: Vector3) -> Dictionary:
	return picker.pick(from, to)


## A short description of an element for the HUD ("IfcDoor Tuer 1" or its GlobalId).
func describe_element(gid: String) -> String:
	var element: BuildingElement = building.get_element(gid)
	if element == null or element.extras.is_empty():
		return gid
	var ifc_class: String = str(element.extras.get("ifc_class", ""))
	var label: String = str(element.extras.get("name", ""))
	return ("%s %s" % [ifc_class, label]).strip_edges()


## Push-to-talk pressed: starts capturing and streaming audio to the agent.
func begin_talk() -> void:
	if link == null or not link.is_in_sync():
		hud.set_line("note", "push-to-talk: the agent is not connected")
		return
	var problem: String = mic.start()
	if not problem.is_empty():
		hud.set_line("note", "push-to-talk: " + problem)
		return
	_talk_id = link.audio_start(mic.sample_rate)
	hud.set_line("note", "listening...")
	hud.set_line("transcript", "")


## Push-to-talk released: the agent recognises what was said and answers.
func end_talk() -> void:
	if _talk_id < 0:
		return
	mic.stop()
	if link != null:
		link.audio_end(_talk_id)
	_talk_id = -1
	hud.set_line("note", "")


## Speaks [param text] when text-to-speech has a voice (prefers English).
func speak(text: String) -> bool:
	if text.is_empty() or not speak_answers:
		return false
	var voices: PackedStringArray = DisplayServer.tts_get_voices_for_language("en")
	if voices.is_empty():
		for voice: Dictionary in DisplayServer.tts_get_voices():
			voices.append(str(voice.get("id", "")))
	if voices.is_empty():
		return false
	DisplayServer.tts_stop()
	DisplayServer.tts_speak(text, voices[0])
	return true


## The runtime of [param tree]: the autoload registered with this script, found through its name
## in the project's autoload list (the plugin names it `BimVoice`, a host project may rename it),
## else a runtime node placed directly under the root; null when there is none.
static func find_in(tree: SceneTree) -> BimVoiceRuntime:
	if tree == null or tree.root == null:
		return null
	var autoload: String = autoload_name()
	if not autoload.is_empty():
		var named: Node = tree.root.get_node_or_null(NodePath(autoload))
		if named is BimVoiceRuntime:
			return named as BimVoiceRuntime
	for node: Node in tree.root.get_children():
		if node is BimVoiceRuntime:
			return node as BimVoiceRuntime
	return null


## The name under which the project autoloads this runtime ("" when it does not: the BimVoice
## plugin is not enabled). Read from the project settings, so it also answers in the editor.
static func autoload_name() -> String:
	var own: String = "res://addons/bimvoice/runtime/bimvoice_runtime.gd"
	for property: Dictionary in ProjectSettings.get_property_list():
		var key: String = property["name"]
		if not key.begins_with("autoload/"):
			continue
		var path: String = str(ProjectSettings.get_setting(key)).trim_prefix("*")
		if path.begins_with("uid://"):
			path = ResourceUID.uid_to_path(path)
		if path == own:
			return key.trim_prefix("autoload/")
	return ""


## Parses `--flag value` / `--flag` pairs.
static func parse_args(args: PackedStringArray) -> Dictionary:
	var out: Dictionary = {}
	var i: int = 0
	while i < args.size():
		var arg: String = args[i]
		if arg.begins_with("--"):
			var key: String = arg.substr(2)
			var eq: int = key.find("=")
			if eq >= 0:
				out[key.substr(0, eq)] = key.substr(eq + 1)
			elif i + 1 < args.size() and not args[i + 1].begins_with("--"):
				out[key] = args[i + 1]
				i += 1
			else:
				out[key] = ""
		i += 1
	return out


func _on_welcome(state: Dictionary, model_info: Dictionary) -> void:
	var report: ApplyReport = applier.apply_state(state)
	if report.ok:
		changes_applied.emit(report)
	else:
		_refused(report)
	_wanted_hash = str(model_info.get("hash", ""))
	if _wanted_hash.is_empty() or _wanted_hash == model_hash:
		return
	var cached: String = "%s/%s.glb" % [MODEL_CACHE_DIR, _wanted_hash.validate_filename()]
	if FileAccess.file_exists(cached) and building.load_file(cached) == OK:
		model_hash = _wanted_hash
		return
	hud.set_line("note", "downloading the building (%s)" % str(model_info.get("name", "")))
	link.request_model(_wanted_hash)


func _on_model_bytes(hash: String, bytes: PackedByteArray) -> void:
	if building.load_bytes(bytes, "agent model %s" % hash) != OK:
		return
	model_hash = hash
	DirAccess.make_dir_recursive_absolute(MODEL_CACHE_DIR)
	var file: FileAccess = FileAccess.open(
		"%s/%s.glb" % [MODEL_CACHE_DIR, hash.validate_filename()], FileAccess.WRITE
	)
	if file != null:
		file.store_buffer(bytes)
		file.close()


func _on_building_loaded(count: int) -> void:
	picker.reset()
	hud.set_line("note", "building: %d elements (%.2f s)" % [count, building.load_seconds])
	building_loaded.emit(count)


func _on_load_failed(message: String) -> void:
	hud.set_line("note", "cannot load the building: " + message)


func _on_delta(_seq: int, changes: Dictionary) -> void:
	var prepared: ChangeApplier.PendingBatch = link.delta_prepared as ChangeApplier.PendingBatch
	var report: ApplyReport
	if prepared != null and is_same(prepared.delta, changes):
		report = applier.apply_prepared(prepared)  # checked on the link's parsing thread
	else:
		report = applier.apply_delta(changes)
	if not report.ok:
		_refused(report)


func _on_batch_applied(report: ApplyReport) -> void:
	if not report.ok:
		_refused(report)
		return
	hud.set_line("changes", report.summary())
	changes_applied.emit(report)


func _refused(report: ApplyReport) -> void:
	push_warning("BimVoice: " + report.error)
	hud.set_line("note", "agent sent a bad change: " + report.error)
	changes_applied.emit(report)


func _on_result(_id: int, response: Dictionary) -> void:
	var transcript: Variant = response.get("transcript")
	if transcript is String and not (transcript as String).is_empty():
		hud.set_line("transcript", transcript)
	var text: String = ""
	if response.get("ok", false):
		text = str(response.get("answer", ""))
	else:
		text = str(response.get("error", response.get("answer", "")))
	hud.set_line("answer", text)
	speak(text)
	answer_received.emit(response)


func _on_partial(_id: int, text: String) -> void:
	hud.set_line("transcript", text + " ...")


func _on_status(text: String) -> void:
	hud.set_line("status", text)


func _on_agent_error(message: String, _id: int) -> void:
	hud.set_line("note", "agent: " + message)


func _on_mic_chunk(pcm: PackedByteArray) -> void:
	if _talk_id >= 0 and link != null:
		link.audio_chunk(_talk_id, pcm)


func _on_pose_changed(pose: Dictionary) -> void:
	if rig != null and rig.is_inside_tree():
		rig.teleport_to_pose(pose)
