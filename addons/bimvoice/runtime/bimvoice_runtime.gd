@icon("res://addons/bimvoice/icons/runtime.svg")
class_name BimVoiceRuntime
extends Node
## The BimVoice runtime (autoload `BimVoice`): the link to the agent, the building, the mirror
## of the agent's scene state, picking, push-to-talk and the HUD text.
##
## Rigs ([BimVoiceXRRig], [BimVoiceDesktopRig]) report the user's pose and actions here; the runtime
## sends them
## to the agent and applies what comes back. Command line (after `--`):
## `--glb PATH` load a building without an agent, `--agent tcp://HOST:PORT`, `--token SECRET`,
## `--no-agent`, `--desktop` (never start XR), `--spectator` (open the spectator window),
## `--no-batches` (draw one object per element instead of merged batches; project setting
## `bimvoice/render/batched`).
## Without `--agent`/`--token` the project settings `bimvoice/link/endpoint` and
## `bimvoice/link/token` apply (a standalone headset has no command line).

## A building was loaded and indexed.
signal building_loaded(element_count: int)
## Elements streamed in after a first view were added to the building (see
## [method BimVoiceBuildingModel.add_bytes]).
signal elements_added(ids: PackedStringArray)
## A state or delta from the agent was applied (or refused: see [member BimVoiceApplyReport.ok]).
signal changes_applied(report: BimVoiceApplyReport)
## The agent answered a say/do/utterance ({ok, program, answer, value, error, transcript?}).
signal answer_received(response: Dictionary)

## Folder of the glbs received from agents, by model hash.
const MODEL_CACHE_DIR: String = "user://models"

## Command-line options: flag -> value ("" for bare flags).
var options: Dictionary = {}
## The building.
var building: BimVoiceBuildingModel
## Applies the agent's states and deltas to [member building].
var applier: BimVoiceChangeApplier
## Ray picking against [member building].
var picker: BimVoiceElementPicker
## The link to the agent (null when running without one).
var link: BimVoiceAgentLink = null
## Push-to-talk capture.
var mic: BimVoiceMicCapture
## What the HUDs show.
var hud: BimVoiceHudText = BimVoiceHudText.new()
## The rig whose pose goes to the agent and which the agent moves.
var rig: BimVoiceRig = null
## Hash of the loaded agent model ("" when loaded from a file or not loaded).
var model_hash: String = ""
## Speak answers aloud when a text-to-speech voice exists.
var speak_answers: bool = true
## Cuts the building open when the agent's state has a section.
var clipper: BimVoiceSectionClipper
## The scene's light and sky (set by the scene that made it): the sun study moves its sun.
var environment: BimVoiceEnvironment = null
## Measuring by pointing (rigs call [method measure_along]).
var measure: BimVoiceMeasureTool

var _wanted_hash: String = ""
var _talk_id: int = -1
# The text-to-speech voice (looked up once; "" when there is none).
var _voice: String = ""
var _voice_checked: bool = false
# HUD lines that are true only while the agent is unreachable (cleared once it is back).
var _link_problem_lines: PackedStringArray = PackedStringArray()


func _init() -> void:
	building = BimVoiceBuildingModel.new()
	building.name = "Building"
	applier = BimVoiceChangeApplier.new(building)
	picker = BimVoiceElementPicker.new(building)
	mic = BimVoiceMicCapture.new()
	mic.name = "Mic"
	applier.pose_changed.connect(_on_pose_changed)
	applier.batch_applied.connect(_on_batch_applied)
	applier.review_changed.connect(_on_review_changed)
	applier.selection_changed.connect(_on_selection_changed)
	clipper = BimVoiceSectionClipper.new(building)
	measure = BimVoiceMeasureTool.new()
	applier.budget_usec = ProjectSettings.get_setting("bimvoice/apply/budget_usec", 2000)
	building.loaded.connect(_on_building_loaded)
	building.elements_added.connect(_on_elements_added)
	building.load_failed.connect(_on_load_failed)
	mic.chunk_ready.connect(_on_mic_chunk)


