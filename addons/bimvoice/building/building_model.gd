class_name BimVoiceBuildingModel
extends Node3D
## The building as the agent sent it: a glb loaded at runtime (from a file or from the bytes of
## the link's `model` message) with every element node indexed by its IFC GlobalId.
##
## The glb is Y up already (the agent converts). Godot keeps `$` and `_` in node names, but the
## index does not rely on the node names: it maps each glTF node's original name (the GlobalId)
## to the node that the importer generated for it, through the [GLTFState].

## Emitted after a building was loaded and indexed.
signal loaded(element_count: int)
## Emitted when a glb could not be loaded; nothing changed.
signal load_failed(message: String)
## Emitted after a glb part's elements were added to the loaded building ([method add_bytes]);
## they come last in [member element_list].
signal elements_added(ids: PackedStringArray)

## Name of the child that holds the generated glb scene.
const SCENE_NODE_NAME: String = "Scene"

## GlobalId -> [BimVoiceBuildingElement], every element node of the loaded glb.
var elements: Dictionary = {}
## Every element (the position is the element's index): sorted by GlobalId, then the elements
## each added part brought ([method add_bytes]), sorted among themselves.
var element_list: Array[BimVoiceBuildingElement] = []
## GlobalId -> index in [member element_list]. Replaced, never changed in place, when elements are
## added (other threads may read the one they were given).
var index: Dictionary = {}
## Glb parts added to the loaded building since it was loaded.
var part_count: int = 0
## Where the building came from (a path, or a label for bytes).
var source: String = ""
## Nodes whose name the importer changed (their GlobalId is still the index key).
var renamed_count: int = 0
## Seconds the last load took (parse + generate + index + batches).
var load_seconds: float = 0.0
## Whether a loaded building is drawn in merged batches ([BimVoiceBuildingBatches]: a few draw
## calls with per-element state) rather than one draw per element. Takes effect at the next load.
var batched: bool = true
## The batches of the loaded building (null when [member batched] is off or nothing is loaded).
var batches: BimVoiceBuildingBatches = null

var _gid_regex: RegEx = RegEx.create_from_string(BimVoiceSchemaConstants.GID_PATTERN)
var _scene: Node3D = null
# The scene roots of the added parts (siblings of the scene, same frame).
var _parts: Array[Node3D] = []


## Loads a .glb file (res://, user:// or an absolute path). Returns OK or the failure, in which
## case the previously loaded building stays.
func load_file(path: String) -> Error:
	var started: int = Time.get_ticks_usec()
	var reader: BimVoiceGlbReader = BimVoiceGlbReader.new()
	return _finish(reader, reader.read_file(path), path, started)


## Loads a building from the bytes of a .glb (the link's `model` message).
func load_bytes(bytes: PackedByteArray, label: String = "agent model") -> Error:
	var started: int = Time.get_ticks_usec()
	var reader: BimVoiceGlbReader = BimVoiceGlbReader.new()
	return _finish(reader, reader.read_bytes(bytes, label), label, started)


## Adds the elements of a glb part (the link's `model_part`: elements the loaded building lacks,
## written in the same frame) to the loaded building: their nodes join it, they are indexed after
## the elements already there and drawn in batches of their own; what the elements already there
## show is untouched. Ids the building has already are left out. Emits [signal elements_added].
## Returns OK or the failure (nothing changed).
func add_bytes(bytes: PackedByteArray, label: String = "agent model part") -> Error:
	if _scene == null:
		return _fail(ERR_UNCONFIGURED, "no building is loaded to add %s to" % label)
	var started: int = Time.get_ticks_usec()
	var reader: BimVoiceGlbReader = BimVoiceGlbReader.new()
	var root: Node3D = reader.read_bytes(bytes, label)
	if root == null:
		return _fail(ERR_CANT_OPEN, reader.error)
	part_count += 1
	root.name = "%s%d" % [SCENE_NODE_NAME, part_count]
	add_child(root)
	_parts.append(root)
	var first: int = element_list.size()
	var added: Array[BimVoiceBuildingElement] = _index_nodes(reader.state, root)
	var ids: PackedStringArray = PackedStringArray()
	for element: BimVoiceBuildingElement in added:
		ids.append(element.id)
	if batches != null:
		batches.add_elements(self, first)
	load_seconds = float(Time.get_ticks_usec() - started) / 1e6
	elements_added.emit(ids)
	return OK


## Removes the loaded building.
func clear() -> void:
	elements.clear()
	element_list.clear()
	index = {}
	renamed_count = 0
	part_count = 0
	for part: Node3D in _parts:
		remove_child(part)
		part.queue_free()
	_parts.clear()
	source = ""
	if batches != null:
		batches.release()
		batches = null
	if _scene != null:
		remove_child(_scene)
		_scene.queue_free()
		_scene = null


## Whether a building is loaded.
func is_loaded() -> bool:
	return _scene != null


## The root of the generated glb scene (null when nothing is loaded).
func scene_root() -> Node3D:
	return _scene


## GlobalIds of every element, sorted.
func element_ids() -> PackedStringArray:
	var ids: PackedStringArray = PackedStringArray(elements.keys())
	ids.sort()
	return ids


## The element with this GlobalId, or null.
func get_element(gid: String) -> BimVoiceBuildingElement:
	return elements.get(gid, null)


## Whether a string is an IFC GlobalId (22 characters of 0-9A-Za-z_$).
func is_global_id(text: String) -> bool:
	return _gid_regex.search(text) != null


