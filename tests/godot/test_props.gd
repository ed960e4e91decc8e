extends "res://tests/godot/scene_test.gd"
## The prop library with the agent's prop glbs (pyagent/props.py): every asset loads from its
## glb, stands on the floor with the catalogue's size, and a missing asset becomes a box.
## -- --no-agent --props-dir DIR


func run_test() -> void:
	var library: BimVoicePropLibrary = BimVoicePropLibrary.new(args["props-dir"])
	for asset: String in BimVoiceSchemaConstants.PROP_ASSETS:
		var node: Node3D = library.instantiate(asset)
		root.add_child(node)
		check_eq(node.get_meta(&"fallback"), false, "%s comes from its glb" % asset)
		var box: AABB = bounds(node)
		var size: Vector3 = BimVoiceSchemaConstants.PROP_SIZES[asset]
		check_near(box.size, size, 0.03, "%s size (width, height, depth)" % asset)
		check_near(box.position.y, 0.0, 1e-3, "%s stands on the floor" % asset)
		node.queue_free()
	check(library.missing.is_empty(), "nothing missing: %s" % str(library.missing))
	var empty: BimVoicePropLibrary = BimVoicePropLibrary.new(args["props-dir"] + "/nowhere")
	var box_node: Node3D = empty.instantiate("sofa")
	root.add_child(box_node)
	check_eq(box_node.get_meta(&"fallback"), true, "missing glb -> box")
	var sofa: Vector3 = BimVoiceSchemaConstants.PROP_SIZES["sofa"]
	check_near(bounds(box_node).size, sofa, 1e-3, "box has the sofa's size")
	check_eq(Array(empty.missing), ["sofa"], "missing asset listed")
	await process_frame


func bounds(node: Node3D) -> AABB:
	var out: AABB = AABB()
	var first: bool = true
	for child: Node in node.find_children("*", "MeshInstance3D", true, false):
		var mesh: MeshInstance3D = child
		var box: AABB = node.global_transform.affine_inverse() * mesh.global_transform * mesh.get_aabb()
		out = box if first else out.merge(box)
		first = false
	return out
