extends "res://tests/godot/scene_test.gd"
## Applies engine states and deltas to a small building and checks the node state: visibility,
## colour/transparency overrides, transforms, deletion, props, selection, pose, refusals.
## -- --no-agent --glb PATH --ids PATH.json --props-dir DIR --dump PATH.json
## ids.json: {"floor", "wall", "wall2", "door", "window", "column"} -> GlobalIds in the glb.
## props-dir holds chair.glb (sofa.glb is missing on purpose).
## Every delta/state given to the applier is written to --dump (with "good": true/false) so the
## pytest wrapper can check them against the action schema.

var building: BimVoiceBuildingModel
var applier: BimVoiceChangeApplier
var ids: Dictionary
var dumped: Array = []
var poses_seen: Array = []


func run_test() -> void:
	ids = read_json(args["ids"])
	building = BimVoiceBuildingModel.new()
	root.add_child(building)
	check_eq(building.load_file(args["glb"]), OK, "load")
	applier = BimVoiceChangeApplier.new(building, null, BimVoicePropLibrary.new(args["props-dir"]))
	applier.pose_changed.connect(func(p: Dictionary) -> void: poses_seen.append(p))
	check(building.batches != null, "the building is drawn in batches")
	for test: Callable in [
		test_hide_show,
		test_colors,
		test_transform,
		test_delete,
		test_props,
		test_selection,
		test_batches,
		test_pose,
		test_refusals,
		test_unknown_and_reload,
		test_full_state,
	]:
		test.call()
		_batches_agree(test.get_method())
	var file: FileAccess = FileAccess.open(args["dump"], FileAccess.WRITE)
	file.store_string(JSON.stringify(dumped))
	file.close()


func el(key: String) -> BimVoiceBuildingElement:
	return building.get_element(ids[key])


func change(
	hidden: bool = false, deleted: bool = false, color: Variant = null, xform: Variant = null
) -> Dictionary:
	return {"hidden": hidden, "deleted": deleted, "color": color, "transform": xform}


## A delta with one element group per id of [param elements] (id -> change).
func delta(elements: Dictionary, extra: Dictionary = {}) -> Dictionary:
	var groups: Array = []
	for gid: String in elements:
		var group: Variant = elements[gid]
		if group is Dictionary:
			group = (group as Dictionary).duplicate()
			group["ids"] = [gid]
		groups.append(group)
	var d: Dictionary = {"elements": groups, "props_added": [], "props_removed": []}
	d.merge(extra, true)
	return d


func apply(d: Variant) -> BimVoiceApplyReport:
	dumped.append({"kind": "delta", "good": true, "value": d})
	var report: BimVoiceApplyReport = applier.apply_delta(d)
	check(report.ok, "delta applied: %s" % report.error)
	return report


func refuse(d: Variant, what: String) -> void:
	dumped.append({"kind": "delta", "good": false, "value": d})
	var before: String = JSON.stringify(applier.current_state())
	var visible_before: Array = visibility()
	var report: BimVoiceApplyReport = applier.apply_delta(d)
	check(not report.ok, "refused: " + what)
	check(not report.error.is_empty(), "refusal says why: " + what)
	check_eq(JSON.stringify(applier.current_state()), before, "state unchanged after " + what)
	check_eq(visibility(), visible_before, "nodes unchanged after " + what)


func visibility() -> Array:
	var out: Array = []
	for gid: String in building.element_ids():
		var e: BimVoiceBuildingElement = building.get_element(gid)
		out.append([gid, e.node.visible, painted(e), e.node.transform])
	return out


## The colour override material on an element's first surface (null: none).
func painted(e: BimVoiceBuildingElement) -> Material:
	return e.surface_meshes[0].get_surface_override_material(e.surface_index[0])


func _override_color(e: BimVoiceBuildingElement) -> Color:
	var m: StandardMaterial3D = painted(e) as StandardMaterial3D
	return m.albedo_color if m != null else Color(-1, -1, -1, -1)


