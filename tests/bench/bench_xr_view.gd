extends "res://tests/godot/scene_test.gd"
## The XR view's cost per building: the main scene in XR mode against Monado (started by
## bench_xr_view.py), the user placed outside the building looking at it from three quarters,
## then draw calls and CPU times sampled over [constant FRAMES] frames; one JSON line out.
## -- --no-agent --glb PATH

const FRAMES: int = 60
const OVERVIEW_FROM: Vector3 = Vector3(1.0, 0.75, 1.2)


func run_test() -> void:
	var rt: BimVoiceRuntime = runtime()
	var main: Node3D = (load("res://scenes/main.tscn") as PackedScene).instantiate() as Node3D
	root.add_child(main)
	var rig: BimVoiceXRRig = main.get("rig") as BimVoiceXRRig
	if not check(rig != null, "XR mode"):
		return
	var loaded: Callable = func() -> bool: return rt.building.is_loaded()
	var deadline: int = Time.get_ticks_msec() + 120000
	while not loaded.call() and Time.get_ticks_msec() < deadline:
		await process_frame
	if not check(rt.building.is_loaded(), "building loaded"):
		return
	var view: Array[Vector3] = BimVoiceEnvironment.three_quarter_view(
		rt.building.world_aabb(), rig.xr_camera.fov, OVERVIEW_FROM
	)
	var flat: Vector3 = view[1] - view[0]
	flat.y = 0.0
	rig.origin.global_transform = Transform3D(
		Basis.looking_at(flat.normalized(), Vector3.UP), view[0] - Vector3(0.0, 1.6, 0.0)
	)
	var vp: RID = root.get_viewport_rid()
	RenderingServer.viewport_set_measure_render_time(vp, true)
	await frames(20)
	var series: Dictionary = {"draw_calls": [], "render_cpu_ms": [], "frame_setup_cpu_ms": [],
		"objects": []}
	for _i: int in FRAMES:
		await process_frame
		series["draw_calls"].append(
			Performance.get_monitor(Performance.RENDER_TOTAL_DRAW_CALLS_IN_FRAME)
		)
		series["objects"].append(Performance.get_monitor(Performance.RENDER_TOTAL_OBJECTS_IN_FRAME))
		series["render_cpu_ms"].append(RenderingServer.viewport_get_measured_render_time_cpu(vp))
		series["frame_setup_cpu_ms"].append(RenderingServer.get_frame_setup_time_cpu())
	var out: Dictionary = {"elements": rt.building.elements.size()}
	for key: String in series:
		var values: Array = series[key]
		values.sort()
		out[key + "_median"] = values[values.size() / 2]
		out[key + "_p95"] = values[int(values.size() * 0.95)]
	print("XRVIEW " + JSON.stringify(out))
	check(true, "measured")
