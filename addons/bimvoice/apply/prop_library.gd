class_name BimVoicePropLibrary
extends RefCounted
## Furniture props: `addons/bimvoice/props/<asset>.glb` (origin on the floor, Y up), loaded once
## and instanced per prop. A missing or unreadable asset becomes a labelled box of the asset's
## size (from the prop catalogue, pyagent/props.py), and [member missing] says which fell back.

## Folder holding the prop glbs.
const PROPS_DIR: String = "res://addons/bimvoice/props"
## Size of the box for an asset with no usual size.
const DEFAULT_SIZE: Vector3 = Vector3(0.8, 0.8, 0.8)

## Assets that were shown as boxes because their glb is missing or unreadable.
var missing: PackedStringArray = PackedStringArray()

var _dir: String
var _templates: Dictionary = {}
var _box_material: StandardMaterial3D = null


## A library reading `<dir>/<asset>.glb`.
func _init(dir: String = PROPS_DIR) -> void:
	_dir = dir


## A new node showing the asset, origin on the floor at the prop's position. Its meta `asset`
## names the asset and meta `fallback` is true when it is a box.
func instantiate(asset: String) -> Node3D:
	var template: Node3D = _template(asset)
	var node: Node3D
	if template != null:
		node = template.duplicate() as Node3D
		node.set_meta(&"fallback", false)
	else:
		node = _box(asset)
		node.set_meta(&"fallback", true)
	node.set_meta(&"asset", asset)
	return node


## Path of an asset's glb.
func asset_path(asset: String) -> String:
	return "%s/%s.glb" % [_dir, asset]


func _template(asset: String) -> Node3D:
	if _templates.has(asset):
		return _templates[asset]
	var template: Node3D = _load(asset_path(asset))
	_templates[asset] = template
	if template == null and not missing.has(asset):
		missing.append(asset)
	return template


func _load(path: String) -> Node3D:
	if ResourceLoader.exists(path, "PackedScene"):
		var packed: PackedScene = load(path) as PackedScene
		if packed != null:
			return packed.instantiate() as Node3D
	if not FileAccess.file_exists(path):
		return null
	var reader: BimVoiceGlbReader = BimVoiceGlbReader.new()
	var root: Node3D = reader.read_file(path)
	if root == null:
		push_warning("BimVoicePropLibrary: " + reader.error)
	return root


func _box(asset: String) -> Node3D:
	var size: Vector3 = BimVoiceSchemaConstants.PROP_SIZES.get(asset, DEFAULT_SIZE)
	var root: Node3D = Node3D.new()
	var mesh_instance: MeshInstance3D = MeshInstance3D.new()
	mesh_instance.name = "Box"
	var box: BoxMesh = BoxMesh.new()
	box.size = size
	mesh_instance.mesh = box
	mesh_instance.position = Vector3(0.0, size.y / 2.0, 0.0)
	if _box_material == null:
		_box_material = StandardMaterial3D.new()
		_box_material.albedo_color = Color(0.75, 0.55, 0.35)
	mesh_instance.material_override = _box_material
	root.add_child(mesh_instance)
	var label: Label3D = Label3D.new()
	label.name = "Label"
	label.text = "%s (box: %s.glb missing)" % [asset, asset]
	label.billboard = BaseMaterial3D.BILLBOARD_ENABLED
	label.pixel_size = 0.004
	label.position = Vector3(0.0, size.y + 0.2, 0.0)
	root.add_child(label)
	return root