func test_hide_show() -> void:
	var door: String = ids["door"]
	var report: BimVoiceApplyReport = apply(delta({door: change(true)}))
	check_eq(report.hidden, 1, "one hidden")
	check(not el("door").node.visible, "door hidden")
	check(el("wall").node.visible, "wall still visible")
	check_eq(applier.current_state()["hidden"], [door], "mirror: hidden")
	check_eq(report.summary(), "1 hidden", "summary")
	report = apply(delta({door: change(true)}))
	check_eq(report.hidden, 0, "re-applying changes nothing")
	check_eq(report.summary(), "no change", "idempotent summary")
	report = apply(delta({door: change()}))
	check_eq(report.shown, 1, "shown again")
	check(el("door").node.visible, "door visible again")
	check_eq(applier.current_state()["hidden"], [], "mirror: nothing hidden")
	# One group for several elements; an id in two groups: the later group wins.
	var wall: String = ids["wall"]
	var blue: Array = [0.0, 0.0, 1.0, 1.0]
	report = apply(
		{
			"elements":
			[
				{
					"ids": [door, wall],
					"hidden": true,
					"deleted": false,
					"color": null,
					"transform": null
				},
				{
					"ids": [wall],
					"hidden": false,
					"deleted": false,
					"color": blue,
					"transform": null
				},
			],
			"props_added": [],
			"props_removed": []
		}
	)
	check(not el("door").node.visible and el("wall").node.visible, "groups applied in order")
	check_near(_override_color(el("wall")), Color(0, 0, 1, 1), 0.002, "the later group painted")
	check_eq(applier.current_state()["hidden"], [door], "mirror: the later group wins")
	check_eq(applier.current_state()["colors"].keys(), [wall], "mirror: the later colour")
	apply(delta({door: change(), wall: change()}))
	check(el("door").node.visible, "door shown")
	check(painted(el("wall")) == el("wall").base_surface_materials[0], "wall colour reset exactly")


func test_colors() -> void:
	var base_override: Material = painted(el("wall"))
	var cached_before: int = applier.materials.size()
	var wall: String = ids["wall"]
	var wall2: String = ids["wall2"]
	var column: String = ids["column"]
	var report: BimVoiceApplyReport = apply(
		delta(
			{
				wall: change(false, false, [1.0, 0.0, 0.0, 1.0]),
				wall2: change(false, false, [1.0, 0.0, 0.0, 1.0]),
				column: change(false, false, [0.2, 0.4, 0.9, 0.3]),
			}
		)
	)
	check_eq(report.colored, 3, "three painted")
	check_near(_override_color(el("wall")), Color(1, 0, 0, 1), 0.002, "wall red")
	var red: StandardMaterial3D = painted(el("wall"))
	check_eq(red.transparency, BaseMaterial3D.TRANSPARENCY_DISABLED, "opaque colour is opaque")
	check(painted(el("wall2")) == red, "same colour shares one material")
	check(el("wall").meshes[0].get_active_material(0) == red, "the colour is what is drawn")
	var glass: StandardMaterial3D = painted(el("column"))
	check_near(glass.albedo_color, Color(0.2, 0.4, 0.9, 0.3), 0.002, "column colour and alpha")
	check_eq(glass.transparency, BaseMaterial3D.TRANSPARENCY_ALPHA, "alpha < 1 is transparent")
	check_eq(applier.current_state()["colors"][column], [0.2, 0.4, 0.9, 0.3], "mirror: colour")
	report = apply(delta({wall: change(), wall2: change(), column: change()}))
	check_eq(report.uncolored, 3, "three colour resets")
	check(painted(el("wall")) == base_override, "wall material restored exactly")
	check(painted(el("column")) == null, "column material restored exactly")
	check_eq(applier.materials.size(), cached_before + 2, "two more cached colour materials")
	# The window's glass (alpha 0.4 as loaded) painted an opaque colour stays see-through; asked
	# for a transparency, the two multiply.
	var window: String = ids["window"]
	apply(delta({window: change(false, false, [1.0, 0.0, 0.0, 1.0])}))
	var painted_glass: StandardMaterial3D = painted(el("window"))
	check_near(
		painted_glass.albedo_color, Color(1, 0, 0, 0.4), 0.002, "painted glass keeps its alpha"
	)
	check_eq(painted_glass.transparency, BaseMaterial3D.TRANSPARENCY_ALPHA, "painted glass blends")
	apply(delta({window: change(false, false, [1.0, 0.0, 0.0, 0.5])}))
	check_near(_override_color(el("window")).a, 0.2, 0.002, "transparency on glass multiplies")
	apply(delta({window: change()}))
	check(painted(el("window")) == el("window").base_surface_materials[0], "glass restored exactly")


