class_name BimVoiceGlbReader
extends RefCounted
## Reads binary glTF at runtime into a scene of [MeshInstance3D] nodes.
##
## [method GLTFDocument.generate_scene] may leave [ImporterMeshInstance3D] nodes (which draw
## nothing) when the engine binary is an editor build; [method read] converts them.

## The [GLTFState] of the last successful read (glTF node names, JSON, meshes).
var state: GLTFState = null
## Why the last read failed ("" after a success).
var error: String = ""


## Reads a .glb file; returns its scene root or null (then [member error] says why).
func read_file(path: String) -> Node3D:
	if not FileAccess.file_exists(path):
		return _fail("no glb at %s" % path)
	var doc: GLTFDocument = GLTFDocument.new()
	var new_state: GLTFState = GLTFState.new()
	var err: Error = doc.append_from_file(path, new_state)
	if err != OK:
		return _fail("cannot read glb %s: %s" % [path, error_string(err)])
	return _generate(doc, new_state, path)


## Reads the bytes of a .glb; returns its scene root or null (then [member error] says why).
func read_bytes(bytes: PackedByteArray, label: String) -> Node3D:
	if bytes.size() < 12 or bytes.slice(0, 4).get_string_from_ascii() != "glTF":
		return _fail("%s is not a binary glTF (%d bytes)" % [label, bytes.size()])
	var doc: GLTFDocument = GLTFDocument.new()
	var new_state: GLTFState = GLTFState.new()
	var err: Error = doc.append_from_buffer(bytes, "", new_state)
	if err != OK:
		return _fail("cannot read %s: %s" % [label, error_string(err)])
	return _generate(doc, new_state, label)


## Replaces every [ImporterMeshInstance3D] under [param root] by an equivalent
## [MeshInstance3D] (same name, transform, visibility, children).
static func convert_importer_meshes(root: Node) -> void:
	for child: Node in root.get_children():
		convert_importer_meshes(child)
	if root is ImporterMeshInstance3D and root.get_parent() != null:
		var old: ImporterMeshInstance3D = root
		var mesh_instance: MeshInstance3D = MeshInstance3D.new()
		var node_name: StringName = old.name
		mesh_instance.transform = old.transform
		mesh_instance.visible = old.visible
		if old.mesh != null:
			mesh_instance.mesh = old.mesh.get_mesh()
		mesh_instance.skin = old.skin
		mesh_instance.skeleton = old.skeleton_path
		for meta: StringName in old.get_meta_list():
			mesh_instance.set_meta(meta, old.get_meta(meta))
		old.replace_by(mesh_instance)
		old.free()
		mesh_instance.name = node_name


func _generate(doc: GLTFDocument, new_state: GLTFState, label: String) -> Node3D:
	var root: Node = doc.generate_scene(new_state)
	if not root is Node3D:
		if root != null:
			root.free()
		return _fail("%s has no 3D scene" % label)
	if root is ImporterMeshInstance3D:
		var wrapper: Node3D = Node3D.new()
		wrapper.name = root.name
		wrapper.add_child(root)
		root = wrapper
	convert_importer_meshes(root)
	state = new_state
	error = ""
	return root as Node3D


func _fail(message: String) -> Node3D:
	error = message
	state = null
	return null
