extends "res://tests/godot/scene_test.gd"
## The user-facing pieces without an agent: desktop rig (pose, walking, mouse-look, click to
## select, typed commands, push-to-talk), XR rig (teleport arc onto floors, snap turn, pose
## teleport, controller-ray selection), spectator view, HUD, microphone resampling.
## -- --no-agent --glb PATH --ids PATH.json (see test_apply.gd for the ids)

var rt: BimVoiceRuntime
var ids: Dictionary


func run_test() -> void:
	ids = read_json(args["ids"])
	rt = runtime()
	rt.speak_answers = false
	check_eq(rt.load_glb(args["glb"]), OK, "runtime loads the glb")
	rt.picker.build_all()
	await physics_frames(2)
	await test_desktop()
	await test_xr()
	test_resampler()
	test_mic()


func element_centre(key: String) -> Vector3:
	return rt.building.get_element(ids[key]).centre


func key_event(code: Key, pressed: bool) -> InputEventKey:
	var event: InputEventKey = InputEventKey.new()
	event.physical_keycode = code
	event.pressed = pressed
	return event


func test_desktop() -> void:
	var rig: BimVoiceDesktopRig = BimVoiceDesktopRig.new()
	rig.runtime = rt
	root.add_child(rig)
	rig.set_active(true)
	rt.rig = rig
	var pose: Dictionary = {"position": [2.0, 3.0, 1.6], "yaw": 90.0, "pitch": 0.0}
	rig.teleport_to_pose(pose)
	check_near(
		rig.head_transform().origin, Vector3(2.0, 1.6, -3.0), 1e-5, "desktop eye at the pose"
	)
	var back: Dictionary = BimVoiceFrames.pose_from_transform(rig.head_transform())
	check_near(float(back["yaw"]), 90.0, 1e-3, "desktop yaw round trip")
	check_near(float(back["pitch"]), 0.0, 1e-3, "desktop pitch round trip")
	# Walk: W for one second at 2.5 m/s along yaw 90 (IFC +Y).
	check(rig.handle_input(key_event(KEY_W, true)), "W used")
	rig.step(1.0)
	check(rig.handle_input(key_event(KEY_W, false)), "W release used")
	rig.step(1.0)
	var walked: Vector3 = BimVoiceFrames.godot_to_ifc(rig.head_transform().origin)
	check_near(walked, Vector3(2.0, 5.5, 1.6), 1e-4, "walked 2.5 m forward")
	rig.handle_input(key_event(KEY_E, true))
	rig.step(0.4)
	rig.handle_input(key_event(KEY_E, false))
	check_near(rig.head_transform().origin.y, 2.6, 1e-4, "E rises")
	# A tap (pressed and released before the next frame) still moves a step.
	var before_tap: Vector3 = rig.head_transform().origin
	rig.handle_input(key_event(KEY_E, true))
	rig.handle_input(key_event(KEY_E, false))
	rig.step(0.5)
	check_near(
		rig.head_transform().origin.y - before_tap.y,
		rig.speed * rig.tap_seconds,
		1e-4,
		"a tap within one frame moves"
	)
	# Typing: a printable key that is not a control starts the command line with it; Escape
	# leaves it; Enter focuses it too.
	var typed: InputEventKey = key_event(KEY_H, true)
	typed.unicode = "h".unicode_at(0)
	check(rig.handle_input(typed), "h starts typing")
	check(rig.hud.is_typing(), "the command line has the keyboard")
	check_eq(rig.hud.command_line.text, "h", "the first key is typed, not lost")
	check(not rig.handle_input(key_event(KEY_W, true)), "W types while typing")
	rig.hud.stop_typing()
	rig.hud.command_line.clear()
	check(not rig.hud.is_typing(), "stop_typing gives the keyboard back")
	# "what": W and A tapped just before H were typed, not walked.
	var start: Vector3 = rig.head_transform().origin
	for letter: String in ["w", "h", "a", "t"]:
		var down: InputEventKey = key_event(OS.find_keycode_from_string(letter.to_upper()), true)
		down.unicode = letter.unicode_at(0)
		if rig.hud.is_typing():
			rig.hud.command_line.insert_text_at_caret(letter)  # the line edit has the keyboard
			continue
		rig.handle_input(down)
		rig.step(0.05)
		var up: InputEventKey = key_event(down.physical_keycode, false)
		rig.handle_input(up)
	check_eq(rig.hud.command_line.text, "what", "a command starting with W is typed whole")
	check_near(rig.head_transform().origin, start, 1e-4, "the W tap is taken back")
	rig.hud.stop_typing()
	rig.hud.command_line.clear()
	var enter: InputEventKey = key_event(KEY_ENTER, true)
	enter.keycode = KEY_ENTER
	check(rig.handle_input(enter), "Enter focuses the command line")
	check(rig.hud.is_typing(), "Enter gives the command line the keyboard")
	rig.hud.stop_typing()
	rig.handle_input(key_event(KEY_W, false))
	# Mouse-look: only while the right button is held.
	var motion: InputEventMouseMotion = InputEventMouseMotion.new()
	motion.relative = Vector2(40.0, -20.0)
	check(not rig.handle_input(motion), "mouse motion without the button does nothing")
	var right: InputEventMouseButton = InputEventMouseButton.new()
	right.button_index = MOUSE_BUTTON_RIGHT
	right.pressed = true
	rig.handle_input(right)
	rig.handle_input(motion)
	right.pressed = false
	rig.handle_input(right)
	check_near(rig.view_angles().x, 80.0, 1e-3, "drag right turns right")
	check_near(rig.view_angles().y, 5.0, 1e-3, "drag up looks up")
	# Click to select: look at the door and click the middle of the screen.
	var door_centre: Vector3 = element_centre("door")
	rig.look_from(door_centre + Vector3(-4.0, 0.3, 0.5), door_centre)
	await process_frame
	var click: InputEventMouseButton = InputEventMouseButton.new()
	click.button_index = MOUSE_BUTTON_LEFT
	click.pressed = true
	click.position = rig.get_viewport().get_visible_rect().size / 2.0
	rig.handle_input(click)
	check_eq(Array(rt.applier.selected_ids()), [ids["door"]], "click selects the door (offline)")
	var door_mesh: MeshInstance3D = rt.building.get_element(ids["door"]).meshes[0]
	check(door_mesh.material_overlay != null, "selected door is highlighted")
	check_eq(rt.hud.selection, rt.describe_element(ids["door"]), "HUD names the selection")
	check(rig.hud.shown_text().contains("Selected: "), "desktop HUD shows the selection")
	# Hidden elements are not picked: hide the door, click again -> the wall behind it.
	var hide: Dictionary = {
		"elements":
		[
			# Hidden elements are not picked: hide the door, click again -> the wall behind it.
			{
				"ids": [ids["door"]],
				"hidden": true,
				"deleted": false,
				"color": null,
				"transform": null
			}
		],
		"props_added": [],
		"props_removed": []
	}
	check(rt.applier.apply_delta(hide).ok, "hide the door")
	rt.applier.drain()  # on a loaded machine the frame budget can leave part of the change for later
	# Colliders the first click built reach the physics space on a physics step.
	await physics_frames(2)
	rig.handle_input(click)
	check_eq(Array(rt.applier.selected_ids()), [ids["wall2"]], "click goes through the hidden door")
	# Ctrl + click measures instead of selecting: two points, a labelled distance, no new selection.
	var measuring: InputEventMouseButton = click.duplicate()
	measuring.ctrl_pressed = true
	rig.handle_input(measuring)
	rig.look_from(door_centre + Vector3(-4.0, 1.3, 1.5), door_centre + Vector3(0.0, 0.6, 0.0))
	await process_frame
	rig.handle_input(measuring)
	check_eq(rt.measure.points().size(), 2, "ctrl-click placed two measuring points")
	var measured: float = rt.measure.points()[0].distance_to(rt.measure.points()[1])
	check(measured > 0.05, "the two points differ: %f" % measured)
	check_eq(rt.measure.label_text(), BimVoiceMeasureTool.format_metres(measured), "labelled")
	check_eq(Array(rt.applier.selected_ids()), [ids["wall2"]], "measuring does not select")
	check(
		(
			rt
			. applier
			. apply_delta(
				{
					"elements":
					[
						{
							"ids": [ids["door"]],
							"hidden": false,
							"deleted": false,
							"color": null,
							"transform": null
						}
					],
					"props_added": [],
					"props_removed": [],
					"selected": []
				}
			)
			. ok
		),
		"show the door"
	)
	# A loaded machine's frame budget can leave the selection change for a later frame.
	rt.applier.drain()
	check_eq(rt.hud.selection, "", "cleared selection leaves the HUD")
	check(not rig.hud.shown_text().contains("Selected"), "no stale selection line")
	# Typed command and push-to-talk without an agent: the HUD says so.
	rig.hud.command_line.text = "hide the door"
	rig.hud.command_line.text_submitted.emit(rig.hud.command_line.text)
	check_eq(rt.hud.transcript, "hide the door", "typed command shown")
	check(rt.hud.answer.contains("not connected"), "no agent: " + rt.hud.answer)
	check(rig.hud.shown_text().contains("hide the door"), "desktop HUD shows the command")
	rig.handle_input(key_event(KEY_V, true))
	check(rt.hud.note.contains("not connected"), "push-to-talk without agent: " + rt.hud.note)
	rig.handle_input(key_event(KEY_V, false))
	# Spectator: behind and above the user's head, looking at it.
	var spectator: BimVoiceSpectatorView = (
		(load("res://scenes/spectator.tscn") as PackedScene).instantiate()
	)
	spectator.rig = rig
	spectator.smoothing = 0.0
	root.add_child(spectator)
	rig.teleport_to_pose({"position": [5.0, 4.0, 1.6], "yaw": 0.0, "pitch": -10.0})
	spectator.follow(0.016)
	var head: Vector3 = rig.head_transform().origin
	var cam: Vector3 = spectator.camera.global_position
	var behind: Vector3 = BimVoiceFrames.godot_to_ifc(cam - head)
	check_near(behind.x, -spectator.distance, 1e-3, "spectator behind the user (yaw 0 -> -X)")
	check_near(behind.z, spectator.height, 1e-3, "spectator above the user")
	var looking: Vector3 = -spectator.camera.global_basis.z
	check_near(looking, (head - cam).normalized(), 1e-4, "spectator looks at the user")
	check_near(spectator.avatar.head.global_position, head, 1e-5, "avatar head on the user's head")
	check(
		spectator.avatar.head.layers == BimVoiceAvatar.AVATAR_LAYER_MASK, "avatar on its own layer"
	)
	check(
		rig.camera().cull_mask & BimVoiceAvatar.AVATAR_LAYER_MASK == 0,
		"the user's own camera does not draw the avatar"
	)
	# The east wall stands behind the user: the camera comes in front of it, still behind the user.
	rig.teleport_to_pose({"position": [9.0, 4.0, 1.6], "yaw": 180.0, "pitch": 0.0})
	spectator.follow(0.016)
	var kept: Vector3 = BimVoiceFrames.godot_to_ifc(spectator.camera.global_position)
	check(
		kept.x < 9.85 and kept.x > 9.0, "spectator in front of the wall behind the user: %s" % kept
	)
	# The spectator window: beside the main window when the screen has room, else inside its top
	# right corner, never over the HUD panel (top left).
	var beside: Rect2i = BimVoiceMain.spectator_rect(
		Rect2i(0, 0, 1280, 720), Rect2i(0, 0, 1920, 1080)
	)
	check_eq(beside.position, Vector2i(1280, 0), "spectator beside the main window")
	var inset: Rect2i = BimVoiceMain.spectator_rect(
		Rect2i(0, 0, 1280, 720), Rect2i(0, 0, 1280, 720)
	)
	check(inset.position.x >= 12 + 460 + 12, "spectator clear of the HUD panel: %s" % inset)
	check(Rect2i(0, 0, 1280, 720).encloses(inset), "spectator inside the screen")
	check(
		BimVoiceRenderQuality.is_software_renderer("Mesa / llvmpipe (LLVM 22.1.8, 256 bits)"),
		"llvmpipe"
	)
	check(not BimVoiceRenderQuality.is_software_renderer("NVIDIA / GeForce RTX 4070"), "a GPU")
	spectator.queue_free()
	rig.queue_free()
	await process_frame


