extends "res://tests/godot/scene_test.gd"
## The headset path against a real OpenXR runtime (Monado, started by tests/engine/test_xr.py,
## with its remote-driven headset and controllers) and a real agent (`pyagent serve`):
## the main scene starts in XR mode and renders to the runtime (one eye saved); the headset turned
## towards a door makes "hide the door in front of me" hide that door; push-to-talk, pointer
## selection, the teleport arc and snap turn work through OpenXR actions; killing the runtime
## leaves the app running in the desktop rig.
## -- --no-agent --agent tcp://HOST:PORT --expect PATH.json --remote PORT --monado-pid PID --out DIR
## expect.json: {"pose": engine_pose (IFC frame), "door": GlobalId, "elements": N}

const Remote: GDScript = preload("res://tests/godot/monado_remote.gd")
const EyeCapture: GDScript = preload("res://tests/godot/eye_capture.gd")
const TIMEOUT_S: float = 60.0
## BimVoiceFrames to wait after a change so every swapchain image shows it.
const SETTLE_FRAMES: int = 12

var rt: BimVoiceRuntime
var main: Node3D
var xr_rig: BimVoiceXRRig
var remote: RefCounted
var answers: Array[Dictionary] = []
var out_dir: String
var capture: CompositorEffect
var head_tracking: Transform3D = Transform3D(Basis.IDENTITY, Vector3(0.0, 1.6, 0.0))


func run_test() -> void:
	var expect: Dictionary = read_json(args["expect"])
	var door: String = expect["door"]
	out_dir = args["out"]
	rt = runtime()
	rt.speak_answers = false
	rt.answer_received.connect(func(response: Dictionary) -> void: answers.append(response))
	main = (load("res://scenes/main.tscn") as PackedScene).instantiate() as Node3D
	root.add_child(main)
	if not check(bool(main.get("xr_active")), "main scene started in XR mode"):
		return
	xr_rig = main.get("rig") as BimVoiceXRRig
	check(xr_rig != null, "the XR rig is in use")
	capture = EyeCapture.new()
	var compositor: Compositor = Compositor.new()
	compositor.compositor_effects = [capture]
	xr_rig.xr_camera.compositor = compositor
	var xr: OpenXRInterface = XRServer.find_interface("OpenXR") as OpenXRInterface
	var focused: Callable = func() -> bool:
		return xr.get_session_state() == OpenXRInterface.SESSION_STATE_FOCUSED
	if not check(await wait_for(focused, "session focus"), "OpenXR session focused"):
		return
	var api: OpenXRAPIExtension = OpenXRAPIExtension.new()
	var t0: int = api.get_next_frame_time()
	var drawn: int = Engine.get_frames_drawn()
	await frames(30)
	check(api.get_next_frame_time() > t0, "the runtime paces frames (predicted display time advances)")
	check(Engine.get_frames_drawn() - drawn >= 25, "frames drawn in XR")

	remote = Remote.new()
	var problem: String = await remote.connect_to(self, int(args["remote"]))
	if not check(problem.is_empty(), "remote driver: " + problem):
		return
	remote.head(head_tracking)
	remote.send()

	var link: BimVoiceAgentLink = rt.connect_agent(args["agent"])
	if not check(await wait_for(func() -> bool: return link.is_in_sync(), "welcome"), "linked"):
		return
	if not check(await wait_for(rt.building.is_loaded, "model download"), "building downloaded"):
		return
	check_eq(rt.building.elements.size(), int(expect["elements"]), "elements in the downloaded glb")
	await _head_pose_reaches_agent(expect["pose"], door, link)
	await _push_to_talk()
	await _pointer_selects(door)
	await _pointer_measures(door)
	await _teleport_and_turn(door)
	await _runtime_lost()
	remote.close()
	link.stop()