func test_transform() -> void:
	var e: BimVoiceBuildingElement = el("column")
	var gid: String = ids["column"]
	var base_local: Transform3D = e.node.transform
	var world0: Transform3D = e.current_transform()
	var c: Vector3 = e.centre
	# A point one metre from the centre towards IFC +X, in the node's own space.
	var probe_world: Vector3 = c + BimVoiceFrames.ifc_to_godot(Vector3(1, 0, 0))
	var probe_local: Vector3 = world0.affine_inverse() * probe_world
	var xform: Dictionary = {"translation": [1.0, 2.0, 0.5], "rotation_deg": [0.0, 0.0, 90.0]}
	var report: BimVoiceApplyReport = apply(delta({gid: change(false, false, null, xform)}))
	check_eq(report.moved, 1, "moved")
	var moved_world: Transform3D = e.current_transform()
	var t_godot: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(1.0, 2.0, 0.5))
	check_near(
		moved_world * probe_local,
		c + t_godot + BimVoiceFrames.ifc_to_godot(Vector3(0, 1, 0)),
		1e-4,
		"rotated 90 deg CCW about its centre (IFC +X -> +Y) and moved"
	)
	check_near(
		e.current_aabb().get_center(), c + t_godot, 1e-4, "box centre moved by the translation"
	)
	check_eq(applier.current_state()["transforms"][gid], xform, "mirror: transform")
	# Rotation about IFC X tips IFC +Y towards IFC +Z.
	var tip: Dictionary = {"translation": [0.0, 0.0, 0.0], "rotation_deg": [90.0, 0.0, 0.0]}
	apply(delta({gid: change(false, false, null, tip)}))
	var probe_y_local: Vector3 = (
		world0.affine_inverse() * (c + BimVoiceFrames.ifc_to_godot(Vector3(0, 1, 0)))
	)
	check_near(
		e.current_transform() * probe_y_local,
		c + BimVoiceFrames.ifc_to_godot(Vector3(0, 0, 1)),
		1e-4,
		"rotation about IFC X"
	)
	report = apply(delta({gid: change()}))
	check_eq(e.node.transform, base_local, "transform restored exactly")


func test_delete() -> void:
	var window: String = ids["window"]
	var report: BimVoiceApplyReport = apply(delta({window: change(false, true)}))
	check_eq(report.deleted, 1, "deleted")
	check(not el("window").node.visible, "deleted is hidden")
	check(el("window").node.get_meta(&"deleted", false), "deleted is marked")
	check_eq(applier.current_state()["deleted"], [window], "mirror: deleted")
	report = apply(delta({window: change(true, false)}))
	check_eq(report.restored, 1, "undelete")
	check(not el("window").node.visible, "undeleted but still hidden stays hidden")
	check(not el("window").node.has_meta(&"deleted"), "mark removed")
	apply(delta({window: change()}))
	check(el("window").node.visible, "visible after undo")


func test_props() -> void:
	var chair: Dictionary = {"id": "p1", "asset": "chair", "position": [2.0, 3.0, 0.0], "yaw": 90.0}
	var sofa: Dictionary = {"id": "p2", "asset": "sofa", "position": [4.0, 1.0, 0.0], "yaw": 0.0}
	var report: BimVoiceApplyReport = apply(delta({}, {"props_added": [chair, sofa]}))
	check_eq(report.props_added, 2, "two props")
	check_eq(applier.prop_count(), 2, "two prop nodes")
	var chair_node: Node3D = applier.prop_node("p1")
	check(chair_node != null and chair_node.get_parent() == applier.props_root, "chair placed")
	check_eq(chair_node.get_meta(&"fallback"), false, "chair comes from chair.glb")
	check(
		chair_node.find_children("*", "MeshInstance3D", true, false).size() > 0, "chair has meshes"
	)
	var chair_at: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(2, 3, 0))
	check_near(chair_node.global_position, chair_at, 1e-5, "chair position")
	# yaw 90: the prop's +X (IFC) now points to IFC +Y.
	check_near(
		chair_node.global_basis * BimVoiceFrames.ifc_to_godot(Vector3(1, 0, 0)),
		BimVoiceFrames.ifc_to_godot(Vector3(0, 1, 0)),
		1e-5,
		"chair yaw"
	)
	var sofa_node: Node3D = applier.prop_node("p2")
	check_eq(sofa_node.get_meta(&"fallback"), true, "missing sofa.glb -> box")
	check(sofa_node.find_children("*", "Label3D", true, false).size() == 1, "box is labelled")
	check(Array(report.fallback_assets) == ["sofa"], "report names the missing asset")
	check(report.summary().contains("sofa.glb missing"), "summary says so: " + report.summary())
	# Moving a prop: removed then added again with the same id.
	var moved: Dictionary = chair.duplicate(true)
	moved["position"] = [5.0, 5.0, 0.0]
	report = apply(delta({}, {"props_removed": ["p1"], "props_added": [moved]}))
	check_eq(applier.prop_count(), 2, "still two props after a move")
	check_near(
		applier.prop_node("p1").global_position,
		BimVoiceFrames.ifc_to_godot(Vector3(5, 5, 0)),
		1e-5,
		"chair moved"
	)
	check_eq(applier.current_state()["props"].size(), 2, "mirror: props")
	apply(delta({}, {"props_removed": ["p1", "p2"]}))
	check_eq(applier.prop_count(), 0, "props removed")
	check_eq(applier.props_root.get_child_count(), 0, "prop nodes gone")


