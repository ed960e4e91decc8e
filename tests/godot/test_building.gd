extends "res://tests/godot/scene_test.gd"
## Loads a building glb (from a file and from bytes) and checks the element index against the
## agent's element list.
## -- --no-agent --glb PATH --expected PATH.json ({"ids": [GlobalIds of elements with geometry],
## optional "bbox_godot": the building's box, "boxes": {GlobalId: [min x, y, z, max x, y, z]}
## each element's box (Godot frame), "meshes": how many distinct meshes the glb has})


func run_test() -> void:
	var glb: String = args.get("glb", "")
	var expected_doc: Dictionary = read_json(args.get("expected", ""))
	var expected: Array = expected_doc["ids"]
	expected.sort()
	var building: BimVoiceBuildingModel = BimVoiceBuildingModel.new()
	root.add_child(building)
	check_eq(building.load_file(glb), OK, "load %s" % glb)
	var ids: Array = Array(building.element_ids())
	check_eq(ids.size(), expected.size(), "element count")
	check_eq(ids, expected, "element ids")
	check_eq(building.renamed_count, 0, "node names changed by the importer")
	var with_dollar: int = 0
	var mesh_total: int = 0
	for gid: String in ids:
		var element: BimVoiceBuildingElement = building.get_element(gid)
		check_eq(String(element.node.name), gid, "node name of %s" % gid)
		check(element.meshes.size() >= 1, "%s has a mesh" % gid)
		check(element.base_aabb.size.length() > 0.0, "%s has a box" % gid)
		if gid.contains("$"):
			with_dollar += 1
		mesh_total += element.meshes.size()
	var expected_dollar: int = 0
	for gid: String in expected:
		if gid.contains("$"):
			expected_dollar += 1
	check_eq(with_dollar, expected_dollar, "ids with '$' kept")
	var scene: Node3D = building.scene_root()
	var all_meshes: Array[Node] = scene.find_children("*", "MeshInstance3D", true, false)
	check_eq(all_meshes.size(), mesh_total, "every mesh belongs to one element")
	check_eq(
		building.scene_root().find_children("*", "ImporterMeshInstance3D", true, false).size(),
		0,
		"no importer-only mesh nodes left"
	)
	if expected_doc.has("boxes"):
		_check_boxes(building, expected_doc["boxes"])
	if expected_doc.has("meshes"):
		var distinct: Dictionary = {}
		for element: BimVoiceBuildingElement in building.element_list:
			for mesh_instance: MeshInstance3D in element.meshes:
				distinct[mesh_instance.mesh] = true
		check_eq(
			distinct.size(), int(expected_doc["meshes"]), "distinct mesh resources (shared ones kept)"
		)
	var box: AABB = building.world_aabb()
	check(box.size.x > 1.0 and box.size.y > 1.0 and box.size.z > 1.0, "building box %s" % box)
	if expected_doc.has("bbox_godot"):
		var b: Array = expected_doc["bbox_godot"]
		check_near(box.position, Vector3(b[0], b[1], b[2]), 0.05, "building box min")
		check_near(box.end, Vector3(b[3], b[4], b[5]), 0.05, "building box max")

	# The same building from bytes (the link's model message).
	var bytes: PackedByteArray = FileAccess.get_file_as_bytes(glb)
	var from_bytes: BimVoiceBuildingModel = BimVoiceBuildingModel.new()
	root.add_child(from_bytes)
	check_eq(from_bytes.load_bytes(bytes, "bytes"), OK, "load from bytes")
	check_eq(Array(from_bytes.element_ids()), expected, "ids from bytes")

	# Bad input changes nothing.
	var failed: Array[String] = []
	from_bytes.load_failed.connect(func(message: String) -> void: failed.append(message))
	check(from_bytes.load_bytes(PackedByteArray([1, 2, 3]), "junk") != OK, "junk bytes refused")
	var truncated: PackedByteArray = bytes.slice(0, bytes.size() / 2)
	check(from_bytes.load_bytes(truncated, "truncated") != OK, "truncated glb refused")
	check(from_bytes.load_file("res://no/such/file.glb") != OK, "missing file refused")
	check_eq(failed.size(), 3, "load_failed emitted for each refusal")
	check_eq(from_bytes.elements.size(), expected.size(), "building kept after refusals")
	check(from_bytes.is_loaded(), "scene kept after refusals")
	print("loaded %d elements in %.3f s (file) / %.3f s (bytes)" % [
		ids.size(), building.load_seconds, from_bytes.load_seconds
	])


# Every element's loaded box is the box of its own triangles (within 0.1 mm), whether its node
# turns a shared mesh or not.
func _check_boxes(building: BimVoiceBuildingModel, boxes: Dictionary) -> void:
	var bad: Array[String] = []
	for gid: String in boxes:
		var element: BimVoiceBuildingElement = building.get_element(gid)
		if element == null:
			bad.append("%s missing" % gid)
			continue
		var b: Array = boxes[gid]
		var lo: Vector3 = Vector3(b[0], b[1], b[2])
		var hi: Vector3 = Vector3(b[3], b[4], b[5])
		var got: AABB = element.base_aabb
		var off: float = maxf(
			(got.position - lo).abs()[(got.position - lo).abs().max_axis_index()],
			(got.end - hi).abs()[(got.end - hi).abs().max_axis_index()]
		)
		if off > 1e-4:
			bad.append("%s: %s, expected %s..%s" % [gid, got, lo, hi])
	check(
		bad.is_empty(),
		"element boxes (%d of %d off): %s" % [bad.size(), boxes.size(), bad.slice(0, 5)]
	)