func _ready() -> void:
	add_child(building)
	add_child(measure)
	add_child(mic)
	options = parse_args(OS.get_cmdline_user_args())
	building.batched = (
		not options.has("no-batches")
		and ProjectSettings.get_setting("bimvoice/render/batched", true)
	)
	if options.has("glb"):
		load_glb(options["glb"])
	if (
		not options.has("no-agent")
		and ProjectSettings.get_setting("bimvoice/link/autoconnect", true)
	):
		var endpoint: String = options.get(
			"agent", ProjectSettings.get_setting("bimvoice/link/endpoint", "tcp://127.0.0.1:5557")
		)
		var token: String = ProjectSettings.get_setting("bimvoice/link/token", "")
		connect_agent(endpoint, options.get("token", token))
	else:
		hud.set_line("status", offline_status())


## The status line without an agent: what the user can and cannot do.
func offline_status() -> String:
	var what: String = "offline viewing"
	if building.is_loaded() or options.has("glb"):
		what += " of " + str(options.get("glb", "the building")).get_file()
	return "none - %s: look around and select; commands need the agent running" % what


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
func connect_agent(endpoint: String, token: String = "") -> BimVoiceAgentLink:
	disconnect_agent()
	link = BimVoiceAgentLink.new()
	link.name = "BimVoiceAgentLink"
	link.endpoint = endpoint
	link.token = token
	link.welcome.connect(_on_welcome)
	link.delta.connect(_on_delta)
	link.result.connect(_on_result)
	link.partial.connect(_on_partial)
	link.model_bytes.connect(_on_model_bytes)
	link.model_part.connect(_on_model_part)
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
	hud.set_line("status", offline_status())


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
	hud.set_line("changes", "")
	if link == null or not link.is_in_sync():
		_link_problem("answer", "not sent: the agent is not connected")
		_link_problem("transcript", text)  # not sent: it goes with the answer once the agent is back
		print("BimVoice: answer: ", hud.answer)
		return -1
	return link.say(text)


## Tells the agent what the user points at; without an agent the selection is shown locally.
func select_ids(ids: PackedStringArray) -> void:
	if link != null and link.is_in_sync():
		link.send_select(ids)
	else:
		applier.apply_delta(
			{"elements": [], "props_added": [], "props_removed": [], "selected": Array(ids)}
		)


## Picks along a ray and selects what it hits (nothing when it hits nothing).
func select_along(from: Vector3, to: Vector3) -> String:
	var hit: Dictionary = picker.pick(from, to)
	var gid: String = hit.get("id", "")
	select_ids(PackedStringArray([gid]) if gid != "" else PackedStringArray())
	return gid


## The nearest visible element along a segment (see [method BimVoiceElementPicker.pick]).
func pick(from: Vector3, to: Vector3) -> Dictionary:
	return picker.pick(from, to)


## A short description of an element for the HUD ("IfcDoor Tuer 1" or its GlobalId).
func describe_element(gid: String) -> String:
	var element: BimVoiceBuildingElement = building.get_element(gid)
	if element == null or element.extras.is_empty():
		return gid
	var ifc_class: String = str(element.extras.get("ifc_class", ""))
	var label: String = str(element.extras.get("name", ""))
	return ("%s %s" % [ifc_class, label]).strip_edges()


## Push-to-talk pressed: starts capturing and streaming audio to the agent.
func begin_talk() -> void:
	if link == null or not link.is_in_sync():
		_link_problem("note", "push-to-talk: the agent is not connected")
		return
	var problem: String = mic.start()
	if not problem.is_empty():
		hud.set_line("note", "push-to-talk: " + problem)
		print("BimVoice: push-to-talk: ", problem)
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
	if hud.note == "listening...":
		hud.set_line("note", "")


## Speaks [param text] when text-to-speech has a voice (prefers English).
func speak(text: String) -> bool:
	if text.is_empty() or not speak_answers:
		return false
	var voice: String = tts_voice()
	if voice.is_empty():
		return false
	DisplayServer.tts_stop()
	DisplayServer.tts_speak(text, voice)
	return true


## The text-to-speech voice answers are spoken with ("" when none). Looked up once: without a
## speech synthesiser the lookup itself logs an error, so the absence is said once, here.
func tts_voice() -> String:
	if _voice_checked:
		return _voice
	_voice_checked = true
	if not ProjectSettings.get_setting("audio/general/text_to_speech", false) or not _has_tts():
		print("BimVoice: no text-to-speech voice on this system; answers are shown, not spoken")
		return _voice
	var voices: PackedStringArray = DisplayServer.tts_get_voices_for_language("en")
	if voices.is_empty():
		for entry: Dictionary in DisplayServer.tts_get_voices():
			voices.append(str(entry.get("id", "")))
	if voices.is_empty():
		print("BimVoice: no text-to-speech voice on this system; answers are shown, not spoken")
	else:
		_voice = voices[0]
	return _voice