func head_yaw(rig: BimVoiceRig) -> float:
	return BimVoiceFrames.ifc_yaw_pitch_from_basis(rig.head_transform().basis).x


func test_xr() -> void:
	var rig: BimVoiceXRRig = BimVoiceXRRig.new()
	rig.runtime = rt
	root.add_child(rig)
	rt.rig = rig
	var mask: int = rig.xr_camera.cull_mask
	check(mask & BimVoiceAvatar.AVATAR_LAYER_MASK == 0, "headset does not draw the avatar")
	# Agent pose -> the headset's eyes there, facing the yaw.
	rig.teleport_to_pose({"position": [3.0, 2.0, 1.7], "yaw": 0.0, "pitch": 0.0})
	check_near(
		rig.head_transform().origin,
		BimVoiceFrames.ifc_to_godot(Vector3(3.0, 2.0, 1.7)),
		1e-4,
		"XR eyes at the pose"
	)
	check_near(head_yaw(rig), 0.0, 1e-3, "XR yaw")
	# Snap turn about the head.
	var eye: Vector3 = rig.head_transform().origin
	rig.on_stick(rig.right_hand, Vector2(0.9, 0.0))
	check_near(head_yaw(rig), -30.0, 1e-3, "snap right")
	rig.on_stick(rig.right_hand, Vector2(0.95, 0.1))
	check_near(head_yaw(rig), -30.0, 1e-3, "one snap per push")
	rig.on_stick(rig.right_hand, Vector2.ZERO)
	rig.on_stick(rig.right_hand, Vector2(-0.9, 0.0))
	rig.on_stick(rig.right_hand, Vector2.ZERO)
	check_near(head_yaw(rig), 0.0, 1e-3, "snap left")
	check_near(rig.head_transform().origin, eye, 1e-4, "snap turn keeps the head in place")
	# Teleport arc onto the floor slab (top at y = 0).
	var hand_at: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(3.0, 2.0, 1.2))
	var aim: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(6.0, 2.0, 0.0))
	rig.right_hand.global_transform = Transform3D(
		Basis.looking_at((aim - hand_at).normalized() + Vector3(0, 0.6, 0), Vector3.UP), hand_at
	)
	rig.on_stick(rig.right_hand, Vector2(0.0, 0.9))
	check(rig.aiming, "stick forward aims")
	check(rig.update_arc(), "arc lands on a floor")
	check_near(rig.target.y, 0.0, 1e-3, "arc target on the slab top")
	var target: Vector3 = rig.target
	rig.on_stick(rig.right_hand, Vector2.ZERO)
	check(not rig.aiming, "release ends aiming")
	var head: Vector3 = rig.head_transform().origin
	var flat_target: Vector3 = Vector3(target.x, 0.0, target.z)
	check_near(Vector3(head.x, 0.0, head.z), flat_target, 1e-3, "teleported onto target")
	check_near(rig.origin.global_position.y, target.y, 1e-4, "feet on the floor")
	# An arc into a wall is no floor: releasing does not move the user.
	var wall_centre: Vector3 = element_centre("wall")
	var from: Vector3 = wall_centre + Vector3(0.0, 0.3, 1.0)
	rig.right_hand.global_transform = Transform3D(Basis.looking_at(wall_centre - from), from)
	rig.on_stick(rig.right_hand, Vector2(0.0, 0.9))
	check(not rig.update_arc(), "arc into a wall has no target")
	var before: Vector3 = rig.origin.global_position
	rig.on_stick(rig.right_hand, Vector2.ZERO)
	check_near(rig.origin.global_position, before, 1e-6, "no teleport without a floor")
	# Controller ray selects what it points at.
	var column: Vector3 = element_centre("column")
	var ray_from: Vector3 = column + Vector3(2.0, 0.2, 0.0)
	rig.right_hand.global_transform = Transform3D(Basis.looking_at(column - ray_from), ray_from)
	rig.on_button(rig.right_hand, "trigger_click", true)
	check_eq(Array(rt.applier.selected_ids()), [ids["column"]], "trigger selects the column")
	check_eq(rig.pointed_id, ids["column"], "ray points at the column")
	rig.on_button(rig.left_hand, "ax_button", true)
	check(rt.hud.note.contains("not connected"), "XR push-to-talk without agent")
	rig.on_button(rig.left_hand, "ax_button", false)
	await process_frame
	check_eq(rig.hud_panel.shown_text(), rt.hud.render(), "wrist HUD shows the HUD text")
	rig.queue_free()
	await process_frame