## The origin faces away from the door; only the tracked head, turned by 180 degrees in the
## runtime, faces it. The agent must see the head's pose to find the door "in front of me".
func _head_pose_reaches_agent(pose: Dictionary, door: String, link: BimVoiceAgentLink) -> void:
	var away: Dictionary = pose.duplicate()
	away["yaw"] = BimVoiceFrames.wrap_degrees(float(pose["yaw"]) + 180.0)
	xr_rig.teleport_to_pose(away)
	await frames(3)
	var cam: XRCamera3D = xr_rig.xr_camera
	var yaw_before: float = BimVoiceFrames.ifc_yaw_pitch_from_basis(cam.global_basis).x
	check_near(absf(BimVoiceFrames.wrap_degrees(yaw_before - float(pose["yaw"]))), 180.0, 2.0,
		"before the head turns, the user faces away from the door")
	head_tracking = Transform3D(Basis(Vector3.UP, PI), head_tracking.origin)
	remote.head(head_tracking)
	remote.send()
	var turned: Callable = func() -> bool:
		var yaw: float = BimVoiceFrames.ifc_yaw_pitch_from_basis(cam.global_basis).x
		return absf(BimVoiceFrames.wrap_degrees(yaw - float(pose["yaw"]))) < 2.0
	var sent: int = link.stats["poses_sent"]
	check(await wait_for(turned, "head turn"), "the runtime's head pose turned the XR camera")
	var pose_sent: Callable = func() -> bool: return link.stats["poses_sent"] > sent
	check(await wait_for(pose_sent, "pose update"), "the turned head's pose sent to the agent")
	await frames(SETTLE_FRAMES)
	var rendered: bool = await _save_eyes("eye")
	check(rendered, "both eyes read back from the XR render target")
	await _save_figures()

	var response: Dictionary = await say("hide the door in front of me")
	check(response.get("ok", false), "agent did it: %s" % str(response))
	var hidden: Callable = func() -> bool: return rt.applier.is_hidden(door)
	check(await wait_for(hidden, "door hidden"), "the door in front of the headset is hidden")
	check_eq(rt.applier.current_state()["hidden"], [door], "exactly that door hidden")
	check(not rt.building.get_element(door).node.visible, "the door node is invisible")
	await frames(SETTLE_FRAMES)
	await _save_eyes("eye_hidden")
	response = await say("undo")
	check(response.get("ok", false), "undo: %s" % str(response))
	check(await wait_for(func() -> bool: return not rt.applier.is_hidden(door), "undo"), "door back")


## The A button of either controller is push-to-talk (OpenXR action `ax_button`).
func _push_to_talk() -> void:
	var count: int = answers.size()
	remote.button(true, "a_click", true)
	remote.send()
	check(await wait_for(rt.mic.is_capturing, "capture"), "A pressed: microphone capturing")
	var pcm: PackedVector2Array = PackedVector2Array()
	pcm.resize(int(AudioServer.get_mix_rate() * 0.3))
	rt.mic.feed(pcm)
	remote.button(true, "a_click", false)
	remote.send()
	check(await wait_for(func() -> bool: return not rt.mic.is_capturing(), "release"),
		"A released: capture stopped")
	check(await wait_for(func() -> bool: return answers.size() > count, "audio answer"),
		"the agent answered the utterance")


## The right controller points at the door; the trigger selects it ("this").
func _pointer_selects(door: String) -> void:
	var target: Vector3 = rt.building.get_element(door).current_aabb().get_center()
	target = rt.building.global_transform * target
	var origin: XROrigin3D = xr_rig.origin
	var from_local: Vector3 = head_tracking * Vector3(0.15, -0.25, -0.25)
	var from: Vector3 = origin.global_transform * from_local
	var aim: Transform3D = Transform3D(Basis.looking_at(target - from, Vector3.UP), from)
	remote.hand_pose(true, origin.global_transform.affine_inverse() * aim)
	remote.send()
	var pointing: Callable = func() -> bool: return xr_rig.pointed_id == door
	check(await wait_for(pointing, "ray on the door"), "the controller ray points at the door: "
		+ xr_rig.pointed_id)
	remote.button(true, "trigger_click", true)
	remote.send()
	var selected: Callable = func() -> bool:
		return rt.applier.selected_ids() == PackedStringArray([door])
	check(await wait_for(selected, "selection"), "trigger: the door selected through the agent")
	remote.button(true, "trigger_click", false)
	remote.send()
	await frames(3)