## World-frame box around every element (empty when nothing is loaded).
func world_aabb() -> AABB:
	var box: AABB = AABB()
	var first: bool = true
	for element: BimVoiceBuildingElement in elements.values():
		if first:
			box = element.base_aabb
			first = false
		else:
			box = box.merge(element.base_aabb)
	return box


func _fail(err: Error, message: String) -> Error:
	push_warning("BimVoiceBuildingModel: " + message)
	load_failed.emit(message)
	return err


func _finish(reader: BimVoiceGlbReader, root: Node3D, label: String, started: int) -> Error:
	if root == null:
		return _fail(ERR_CANT_OPEN, reader.error)
	clear()
	_scene = root
	_scene.name = SCENE_NODE_NAME
	add_child(_scene)
	source = label
	_index_nodes(reader.state, _scene)
	if batched:
		batches = BimVoiceBuildingBatches.new()
		batches.build(self)
	load_seconds = float(Time.get_ticks_usec() - started) / 1e6
	loaded.emit(elements.size())
	return OK


# Indexes the element nodes of a glb read into [param root] (ids not yet in [member elements]);
# they are appended to [member element_list], sorted among themselves. Returns them.
func _index_nodes(state: GLTFState, root: Node3D) -> Array[BimVoiceBuildingElement]:
	# Generated nodes by their (legalised, unique) names; the GLTFNode's resource_name holds that
	# name and original_name the name written in the file.
	var by_name: Dictionary = {}
	_collect_by_name(root, by_name)
	var gltf_nodes: Array[GLTFNode] = state.get_nodes()
	var json_nodes: Array = state.json.get("nodes", [])
	var found: Dictionary = {}
	for i: int in gltf_nodes.size():
		var gltf_node: GLTFNode = gltf_nodes[i]
		var original: String = gltf_node.original_name
		if original.is_empty():
			original = gltf_node.resource_name
		if not is_global_id(original) or elements.has(original):
			continue
		var node: Node3D = by_name.get(gltf_node.resource_name, null)
		if node == null:
			node = by_name.get(original, null)
		if node == null:
			push_warning("BimVoiceBuildingModel: glTF node %s has no scene node" % original)
			continue
		if String(node.name) != original:
			renamed_count += 1
		var element: BimVoiceBuildingElement = BimVoiceBuildingElement.new()
		element.id = original
		element.node = node
		if i < json_nodes.size() and json_nodes[i] is Dictionary:
			var extras: Variant = (json_nodes[i] as Dictionary).get("extras", {})
			if extras is Dictionary:
				element.extras = extras
		node.set_meta(&"gid", original)
		found[original] = element
	var ids: PackedStringArray = PackedStringArray(found.keys())
	ids.sort()
	var grown: Dictionary = index.duplicate()
	var added: Array[BimVoiceBuildingElement] = []
	for gid: String in ids:
		var element: BimVoiceBuildingElement = found[gid]
		elements[gid] = element
		grown[gid] = element_list.size()
		element_list.append(element)
		_describe(element)
		added.append(element)
	index = grown
	return added


func _collect_by_name(node: Node, by_name: Dictionary) -> void:
	for child: Node in node.get_children():
		if child is Node3D:
			by_name[String(child.name)] = child
		_collect_by_name(child, by_name)


func _describe(element: BimVoiceBuildingElement) -> void:
	var node: Node3D = element.node
	element.base_transform = node.transform
	element.parent_global = to_building(node.get_parent())
	_collect_meshes(node, element.meshes, true)
	var world: Transform3D = element.parent_global * element.base_transform
	var box: AABB = AABB()
	var first: bool = true
	for mesh: MeshInstance3D in element.meshes:
		_list_surfaces(element, mesh)
		element.base_overlays.append(mesh.material_overlay)
		var mesh_box: AABB = to_building(mesh) * mesh.get_aabb()
		if first:
			box = mesh_box
			first = false
		else:
			box = box.merge(mesh_box)
	if first:
		box = AABB(world.origin, Vector3.ZERO)
	element.base_aabb = box
	element.centre = box.get_center()


# Records the surfaces of an element's mesh; a material override on the mesh is moved onto its
# surfaces (it draws the same), so colour changes only ever touch surface overrides.
func _list_surfaces(element: BimVoiceBuildingElement, mesh: MeshInstance3D) -> void:
	var override: Material = mesh.material_override
	for s: int in mesh.get_surface_override_material_count():
		if override != null:
			mesh.set_surface_override_material(s, override)
		element.surface_meshes.append(mesh)
		element.surface_index.append(s)
		element.base_surface_materials.append(mesh.get_surface_override_material(s))
	if override != null:
		mesh.material_override = null


## Transform from a node's space to this BimVoiceBuildingModel's space (works outside the scene
## tree).
func to_building(node: Node) -> Transform3D:
	var xform: Transform3D = Transform3D.IDENTITY
	var current: Node = node
	while current != null and current != self:
		if current is Node3D:
			xform = (current as Node3D).transform * xform
		current = current.get_parent()
	return xform


func _collect_meshes(node: Node, into: Array[MeshInstance3D], is_top: bool) -> void:
	if not is_top and node.has_meta(&"gid"):
		return
	if node is MeshInstance3D:
		into.append(node as MeshInstance3D)
	for child: Node in node.get_children():
		_collect_meshes(child, into, false)