func test_selection() -> void:
	var door: String = ids["door"]
	var wall: String = ids["wall"]
	var seen: Array = []
	var on_change: Callable = func(sel: PackedStringArray) -> void: seen.append(sel)
	applier.selection_changed.connect(on_change)
	var highlight: Material = applier.materials.highlight_material()
	apply(delta({}, {"selected": [door, wall]}))
	check(el("door").meshes[0].material_overlay == highlight, "door highlighted")
	check(el("wall").meshes[0].material_overlay == highlight, "wall highlighted")
	check(el("floor").meshes[0].material_overlay == null, "floor not highlighted")
	apply(delta({}, {"selected": [wall]}))
	check(el("door").meshes[0].material_overlay == null, "door highlight removed exactly")
	check(el("wall").meshes[0].material_overlay == highlight, "wall still highlighted")
	check_eq(Array(applier.selected_ids()), [wall], "selected ids")
	apply(delta({}, {"selected": []}))
	check(el("wall").meshes[0].material_overlay == null, "selection cleared")
	check_eq(seen.size(), 3, "selection_changed per change")
	applier.selection_changed.disconnect(on_change)


## The batches draw what the element nodes say: each element either lifted out to its own meshes
## (which then draw) or batched with its own meshes off, and then hidden, painted and moved in the
## batch state exactly as its node is.
func _batches_agree(where: String) -> void:
	var batches: BimVoiceBuildingBatches = building.batches
	if batches == null:
		return
	for gid: String in building.element_ids():
		var e: BimVoiceBuildingElement = building.get_element(gid)
		var k: int = building.index[gid]
		var what: String = "%s: %s" % [where, gid]
		if batches.is_lifted(k):
			check_eq(batches.mode_of(k), BimVoiceBuildingBatches.MODE_HIDDEN, what + " lifted")
			check(e.meshes[0].layers != 0, what + " lifted: own mesh drawn")
			continue
		check_eq(e.meshes[0].layers, 0, what + " batched: own mesh not drawn")
		var mode: int = batches.mode_of(k)
		if not e.node.visible:
			check_eq(mode, BimVoiceBuildingBatches.MODE_HIDDEN, what + " hidden in the batch")
			continue
		var paint: StandardMaterial3D = painted(e) as StandardMaterial3D
		var is_painted: bool = paint != null and paint != e.base_surface_materials[0]
		check_eq(mode & 3, 2 if is_painted else 1, what + " painted or not in the batch")
		if is_painted:
			check_near(batches.color_of(k), paint.albedo_color, 0.003, what + " batch colour")
		var moved: bool = e.node.transform != e.base_transform
		check_eq(mode & BimVoiceBuildingBatches.MODE_MOVED != 0, moved, what + " moved or not")
		var motion: Array = batches.motion_of(k)
		var about: Transform3D = Transform3D(
			motion[0], e.centre + motion[1] - (motion[0] as Basis) * e.centre
		)
		check_near(
			(about * e.parent_global * e.base_transform).origin,
			e.current_transform().origin,
			1e-4,
			what + " batch motion"
		)