## The right B button measures along the controller ray: the first press sets one end, the second
## the other end, with the distance line and label (OpenXR action `by_button`).
func _pointer_measures(door: String) -> void:
	var aabb: AABB = rt.building.get_element(door).current_aabb()
	var origin: XROrigin3D = xr_rig.origin
	var from_local: Vector3 = head_tracking * Vector3(0.15, -0.25, -0.25)
	var from: Vector3 = origin.global_transform * from_local
	for end: Vector3 in [aabb.position + aabb.size * Vector3(0.5, 0.2, 0.5),
			aabb.position + aabb.size * Vector3(0.5, 0.8, 0.5)]:
		var target: Vector3 = rt.building.global_transform * end
		var aim: Transform3D = Transform3D(Basis.looking_at(target - from, Vector3.UP), from)
		remote.hand_pose(true, origin.global_transform.affine_inverse() * aim)
		remote.send()
		var count: int = rt.measure.points().size()
		await physics_frames(4)
		remote.button(true, "b_click", true)
		remote.send()
		var placed: Callable = func() -> bool: return rt.measure.points().size() == count + 1
		check(await wait_for(placed, "measure point"), "B pressed: a measuring point is set")
		remote.button(true, "b_click", false)
		remote.send()
		await frames(3)
	if not check_eq(rt.measure.points().size(), 2, "two measuring points from the controller"):
		return
	var measured: float = rt.measure.points()[0].distance_to(rt.measure.points()[1])
	check(measured > 0.3, "the ends lie apart on the door: %f m" % measured)
	check_eq(rt.measure.label_text(), BimVoiceMeasureTool.format_metres(measured), "labelled")


## Thumbstick forward aims the arc; released over a floor, the user stands there. Sideways: snap
## turn by 30 degrees.
func _teleport_and_turn(door: String) -> void:
	# Stand inside, 2 m behind the door, on the floor the picker finds there.
	var cam: XRCamera3D = xr_rig.xr_camera
	var forward: Vector3 = -cam.global_basis.z
	forward.y = 0.0
	var door_at: Vector3 = rt.building.global_transform * (
		rt.building.get_element(door).current_aabb().get_center()
	)
	var probe: Vector3 = door_at + forward.normalized() * 2.0
	var hit: Dictionary = rt.pick(probe + Vector3.UP * 0.5, probe + Vector3.DOWN * 3.0)
	if not check(not hit.is_empty(), "a floor behind the door"):
		return
	xr_rig.teleport_to_floor(hit["position"])
	await frames(3)
	var landed: bool = false
	for pitch: float in [-60.0, -75.0]:
		for step: int in 8:
			var yaw: float = TAU * step / 8.0
			var basis: Basis = Basis(Vector3.UP, yaw) * Basis(Vector3.RIGHT, deg_to_rad(pitch))
			remote.hand_pose(true, Transform3D(basis, head_tracking.origin + Vector3(0.0, -0.3, 0.0)))
			remote.thumbstick(true, Vector2(0.0, 1.0))
			remote.send()
			await physics_frames(4)
			if xr_rig.aiming and xr_rig.has_target:
				landed = true
				break
		if landed:
			break
	check(xr_rig.aiming, "thumbstick forward: the arc is shown")
	if not check(landed, "the arc lands on a floor"):
		return
	var target: Vector3 = xr_rig.target
	remote.thumbstick(true, Vector2.ZERO)
	remote.send()
	var moved: Callable = func() -> bool:
		var cam_xz: Vector2 = Vector2(cam.global_position.x, cam.global_position.z)
		return cam_xz.distance_to(Vector2(target.x, target.z)) < 0.05
	check(await wait_for(moved, "teleport"), "released: the user stands where the arc landed")
	check_near(xr_rig.origin.global_position.y, target.y, 0.01, "the user's feet are on that floor")

	var yaw_before: float = BimVoiceFrames.ifc_yaw_pitch_from_basis(cam.global_basis).x
	remote.thumbstick(true, Vector2(1.0, 0.0))
	remote.send()
	var turned: Callable = func() -> bool:
		var yaw: float = BimVoiceFrames.ifc_yaw_pitch_from_basis(cam.global_basis).x
		return absf(BimVoiceFrames.wrap_degrees(yaw - yaw_before)) > 1.0
	check(await wait_for(turned, "snap turn"), "thumbstick right: snap turn")
	var yaw_after: float = BimVoiceFrames.ifc_yaw_pitch_from_basis(cam.global_basis).x
	check_near(BimVoiceFrames.wrap_degrees(yaw_after - yaw_before), -xr_rig.snap_degrees, 0.5,
		"turned right by the snap angle")
	remote.thumbstick(true, Vector2.ZERO)
	remote.send()
	await frames(3)


