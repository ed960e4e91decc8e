extends "res://tests/godot/scene_test.gd"
## Draw calls of the main scene's desktop view after a building loads (the overview the app opens
## with, at the quality chosen for this renderer), averaged over [constant FRAMES] frames; one
## JSON line out. Run by bench_draw_calls.py under Xvfb with the opengl3 renderer.
## -- --no-agent --desktop --glb PATH [--no-batches]

const FRAMES: int = 30


func run_test() -> void:
	var rt: BimVoiceRuntime = runtime()
	var main: Node3D = (load("res://scenes/main.tscn") as PackedScene).instantiate() as Node3D
	root.add_child(main)
	var deadline: int = Time.get_ticks_msec() + 120000
	while not rt.building.is_loaded() and Time.get_ticks_msec() < deadline:
		await process_frame
	if not check(rt.building.is_loaded(), "building loaded"):
		return
	await frames(20)
	var calls: Array = []
	var objects: Array = []
	for _i: int in FRAMES:
		await process_frame
		calls.append(Performance.get_monitor(Performance.RENDER_TOTAL_DRAW_CALLS_IN_FRAME))
		objects.append(Performance.get_monitor(Performance.RENDER_TOTAL_OBJECTS_IN_FRAME))
	calls.sort()
	objects.sort()
	var batches: BimVoiceBuildingBatches = rt.building.batches
	var out: Dictionary = {
		"elements": rt.building.elements.size(),
		"draw_calls": calls[calls.size() / 2],
		"objects": objects[objects.size() / 2],
		"batches": batches.meshes.size() if batches != null else 0,
		"batch_build_ms": batches.build_usec / 1000.0 if batches != null else 0.0,
		"load_s": rt.building.load_seconds,
	}
	print("DRAWCALLS " + JSON.stringify(out))
	check(true, "measured")