# Whether the display server can speak at all (Linux needs speech-dispatcher; headless has none).
func _has_tts() -> bool:
	if DisplayServer.get_name() == "headless":
		return false
	if OS.get_name() == "Linux":
		return OS.execute("sh", ["-c", "command -v speech-dispatcher >/dev/null"]) == 0
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
	var report: BimVoiceApplyReport = applier.apply_state(state)
	if report.ok:
		clipper.refresh()
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


# The rest of a first view: added to the building when it is the model the part extends, else the
# whole model is asked for (it came before the first view did, or another model is loaded).
func _on_model_part(hash: String, base: String, bytes: PackedByteArray, info: Dictionary) -> void:
	_wanted_hash = hash
	if base.is_empty() or base != model_hash:
		hud.set_line("note", "downloading the building (%s)" % str(info.get("name", "")))
		link.request_model(hash)
		return
	if building.add_bytes(bytes, "agent model part %s" % hash) == OK:
		model_hash = hash


func _on_elements_added(ids: PackedStringArray) -> void:
	picker.add_elements(ids)
	clipper.refresh()  # the new nodes carry the mirrored state already (the applier applied it)
	hud.set_line(
		"note",
		(
			"building: %d more elements streamed in, %d in all (%.2f s)"
			% [ids.size(), building.elements.size(), building.load_seconds]
		)
	)
	elements_added.emit(ids)


func _on_building_loaded(count: int) -> void:
	picker.reset()
	clipper.refresh()  # the new nodes carry the mirrored state already (the applier reapplied it)
	hud.set_line("note", "building: %d elements (%.2f s)" % [count, building.load_seconds])
	if link == null:
		hud.set_line("status", offline_status())
	building_loaded.emit(count)


func _on_load_failed(message: String) -> void:
	hud.set_line("note", "cannot load the building: " + message)


func _on_delta(_seq: int, changes: Dictionary) -> void:
	var prepared: BimVoiceChangeApplier.PendingBatch = (
		link.delta_prepared as BimVoiceChangeApplier.PendingBatch
	)
	var report: BimVoiceApplyReport
	if prepared != null and is_same(prepared.delta, changes):
		report = applier.apply_prepared(prepared)  # checked on the link's parsing thread
	else:
		report = applier.apply_delta(changes)
	if not report.ok:
		_refused(report)


func _on_batch_applied(report: BimVoiceApplyReport) -> void:
	if not report.ok:
		_refused(report)
		return
	clipper.refresh()
	if report.has_edits():
		hud.set_line("changes", report.summary())
	changes_applied.emit(report)


## Puts a measuring point where the segment [param from] -> [param to] (world frame) meets the
## building; the second point completes a measurement (shown in the scene and on the HUD).
## Returns its length in metres, -1 after a first point, -2 when the ray hits nothing.
func measure_along(from: Vector3, to: Vector3) -> float:
	var hit: Dictionary = pick(from, to)
	if hit.is_empty():
		hud.set_line("note", "measure: point at the building")
		return -2.0
	var view_scale: Variant = applier.view_scale()
	measure.metres_per_unit = 1.0 / float(view_scale["scale"]) if view_scale is Dictionary else 1.0
	var metres: float = measure.add_point(hit["position"])
	if metres < 0.0:
		hud.set_line("note", "measure: first point set, point at the second")
	else:
		hud.set_line("note", "measured " + BimVoiceMeasureTool.format_metres(metres))
	return metres


## Shows the review view of the state: the scale-model view (the building node's transform),
## the section (clip planes in the world frame, so after the transform) and the sun study.
func _on_review_changed(sections: Array, sun: Variant, view_scale: Variant) -> void:
	building.transform = scale_model_transform(view_scale)
	_place_table(view_scale)
	clipper.set_sections(sections)
	if environment != null:
		environment.set_sun(sun)