## What only the element's own meshes can draw lifts it out of the batches, and it goes back
## when that ends: a see-through colour, a selection; an opaque colour and a move stay batched.
func test_batches() -> void:
	var batches: BimVoiceBuildingBatches = building.batches
	var wall: String = ids["wall"]
	var column: String = ids["column"]
	var door: String = ids["door"]
	var kw: int = building.index[wall]
	var kc: int = building.index[column]
	var kd: int = building.index[door]
	var xform: Dictionary = {"translation": [0.0, 0.0, 2.0], "rotation_deg": [0.0, 0.0, 0.0]}
	apply(
		delta(
			{
				wall: change(false, false, [0.2, 0.6, 0.4, 1.0], xform),
				column: change(false, false, [0.0, 1.0, 0.0, 0.5]),
				door: change(true),
			}
		)
	)
	check(not batches.is_lifted(kw), "opaque colour and move stay batched")
	check_eq(
		batches.mode_of(kw),
		BimVoiceBuildingBatches.MODE_COLORED + BimVoiceBuildingBatches.MODE_MOVED,
		"wall painted and moved in the batch"
	)
	check_near(batches.color_of(kw), Color(0.2, 0.6, 0.4), 0.003, "wall's colour in the batch")
	check_near(
		batches.motion_of(kw)[1], BimVoiceFrames.ifc_to_godot(Vector3(0, 0, 2)), 1e-5, "2 m up"
	)
	check(batches.is_lifted(kc), "see-through colour lifts the column out")
	check_eq(batches.mode_of(kd), BimVoiceBuildingBatches.MODE_HIDDEN, "door hidden in the batch")
	_batches_agree("painted, see-through, moved, hidden")
	apply(delta({}, {"selected": [wall]}))
	check(batches.is_lifted(kw), "selection lifts the wall out")
	check(el("wall").meshes[0].layers != 0, "the wall's own mesh draws the outline")
	_batches_agree("selected")
	apply(delta({wall: change(), column: change(), door: change()}, {"selected": []}))
	for k: int in [kw, kc, kd]:
		check(not batches.is_lifted(k), "back in the batches")
		check_eq(batches.mode_of(k), BimVoiceBuildingBatches.MODE_BASE, "back as loaded")
	check_eq(batches.lifted_count(), 0, "nothing lifted")


func test_pose() -> void:
	var pose: Dictionary = {"position": [1.0, 2.0, 1.6], "yaw": 45.0, "pitch": 0.0}
	var report: BimVoiceApplyReport = apply(delta({}, {"pose": pose}))
	check(report.pose_changed, "pose changed")
	check_eq(poses_seen.size(), 1, "pose_changed emitted")
	check_eq(poses_seen[-1], pose, "pose handed to the rig")
	apply(delta({}, {"pose": pose}))
	check_eq(poses_seen.size(), 1, "same pose not emitted twice")


func test_refusals() -> void:
	var door: String = ids["door"]
	var wall: String = ids["wall"]
	refuse("hide everything", "a string")
	refuse({"elements": [], "props_added": []}, "missing props_removed")
	refuse({"elements": {}, "props_added": [], "props_removed": []}, "elements not a list")
	var empty_ids: Dictionary = delta({door: change(true)})
	empty_ids["elements"][0]["ids"] = []
	refuse(empty_ids, "a group without ids")
	var number_id: Dictionary = delta({door: change(true)})
	number_id["elements"][0]["ids"] = [door, 42]
	refuse(number_id, "an id that is not a string")
	var ids_text: Dictionary = delta({door: change(true)})
	ids_text["elements"][0]["ids"] = door
	refuse(ids_text, "ids not a list")
	refuse(delta({door: change(false, false, [2.0, 0.0, 0.0, 1.0])}), "colour out of range")
	refuse(delta({door: change(false, false, [1.0, 0.0, 0.0])}), "colour with 3 channels")
	var extra: Dictionary = change(true)
	extra["visible"] = false
	refuse(delta({door: extra}), "unknown element field")
	refuse(delta({door: {"hidden": true}}), "element change missing fields")
	var half_transform: Dictionary = {"translation": [1, 2, 3]}
	refuse(delta({door: change(false, false, null, half_transform)}), "transform w/o rotation")
	refuse(delta({}, {"selected": [1, 2]}), "selected not strings")
	refuse(delta({}, {"pose": {"position": [0, 0], "yaw": 0, "pitch": 0}}), "bad pose")
	refuse(
		delta({}, {"props_added": [{"id": "x", "asset": "chair", "position": [0, 0, 0]}]}),
		"prop without yaw"
	)
	refuse(delta({}, {"colour": {}}), "unknown delta field")
	refuse(delta({}, {"sections": [{"location": [0, 0, 1]}]}), "section plane without direction")
	refuse(delta({}, {"sections": [{"location": [0, 0], "direction": [0, 0, 1]}]}), "2-d plane")
	refuse(
		delta({}, {"view_scale": {"scale": 0, "pivot": [0, 0, 0], "anchor": [0, 0, 0]}}),
		"zero scale"
	)
	refuse(delta({}, {"sun": {"direction": [0, 0, 1]}}), "sun without elevation")
	# All or nothing: a good change next to a bad one is not applied either.
	refuse(
		delta({wall: change(true), door: change(false, false, "red")}), "one bad change among good"
	)
	check(el("wall").node.visible, "the good change was not applied")


