extends "res://tests/godot/scene_test.gd"
## End to end with a real agent (`python -m pyagent serve`, started by the pytest wrapper):
## the engine downloads the building over the link, stands where the user stands, says "hide the
## door in front of me" and exactly that door disappears; undo brings it back; selection and
## push-to-talk go through the agent.
## -- --no-agent --agent tcp://127.0.0.1:PORT --expect PATH.json
## expect.json: {"pose": engine_pose, "door": GlobalId, "elements": N}

const TIMEOUT_S: float = 60.0

var rt: BimVoiceRuntime
var answers: Array[Dictionary] = []


func run_test() -> void:
	var expect: Dictionary = read_json(args["expect"])
	var door: String = expect["door"]
	rt = runtime()
	rt.speak_answers = false
	_clear_model_cache()
	rt.answer_received.connect(func(response: Dictionary) -> void: answers.append(response))
	var link: BimVoiceAgentLink = rt.connect_agent(args["agent"])
	if not check(await wait_for(func() -> bool: return link.is_in_sync(), "welcome"), "linked"):
		return
	if not check(await wait_for(rt.building.is_loaded, "model download"), "building downloaded"):
		return
	check_eq(rt.building.elements.size(), int(expect["elements"]), "elements in the downloaded glb")
	check(rt.model_hash == str(link.model_info.get("hash", "?")), "model hash recorded")
	var rig: BimVoiceDesktopRig = BimVoiceDesktopRig.new()
	rig.runtime = rt
	root.add_child(rig)
	rig.set_active(true)
	rt.rig = rig
	rig.teleport_to_pose(expect["pose"])
	var sent_before: int = link.stats["poses_sent"]
	await physics_frames(3)
	check(link.stats["poses_sent"] > sent_before, "pose sent to the agent")

	var response: Dictionary = await say("hide the door in front of me")
	check(response.get("ok", false), "agent did it: %s" % str(response))
	var door_hidden: Callable = func() -> bool: return rt.applier.is_hidden(door)
	check(await wait_for(door_hidden, "door hidden"), "delta came")
	check(not rt.building.get_element(door).node.visible, "the door node is hidden")
	var others_visible: bool = true
	for gid: String in rt.building.element_ids():
		if gid != door and not rt.building.get_element(gid).node.visible:
			others_visible = false
			printerr("also hidden: " + gid)
	check(others_visible, "every other element stays visible")
	check_eq(rt.applier.current_state()["hidden"], [door], "mirror: exactly the door hidden")
	check(rt.hud.changes.contains("1 hidden"), "HUD says what changed: " + rt.hud.changes)
	check_eq(rt.hud.answer, str(response.get("answer", "")), "HUD shows the answer")

	response = await say("undo")
	check(response.get("ok", false), "undo: %s" % str(response))
	check(await wait_for(func() -> bool: return not rt.applier.is_hidden(door), "door back"), "undone")
	check(rt.building.get_element(door).node.visible, "the door node is visible again")

	# "this": the selection goes to the agent and comes back as a delta.
	rt.select_ids(PackedStringArray([door]))
	check(await wait_for(func() -> bool: return rt.applier.selected_ids() == PackedStringArray([door]),
		"selection"), "selection mirrored from the agent")
	var door_mesh: MeshInstance3D = rt.building.get_element(door).meshes[0]
	check(door_mesh.material_overlay != null, "selected door highlighted")

	# Push-to-talk: audio streams to the agent, which answers (here: no recogniser configured).
	var count: int = answers.size()
	rt.begin_talk()
	check(rt.mic.is_capturing(), "microphone capturing")
	var frames: PackedVector2Array = PackedVector2Array()
	frames.resize(int(AudioServer.get_mix_rate() * 0.3))
	rt.mic.feed(frames)
	rt.end_talk()
	var answered: Callable = func() -> bool: return answers.size() > count
	check(await wait_for(answered, "audio result"), "audio answered")
	if answers.size() > count:
		var audio: Dictionary = answers[count]
		check(not audio.get("ok", true), "no recogniser: not ok")
		check(str(audio.get("error", "")).contains("speech recognition"), "says why: %s" % str(audio))
	rig.queue_free()
	link.stop()


func say(text: String) -> Dictionary:
	var count: int = answers.size()
	check(rt.say(text) >= 0, "said: " + text)
	await wait_for(func() -> bool: return answers.size() > count, "answer to " + text)
	return answers[count] if answers.size() > count else {}


func wait_for(condition: Callable, what: String) -> bool:
	var deadline: int = Time.get_ticks_msec() + int(TIMEOUT_S * 1000.0)
	while not condition.call():
		if Time.get_ticks_msec() > deadline:
			printerr("timed out waiting for " + what)
			return false
		await process_frame
	return true


func _clear_model_cache() -> void:
	var dir: DirAccess = DirAccess.open(BimVoiceRuntime.MODEL_CACHE_DIR)
	if dir == null:
		return
	for file: String in dir.get_files():
		dir.remove(file)