func sine(rate: float, seconds: float, freq: float) -> PackedVector2Array:
	var frames: PackedVector2Array = PackedVector2Array()
	frames.resize(int(rate * seconds))
	for i: int in frames.size():
		var v: float = 0.5 * sin(TAU * freq * float(i) / rate)
		frames[i] = Vector2(v, v)
	return frames


func decode(pcm: PackedByteArray) -> PackedFloat32Array:
	var out: PackedFloat32Array = PackedFloat32Array()
	out.resize(pcm.size() / 2)
	for i: int in out.size():
		out[i] = float(pcm.decode_s16(i * 2)) / 32767.0
	return out


func test_resampler() -> void:
	for rate: float in [48000.0, 44100.0]:
		var frames: PackedVector2Array = sine(rate, 1.0, 440.0)
		var whole: BimVoicePcmResampler = BimVoicePcmResampler.new(rate)
		var one: PackedByteArray = whole.push_stereo(frames)
		one.append_array(whole.flush())
		var chunked: BimVoicePcmResampler = BimVoicePcmResampler.new(rate)
		var parts: PackedByteArray = PackedByteArray()
		var at: int = 0
		while at < frames.size():
			parts.append_array(chunked.push_stereo(frames.slice(at, at + 1234)))
			at += 1234
		parts.append_array(chunked.flush())
		check_eq(parts, one, "chunked resampling equals one-shot at %d Hz" % rate)
		var samples: PackedFloat32Array = decode(one)
		var got: int = samples.size()
		check(absi(got - 16000) <= 2, "1 s at %d Hz -> 16000 samples (%d)" % [rate, got])
		var crossings: int = 0
		var peak: float = 0.0
		for i: int in range(1, samples.size()):
			if (samples[i - 1] < 0.0) != (samples[i] < 0.0):
				crossings += 1
			peak = maxf(peak, absf(samples[i]))
		check(absi(crossings - 880) <= 4, "440 Hz survives resampling (%d crossings)" % crossings)
		check_near(peak, 0.5, 0.03, "amplitude kept at %d Hz" % rate)
	var mono: BimVoicePcmResampler = BimVoicePcmResampler.new(32000.0)
	var four: PackedFloat32Array = PackedFloat32Array([0.25, 0.75, -1.0, -0.5])
	var halved: PackedFloat32Array = decode(mono.push_mono(four))
	check_eq(halved.size(), 2, "mono input: a window waits until its samples are there")
	check_near(halved[0], 0.5, 1e-4, "box filter, first window")
	check_near(halved[1], -0.25, 1e-4, "box filter, second window")
	check_eq(decode(mono.flush()).size(), 1, "flush gives the last partial window")
	var clipped: PackedByteArray = BimVoicePcmResampler.to_pcm16(PackedFloat32Array([1.5, -2.0]))
	check_eq(clipped, PackedByteArray([255, 127, 0, 128]), "PCM16 clips")


