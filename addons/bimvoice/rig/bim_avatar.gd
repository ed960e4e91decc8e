class_name BimVoiceAvatar
extends Node3D
## A simple stand-in for the user, seen by spectators: a head (with a visor showing where it
## looks) and two hands. Drawn on its own visual layer so the user's own camera can skip it.

## Visual layer (1-based) of the avatar's meshes.
const AVATAR_LAYER: int = 19
## Cull-mask bit of [constant AVATAR_LAYER].
const AVATAR_LAYER_MASK: int = 1 << (AVATAR_LAYER - 1)

## The head mesh.
var head: MeshInstance3D
## The left hand mesh.
var left_hand: MeshInstance3D
## The right hand mesh.
var right_hand: MeshInstance3D


func _init() -> void:
	var skin: StandardMaterial3D = StandardMaterial3D.new()
	skin.albedo_color = Color(0.2, 0.55, 0.95)
	var visor_material: StandardMaterial3D = StandardMaterial3D.new()
	visor_material.albedo_color = Color(0.05, 0.05, 0.08)
	head = MeshInstance3D.new()
	head.name = "Head"
	var sphere: SphereMesh = SphereMesh.new()
	sphere.radius = 0.12
	sphere.height = 0.26
	head.mesh = sphere
	head.material_override = skin
	var visor: MeshInstance3D = MeshInstance3D.new()
	visor.name = "Visor"
	var visor_box: BoxMesh = BoxMesh.new()
	visor_box.size = Vector3(0.18, 0.07, 0.06)
	visor.mesh = visor_box
	visor.position = Vector3(0.0, 0.02, -0.1)
	visor.material_override = visor_material
	head.add_child(visor)
	left_hand = _hand("LeftHand", skin)
	right_hand = _hand("RightHand", skin)
	for part: MeshInstance3D in [head, visor, left_hand, right_hand]:
		part.layers = AVATAR_LAYER_MASK
	for part: MeshInstance3D in [head, left_hand, right_hand]:
		part.top_level = true
		add_child(part)


## Places head and hands (global transforms; the head looks along its -Z).
func pose(head_xform: Transform3D, left_xform: Transform3D, right_xform: Transform3D) -> void:
	head.global_transform = head_xform.orthonormalized()
	left_hand.global_transform = left_xform.orthonormalized()
	right_hand.global_transform = right_xform.orthonormalized()


func _hand(node_name: String, material: Material) -> MeshInstance3D:
	var hand: MeshInstance3D = MeshInstance3D.new()
	hand.name = node_name
	var box: BoxMesh = BoxMesh.new()
	box.size = Vector3(0.07, 0.04, 0.14)
	hand.mesh = box
	hand.material_override = material
	return hand
