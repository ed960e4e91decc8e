extends "res://tests/godot/scene_test.gd"
## The review view in the engine: the scale-model view puts the building on a table in front of
## the user, the sun study moves the sun, a section cuts. States come from the agent.
## -- --no-agent --glb PATH --states PATH.json ({"table": state, "sun": state, "section": state})

var rt: BimVoiceRuntime


func run_test() -> void:
	rt = runtime()
	rt.speak_answers = false
	check_eq(rt.load_glb(args["glb"]), OK, "runtime loads the glb")
	var environment: BimVoiceEnvironment = BimVoiceEnvironment.new()
	root.add_child(environment)
	rt.environment = environment
	var states: Dictionary = read_json(args["states"])
	var full: AABB = rt.building.world_aabb()
	test_table(states["table"], full)
	test_sun(states["sun"], environment)
	test_section(states["section"])
	# Back to the state as loaded: full size, default sun, no section.
	var plain: Dictionary = (states["table"] as Dictionary).duplicate(true)
	plain["view_scale"] = null
	plain["sun"] = null
	plain["sections"] = []
	check(rt.applier.apply_state(plain).ok, "plain state applied")
	check_eq(rt.building.transform, Transform3D.IDENTITY, "full size again")
	var again: AABB = rt.building.global_transform * rt.building.world_aabb()
	check_near(again.size, full.size, 1e-3, "same size as loaded")
	check(not rt.clipper.is_active(), "no section")
	var rotation: Vector3 = environment.sun.rotation_degrees
	check_near(rotation, BimVoiceEnvironment.DEFAULT_SUN_ROTATION, 1e-3, "sun back")
	await test_measure(states["table"])


func test_measure(table: Dictionary) -> void:
	rt.picker.build_all()
	await physics_frames(2)
	var box: AABB = rt.building.global_transform * rt.building.world_aabb()
	var c: Vector3 = box.get_center()
	var top: float = box.end.y + 5.0
	var a: Vector3 = c + Vector3(-2.0, 0.0, 0.0)
	var b: Vector3 = c + Vector3(2.0, 0.0, 1.0)
	check_eq(rt.measure_along(Vector3(a.x, top, a.z), Vector3(a.x, -50, a.z)), -1.0, "first point")
	var metres: float = rt.measure_along(Vector3(b.x, top, b.z), Vector3(b.x, -50, b.z))
	var pts: PackedVector3Array = rt.measure.points()
	check_eq(pts.size(), 2, "two points")
	check_near(metres, pts[0].distance_to(pts[1]), 1e-4, "distance between the picked points")
	check(metres > 4.0, "the points lie about 4 m apart in plan: %f" % metres)
	check_eq(rt.measure.label_text(), BimVoiceMeasureTool.format_metres(metres), "label shows it")
	check_eq(rt.measure_along(Vector3(0, 1000, 0), Vector3(0, 900, 0)), -2.0, "a ray into the sky")
	# On the table model the same points measure the same real-world distance.
	check(rt.applier.apply_state(table).ok, "table state")
	rt.picker.build_all()
	await physics_frames(2)
	var k: float = float(table["view_scale"]["scale"])
	var world_a: Vector3 = rt.building.global_transform * (pts[0])
	var world_b: Vector3 = rt.building.global_transform * (pts[1])
	rt.measure.clear()
	rt.measure_along(world_a + Vector3(0, 0.5, 0), world_a - Vector3(0, 0.5, 0))
	var small: float = rt.measure_along(world_b + Vector3(0, 0.5, 0), world_b - Vector3(0, 0.5, 0))
	check_near(small, metres, 0.05, "real-world metres on the scale model (scale %f)" % k)
	check_eq(BimVoiceMeasureTool.format_metres(0.48), "48 cm", "short lengths in centimetres")


func test_table(state: Dictionary, full: AABB) -> void:
	check(rt.applier.apply_state(state).ok, "table state applied")
	var box: AABB = rt.building.global_transform * rt.building.world_aabb()
	var pose: Dictionary = state["pose"]
	var p: Array = pose["position"]
	var eye: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(p[0], p[1], p[2]))
	var floor_y: float = eye.y - 1.6
	# Small enough for a table: at most a metre across in plan, standing on a table top.
	var fits: bool = box.size.x <= 1.0 + 1e-3 and box.size.z <= 1.0 + 1e-3
	check(fits, "fits a 1 m table: %s" % str(box.size))
	check(box.size.x < full.size.x * 0.2, "shrunk")
	check_near(box.position.y, floor_y + 0.8, 0.02, "on a table top 0.8 m above the floor")
	# In front of the user: the centre lies along the heading, about a metre away.
	var yaw: float = deg_to_rad(float(pose["yaw"]))
	var ahead: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(cos(yaw), sin(yaw), 0.0))
	var to_model: Vector3 = box.get_center() - eye
	to_model.y = 0.0
	check(to_model.normalized().dot(ahead) > 0.95, "in front of the user")
	check_near(to_model.length(), 1.0, 0.15, "about a metre away")
	# Picking still finds elements (colliders scale with the building).
	rt.picker.build_all()
	await physics_frames(2)
	var above: Vector3 = box.get_center() + Vector3(0, 2, 0)
	var hit: Dictionary = rt.pick(above, box.get_center() - Vector3(0, 2, 0))
	var picked: bool = not hit.is_empty() and rt.building.elements.has(hit.get("id", ""))
	check(picked, "the table model can be pointed at")


func test_sun(state: Dictionary, environment: BimVoiceEnvironment) -> void:
	check(rt.applier.apply_state(state).ok, "sun state applied")
	var sun: Dictionary = state["sun"]
	var d: Array = sun["direction"]
	var expected: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(d[0], d[1], d[2])).normalized()
	check_near(
		environment.towards_sun(), expected, 1e-4, "the light comes from the sun's direction"
	)
	var elevation: float = rad_to_deg(asin(environment.towards_sun().y))
	check_near(elevation, float(sun["elevation_deg"]), 0.05, "sun elevation")
	check(environment.sun.light_energy > 0.0, "the sun is up and lights the model")


func test_section(state: Dictionary) -> void:
	check(rt.applier.apply_state(state).ok, "section state applied")
	check(rt.clipper.is_active(), "section active")
	var planes: Array = state["sections"]
	var z: float = float(planes[0]["location"][2])
	check(
		rt.clipper.is_cut(BimVoiceFrames.ifc_to_godot(Vector3(5.0, 5.0, z + 0.5))),
		"above the cut is cut"
	)
	check(
		not rt.clipper.is_cut(BimVoiceFrames.ifc_to_godot(Vector3(5.0, 5.0, z - 0.5))),
		"below is kept"
	)
	check(rt.clipper.twinned_count() > 0, "surfaces draw with clipping materials")
	check_eq(rt.applier.current_state()["sections"], planes, "mirror has the section")
