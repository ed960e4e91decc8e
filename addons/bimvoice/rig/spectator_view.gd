@tool
@icon("res://addons/bimvoice/icons/spectator.svg")
class_name BimVoiceSpectatorView
extends Node3D
## A third-person view of the user for people watching: a camera that follows the user's head
## from behind and above, and an avatar (head and hands) driven by the rig. When a wall (any
## visible building element) stands between the user and that place, the camera moves in front
## of it, so the user stays in sight.
## `scenes/spectator.tscn` is this node; the main scene shows it in a second window.

## Metres behind the user's head.
@export_range(0.0, 20.0, 0.1, "suffix:m") var distance: float = 2.6
## Metres above the user's head.
@export_range(-5.0, 20.0, 0.1, "suffix:m") var height: float = 0.9
## How fast the camera catches up (1/s); 0 snaps.
@export_range(0.0, 30.0, 0.5, "suffix:1/s") var smoothing: float = 6.0
## Metres kept between the camera and a wall it was moved in front of.
@export var wall_margin: float = 0.3

## The rig to follow.
var rig: BimVoiceRig = null
## The follow camera.
var camera: Camera3D
## The user's avatar.
var avatar: BimVoiceAvatar


func _init() -> void:
	avatar = BimVoiceAvatar.new()
	avatar.name = "Avatar"
	add_child(avatar)
	camera = Camera3D.new()
	camera.name = "Camera"
	camera.top_level = true
	camera.fov = 65.0
	camera.near = 0.05
	camera.far = 500.0
	add_child(camera)


func _process(delta: float) -> void:
	if Engine.is_editor_hint():
		return
	if rig == null:
		var runtime: BimVoiceRuntime = BimVoiceRuntime.find_in(get_tree())
		rig = runtime.rig if runtime != null else null
	follow(delta)


## Editor warnings for wrong wiring: nothing to follow.
func _get_configuration_warnings() -> PackedStringArray:
	if rig == null and BimVoiceRuntime.autoload_name().is_empty():
		return PackedStringArray([
			"Nothing to follow: set `rig` from code, or enable the BimVoice plugin so the view"
			+ " follows the runtime's rig."
		])
	return PackedStringArray()


## Moves the avatar to the rig's head and hands and the camera behind them.
func follow(delta: float) -> void:
	if rig == null or not rig.is_inside_tree() or not is_inside_tree():
		return
	var head: Transform3D = rig.head_transform()
	avatar.pose(head, rig.hand_transform(true), rig.hand_transform(false))
	var forward: Vector3 = -head.basis.z
	forward.y = 0.0
	if forward.length() < 1e-4:
		forward = head.basis.y
		forward.y = 0.0
	forward = forward.normalized() if forward.length() > 1e-4 else Vector3.FORWARD
	var behind: Vector3 = head.origin - forward * distance + Vector3.UP * height
	var wanted: Vector3 = unblocked(head.origin, behind)
	var weight: float = 1.0 if smoothing <= 0.0 else clampf(delta * smoothing, 0.0, 1.0)
	var eye: Vector3 = camera.global_position.lerp(wanted, weight)
	if not unblocked(head.origin, eye).is_equal_approx(eye):
		eye = wanted  # never linger behind a wall while catching up
	if eye.distance_to(head.origin) < 0.01:
		return
	camera.global_transform = Transform3D(Basis.looking_at(head.origin - eye, Vector3.UP), eye)


## [param wanted] when nothing visible of the building lies between [param head] and it, else a
## point in front of the first element in the way ([member wall_margin] from it, towards the head).
func unblocked(head: Vector3, wanted: Vector3) -> Vector3:
	var runtime: BimVoiceRuntime = rig.runtime if rig != null else null
	if runtime == null or not runtime.building.is_loaded():
		return wanted
	var hit: Dictionary = runtime.pick(head, wanted)
	if hit.is_empty():
		return wanted
	var along: float = maxf(float(hit["distance"]) - wall_margin, 0.0)
	return head + (wanted - head).normalized() * along
