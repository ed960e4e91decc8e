class_name BimVoiceBuildingElement
extends RefCounted
## One IFC element as loaded into the engine: its node, its meshes and what it looked like when
## loaded (so every override can be undone exactly). The overrides applied now are kept by
## [BimVoiceChangeApplier]; the node shows them.
##
## BimVoiceFrames: everything stored here is in Godot's frame (Y up); the agent's IFC-frame values
## are
## converted by [BimVoiceChangeApplier] through [BimVoiceFrames].

## IFC GlobalId (the node's name).
var id: String
## The element's node (the glb node named by the GlobalId).
var node: Node3D
## The glTF node's `extras` (what the agent wrote about the element, e.g. its IFC class).
var extras: Dictionary = {}
## Mesh instances that draw this element (the node itself and/or descendants that are not
## elements of their own).
var meshes: Array[MeshInstance3D] = []
## The node's local transform as loaded.
var base_transform: Transform3D
## The parent's transform in the building frame as loaded (element parents never move).
var parent_global: Transform3D
## Bounding box as loaded, in the building frame (the [BimVoiceBuildingModel]'s space).
var base_aabb: AABB
## Centre of [member base_aabb], building frame: rotations turn about this point.
var centre: Vector3
## Every surface that draws this element: surface [member surface_index][i] of
## [member surface_meshes][i]. Colours are set as surface override materials (cheaper to set than
## [member GeometryInstance3D.material_override]; a loaded override is moved onto the surfaces).
var surface_meshes: Array[MeshInstance3D] = []
## See [member surface_meshes].
var surface_index: PackedInt32Array = PackedInt32Array()
## The surface override material of each surface as loaded (usually null), restored when the
## colour is reset.
var base_surface_materials: Array[Material] = []
## Material overlays of [member meshes] as loaded, restored when the selection ends.
var base_overlays: Array[Material] = []


## The element's current transform in the building frame.
func current_transform() -> Transform3D:
	return parent_global * node.transform


## The element's current bounding box in the building frame (the loaded box moved with the element).
func current_aabb() -> AABB:
	if node.transform == base_transform:
		return base_aabb
	var moved: Transform3D = current_transform() * (parent_global * base_transform).affine_inverse()
	return moved * base_aabb