## Monado is killed: the app notices, falls back to the desktop rig and keeps serving the user.
func _runtime_lost() -> void:
	OS.kill(int(args["monado-pid"]))
	var lost: Callable = func() -> bool: return not bool(main.get("xr_active"))
	check(await wait_for(lost, "runtime loss noticed"), "the app noticed the runtime is gone")
	check(main.get("rig") is BimVoiceDesktopRig, "the desktop rig took over")
	check(rt.rig == main.get("rig"), "the runtime follows the new rig")
	check(rt.hud.note.contains("headset runtime lost"), "HUD says so: " + rt.hud.note)
	check(not root.use_xr, "the window no longer renders for the headset")
	var drawn: int = Engine.get_frames_drawn()
	var response: Dictionary = await say("how many doors are there")
	check(response.get("ok", false), "the agent still answers: %s" % str(response))
	check(Engine.get_frames_drawn() > drawn, "the app keeps drawing frames")


## Saves both eyes' pictures (`<name>_left.ppm`, `<name>_right.ppm`, binary PPM: this Godot
## build's PNG encoder refuses these images) as the XR camera rendered them (read back from the
## frame's stereo colour buffer).
func _save_eyes(name: String) -> bool:
	capture.call("request")
	if not await wait_for(func() -> bool: return capture.call("done"), "eye capture"):
		return false
	var images: Array[Image] = capture.get("images")
	if not check(images.size() == 2, "two eye images (%s)" % str(capture.get("seen"))):
		return false
	print("eye capture: %s" % str(capture.get("seen")))
	for view: int in 2:
		var image: Image = images[view]
		image.convert(Image.FORMAT_RGB8)
		var path: String = out_dir.path_join("%s_%s.ppm" % [name, ["left", "right"][view]])
		var file: FileAccess = FileAccess.open(path, FileAccess.WRITE)
		var header: String = "P6\n%d %d\n255\n" % [image.get_width(), image.get_height()]
		file.store_buffer(header.to_ascii_buffer())
		file.store_buffer(image.get_data())
		file.close()
	return true


## Draw calls and CPU frame time of the XR view, medians over 30 frames (`figures.json`): the
## frame's draw calls (both eyes), the main loop's process step (it includes waiting for the
## runtime's frame pacing), the CPU time to record the view's rendering and the frame setup.
func _save_figures() -> void:
	var vp: RID = root.get_viewport_rid()
	RenderingServer.viewport_set_measure_render_time(vp, true)
	await frames(3)
	var series: Dictionary = {
		"draw_calls": [], "process_ms": [], "render_cpu_ms": [], "frame_setup_cpu_ms": []
	}
	for _i: int in 30:
		await process_frame
		series["draw_calls"].append(
			Performance.get_monitor(Performance.RENDER_TOTAL_DRAW_CALLS_IN_FRAME)
		)
		series["process_ms"].append(Performance.get_monitor(Performance.TIME_PROCESS) * 1000.0)
		series["render_cpu_ms"].append(RenderingServer.viewport_get_measured_render_time_cpu(vp))
		series["frame_setup_cpu_ms"].append(RenderingServer.get_frame_setup_time_cpu())
	var figures: Dictionary = {"elements": rt.building.elements.size()}
	for key: String in series:
		var values: Array = series[key]
		values.sort()
		figures[key] = values[values.size() / 2]
	var file: FileAccess = FileAccess.open(out_dir.path_join("figures.json"), FileAccess.WRITE)
	file.store_string(JSON.stringify(figures))
	print("XR view: %s" % JSON.stringify(figures))


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