# A table under the scale model: a top just under the model's base and a pedestal to the floor.
func _place_table(view_scale: Variant) -> void:
	var table: Node3D = get_node_or_null(^"ModelTable") as Node3D
	if not view_scale is Dictionary:
		if table != null:
			table.visible = false
		return
	if table == null:
		table = Node3D.new()
		table.name = "ModelTable"
		var wood: StandardMaterial3D = StandardMaterial3D.new()
		wood.albedo_color = Color(0.45, 0.32, 0.22)
		wood.roughness = 0.7
		for part: String in ["Top", "Pedestal"]:
			var mesh: MeshInstance3D = MeshInstance3D.new()
			mesh.name = part
			mesh.mesh = BoxMesh.new()
			mesh.material_override = wood
			table.add_child(mesh)
		add_child(table)
	var vs: Dictionary = view_scale
	var anchor: Array = vs["anchor"]
	var top: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(anchor[0], anchor[1], anchor[2]))
	var box: AABB = building.transform * building.world_aabb()
	var size: Vector2 = Vector2(box.size.x, box.size.z) + Vector2(0.3, 0.3)
	var height: float = 0.76  # to the floor: the agent puts the table top 0.8 m above it
	var top_mesh: MeshInstance3D = table.get_node(^"Top")
	(top_mesh.mesh as BoxMesh).size = Vector3(size.x, 0.04, size.y)
	top_mesh.position = Vector3(box.get_center().x, top.y - 0.021, box.get_center().z)
	var pedestal: MeshInstance3D = table.get_node(^"Pedestal")
	(pedestal.mesh as BoxMesh).size = Vector3(0.2, height, 0.2)
	pedestal.position = Vector3(
		top_mesh.position.x, top.y - 0.04 - height * 0.5, top_mesh.position.z
	)
	table.visible = true


## The building node's transform for an `engine_view_scale` (identity for null): a building
## point p (IFC frame) is shown at anchor + scale * (p - pivot).
static func scale_model_transform(view_scale: Variant) -> Transform3D:
	if not view_scale is Dictionary:
		return Transform3D.IDENTITY
	var vs: Dictionary = view_scale
	var k: float = float(vs["scale"])
	var pivot: Array = vs["pivot"]
	var anchor: Array = vs["anchor"]
	var pivot_g: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(pivot[0], pivot[1], pivot[2]))
	var anchor_g: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(anchor[0], anchor[1], anchor[2]))
	return Transform3D(Basis.from_scale(Vector3(k, k, k)), anchor_g - pivot_g * k)


func _refused(report: BimVoiceApplyReport) -> void:
	push_warning("BimVoice: " + report.error)
	hud.set_line("note", "agent sent a bad change: " + report.error)
	changes_applied.emit(report)


func _on_result(_id: int, response: Dictionary) -> void:
	var transcript: Variant = response.get("transcript")
	if transcript is String and not (transcript as String).is_empty():
		hud.set_line("transcript", transcript)
	# The answer is the sentence for the user; the error is technical detail, for the log.
	var text: String = str(response.get("answer", ""))
	var error: Variant = response.get("error")
	if error is String and not (error as String).is_empty():
		print("BimVoice: agent error: ", error)
		if text.is_empty():
			text = "That did not work."
	hud.set_line("answer", text)
	print("BimVoice: answer: ", text)
	if hud.note == "listening...":
		hud.set_line("note", "")
	speak(text)
	answer_received.emit(response)


func _on_partial(_id: int, text: String) -> void:
	hud.set_line("transcript", text + " ...")


func _on_status(text: String) -> void:
	hud.set_line("status", text)
	if link != null and link.is_in_sync():
		for line: String in _link_problem_lines:
			hud.set_line(line, "")
		_link_problem_lines.clear()


# Shows a line that stops being true once the agent is connected again.
func _link_problem(line: String, text: String) -> void:
	hud.set_line(line, text)
	if not _link_problem_lines.has(line):
		_link_problem_lines.append(line)


func _on_selection_changed(ids: PackedStringArray) -> void:
	var names: PackedStringArray = PackedStringArray()
	for gid: String in ids.slice(0, 3):
		names.append(describe_element(gid))
	if ids.size() > 3:
		names.append("%d more" % (ids.size() - 3))
	hud.set_line("selection", ", ".join(names))


func _on_agent_error(message: String, _id: int) -> void:
	hud.set_line("note", "agent: " + message)


func _on_mic_chunk(pcm: PackedByteArray) -> void:
	if _talk_id >= 0 and link != null:
		link.audio_chunk(_talk_id, pcm)


func _on_pose_changed(pose: Dictionary) -> void:
	if rig != null and rig.is_inside_tree():
		rig.teleport_to_pose(pose)