func test_mic() -> void:
	var mic: BimVoiceMicCapture = BimVoiceMicCapture.new()
	root.add_child(mic)
	var chunks: Array[PackedByteArray] = []
	mic.chunk_ready.connect(func(pcm: PackedByteArray) -> void: chunks.append(pcm))
	check_eq(AudioServer.get_bus_index(BimVoiceMicCapture.BUS_NAME) >= 0, true, "Mic bus exists")
	check(
		AudioServer.is_bus_mute(AudioServer.get_bus_index(BimVoiceMicCapture.BUS_NAME)),
		"Mic bus is muted"
	)
	var problem: String = mic.start()
	check_eq(problem, "", "capture starts")
	var rate: float = AudioServer.get_mix_rate()
	mic.feed(sine(rate, 0.35, 300.0))
	check_eq(chunks.size(), 1, "one chunk once 0.1 s is buffered")
	mic.stop()
	var samples: PackedFloat32Array = PackedFloat32Array()
	for chunk: PackedByteArray in chunks:
		samples.append_array(decode(chunk))
	# The fed 0.35 s come first; stop() also drains what the (muted, silent) microphone delivered
	# meanwhile, if the audio thread mixed in between: only silence may follow.
	check(samples.size() >= 5598, "0.35 s -> 5600 samples at 16 kHz (%d)" % samples.size())
	var loud: float = 0.0
	for i: int in range(1000, 5000):
		loud = maxf(loud, absf(samples[mini(i, samples.size() - 1)]))
	check(loud > 0.3, "the fed tone is there (peak %.2f)" % loud)
	var after: float = 0.0
	for i: int in range(5610, samples.size()):
		after = maxf(after, absf(samples[i]))
	check(after < 0.01, "anything after the fed samples is silence (peak %.3f)" % after)
	check(not mic.is_capturing(), "stopped")
	mic.queue_free()