func test_unknown_and_reload() -> void:
	var ghost: String = "3GhostGhostGhostGhost$"
	var door: String = ids["door"]
	var green: Dictionary = change(false, false, [0, 1, 0, 1])
	var report: BimVoiceApplyReport = apply(delta({ghost: change(true), door: green}))
	check_eq(Array(report.unknown), [ghost], "unknown id reported")
	check(applier.current_state()["hidden"].has(ghost), "unknown id kept in the mirror")
	# Reload the building (new nodes): the applier puts the overrides back by itself.
	var old_node: Node3D = el("door").node
	check_eq(building.load_file(args["glb"]), OK, "reload")
	check(el("door").node != old_node, "new nodes after reload")
	check_near(
		_override_color(el("door")), Color(0, 1, 0, 1), 0.002, "door colour back after reload"
	)
	check(applier.is_hidden(ghost) == false, "unknown id is not an element")
	apply(delta({ghost: change(), door: change()}))


func test_full_state() -> void:
	var door: String = ids["door"]
	var wall: String = ids["wall"]
	var column: String = ids["column"]
	var window: String = ids["window"]
	apply(
		delta(
			{
				door: change(true),
				wall: change(false, false, [0.5, 0.5, 0.5, 1.0]),
				column:
				change(false, false, null, {"translation": [0, 0, 1], "rotation_deg": [0, 0, 0]}),
			},
			{
				"props_added": [{"id": "p9", "asset": "chair", "position": [1, 1, 0], "yaw": 0}],
				"selected": [door]
			}
		)
	)
	var state: Dictionary = {
		"hidden": [window],
		"colors": {column: [0.0, 0.0, 1.0, 0.5]},
		"transforms": {},
		"deleted": [],
		"props": [{"id": "p10", "asset": "table", "position": [3.0, 3.0, 0.0], "yaw": 10.0}],
		"pose": {"position": [0.0, 0.0, 1.6], "yaw": 0.0, "pitch": 0.0},
		"selected": [column],
		"sections": [{"location": [0.0, 0.0, 1.2], "direction": [0.0, 0.0, 1.0]}],
		"viewpoints":
		{
			"entrance":
			{"pose": {"position": [1.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0}, "sections": []}
		},
		"sun": null,
		"view_scale": null,
	}
	dumped.append({"kind": "state", "good": true, "value": state})
	var report: BimVoiceApplyReport = applier.apply_state(state)
	check(report.ok, "state applied: " + report.error)
	check(el("door").node.visible, "door shown by resync")
	check(not el("window").node.visible, "window hidden by resync")
	check(painted(el("wall")) == null, "wall colour reset by resync")
	check_near(
		_override_color(el("column")), Color(0, 0, 1, 0.5), 0.002, "column coloured by resync"
	)
	check_eq(el("column").node.transform, el("column").base_transform, "column transform reset")
	check(applier.prop_node("p9") == null and applier.prop_node("p10") != null, "props resynced")
	check(el("door").meshes[0].material_overlay == null, "old selection cleared")
	check(el("column").meshes[0].material_overlay != null, "new selection drawn")
	check_eq(
		JSON.stringify(applier.current_state()), JSON.stringify(state), "mirror equals the state"
	)
	var bad: Dictionary = state.duplicate(true)
	bad.erase("pose")
	dumped.append({"kind": "state", "good": false, "value": bad})
	check(not applier.apply_state(bad).ok, "state without pose refused")
	check(not el("window").node.visible, "refused state changed nothing")
