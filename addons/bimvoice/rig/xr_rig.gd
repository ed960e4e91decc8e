@tool
@icon("res://addons/bimvoice/icons/xr_rig.svg")
class_name BimVoiceXRRig
extends BimVoiceRig
## The headset rig: [XROrigin3D] with an [XRCamera3D] and two [XRController3D].
##
## Right thumbstick forward: aim a parabolic arc, release to teleport onto the floor it lands
## on. Right thumbstick left/right: snap turn (30°). Right trigger: select the element the
## controller ray points at (sent as `select`, for "this"/"that"). Right B button: measure (first
## press sets one end where the ray hits, the second the other end and shows the distance; a third
## starts again). A/X button: push-to-talk.
## The HUD panel rides on the left controller.
##
## Controller input names are those of Godot's default OpenXR action map.

## Thumbstick deflection that starts an action.
const PRESS: float = 0.6
## Thumbstick deflection under which it counts as released.
const RELEASE: float = 0.3
## Arc integration step (s).
const ARC_DT: float = 0.04
## Arc integration steps.
const ARC_STEPS: int = 60
## Surfaces whose normal has at least this Y component are floors.
const FLOOR_NORMAL_Y: float = 0.7

## Degrees per snap turn.
@export_range(5.0, 90.0, 5.0, "suffix:°") var snap_degrees: float = 30.0
## Launch speed of the teleport arc (m/s).
@export_range(1.0, 20.0, 0.5, "suffix:m/s") var arc_speed: float = 8.0
## Controller ray length (m).
@export_range(1.0, 200.0, 1.0, "suffix:m") var ray_length: float = 40.0
## OpenXR action (boolean) of the push-to-talk button, either hand.
@export var talk_button: String = "ax_button"
## OpenXR action (boolean) of the select button, right hand.
@export var select_button: String = "trigger_click"
## OpenXR action (boolean) of the measuring button, right hand.
@export var measure_button: String = "by_button"
## OpenXR action (vector2) of the thumbstick: forward aims the teleport arc, sideways snap-turns.
@export var stick: String = "primary"

## The tracking origin (floor level).
var origin: XROrigin3D
## The headset camera.
var xr_camera: XRCamera3D
## The left controller.
var left_hand: XRController3D
## The right controller.
var right_hand: XRController3D
## The HUD panel on the left controller.
var hud_panel: BimVoiceHudPanel3D
## Where the arc lands now (valid while [member aiming] and [member has_target]).
var target: Vector3 = Vector3.ZERO
## Whether the teleport arc is shown.
var aiming: bool = false
## Whether the arc lands on a floor.
var has_target: bool = false
## The element the controller ray points at ("" for none).
var pointed_id: String = ""

var _turn_armed: bool = true
var _arc_mesh: ImmediateMesh
var _arc: MeshInstance3D
var _marker: MeshInstance3D
var _ray: MeshInstance3D
var _stick_value: Vector2 = Vector2.ZERO


func _init() -> void:
	origin = XROrigin3D.new()
	origin.name = "Origin"
	add_child(origin)
	xr_camera = XRCamera3D.new()
	xr_camera.name = "Camera"
	xr_camera.position = Vector3(0.0, 1.6, 0.0)
	xr_camera.near = 0.05
	xr_camera.far = 500.0
	xr_camera.cull_mask &= ~BimVoiceAvatar.AVATAR_LAYER_MASK
	origin.add_child(xr_camera)
	left_hand = _controller("LeftHand", &"left_hand", Vector3(-0.2, 1.2, -0.3))
	right_hand = _controller("RightHand", &"right_hand", Vector3(0.2, 1.2, -0.3))
	hud_panel = BimVoiceHudPanel3D.new()
	hud_panel.name = "Hud"
	hud_panel.position = Vector3(0.0, 0.08, -0.12)
	hud_panel.rotation_degrees = Vector3(-50.0, 0.0, 0.0)
	left_hand.add_child(hud_panel)
	_ray = _make_ray()
	right_hand.add_child(_ray)
	_arc_mesh = ImmediateMesh.new()
	_arc = MeshInstance3D.new()
	_arc.name = "Arc"
	_arc.mesh = _arc_mesh
	_arc.top_level = true
	_arc.material_override = _unshaded(Color(0.3, 0.8, 1.0))
	add_child(_arc)
	_marker = MeshInstance3D.new()
	_marker.name = "TeleportMarker"
	var ring: CylinderMesh = CylinderMesh.new()
	ring.top_radius = 0.3
	ring.bottom_radius = 0.3
	ring.height = 0.02
	_marker.mesh = ring
	_marker.material_override = _unshaded(Color(0.3, 0.8, 1.0, 0.6))
	_marker.top_level = true
	_marker.visible = false
	add_child(_marker)
	for hand: XRController3D in [left_hand, right_hand]:
		hand.button_pressed.connect(_on_button.bind(hand, true))
		hand.button_released.connect(_on_button.bind(hand, false))
		hand.input_vector2_changed.connect(_on_vector2.bind(hand))


func _ready() -> void:
	if runtime != null:
		hud_panel.bind(runtime.hud)


## Editor warnings for wrong wiring: OpenXR off, the rig inside another XR origin, and those of
## [BimVoiceRig].
func _get_configuration_warnings() -> PackedStringArray:
	var warnings: PackedStringArray = super()
	if not ProjectSettings.get_setting("xr/openxr/enabled", false):
		warnings.append("OpenXR is off: enable Project Settings > XR > OpenXR > Enabled.")
	var up: Node = get_parent()
	while up != null:
		if up is XROrigin3D:
			warnings.append("The rig brings its own XROrigin3D: do not place it under another one.")
			break
		up = up.get_parent()
	return warnings


## The headset camera.
func camera() -> Camera3D:
	return xr_camera


## The headset's global transform.
func head_transform() -> Transform3D:
	return xr_camera.global_transform


## A controller's global transform.
func hand_transform(left: bool) -> Transform3D:
	return (left_hand if left else right_hand).global_transform


## Moves the origin so the headset's eyes are at the pose's position, facing its yaw (the
## headset's own pitch stays: the user's head decides).
func teleport_to_pose(pose: Dictionary) -> void:
	var p: Array = pose["position"]
	var eye: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(p[0], p[1], p[2]))
	var current_yaw: float = BimVoiceFrames.ifc_yaw_pitch_from_basis(xr_camera.global_basis).x
	_turn(deg_to_rad(BimVoiceFrames.wrap_degrees(float(pose["yaw"]) - current_yaw)))
	origin.global_position += eye - xr_camera.global_position


## Puts the user's feet at [param floor_point] (the headset keeps its height above the floor).
func teleport_to_floor(floor_point: Vector3) -> void:
	var cam: Vector3 = xr_camera.global_position
	origin.global_position += Vector3(floor_point.x - cam.x, 0.0, floor_point.z - cam.z)
	origin.global_position.y = floor_point.y


## Turns the user by [param degrees] (positive: to the left) about the headset.
func snap_turn(degrees: float) -> void:
	_turn(deg_to_rad(degrees))


## Handles a thumbstick value (also called by the controllers' signals).
func on_stick(hand: XRController3D, value: Vector2) -> void:
	if hand != right_hand:
		return
	_stick_value = value
	if value.y > PRESS and absf(value.x) < value.y:
		aiming = true
	elif aiming and value.length() < RELEASE:
		aiming = false
		if has_target:
			teleport_to_floor(target)
		_clear_arc()
	if not aiming:
		if _turn_armed and absf(value.x) > PRESS:
			_turn_armed = false
			snap_turn(-snap_degrees if value.x > 0.0 else snap_degrees)
		elif absf(value.x) < RELEASE:
			_turn_armed = true


## Handles a controller button (also called by the controllers' signals).
func on_button(hand: XRController3D, button: String, pressed: bool) -> void:
	if button == talk_button:
		_set_talking(pressed)
	elif button == select_button and hand == right_hand and pressed:
		_select()
	elif button == measure_button and hand == right_hand and pressed:
		measure_at_ray()


## Sets one end of a measurement where the right controller's ray meets the building; returns the
## distance in metres once both ends are set, -1 after the first end, -2 when the ray hits nothing.
func measure_at_ray() -> float:
	if runtime == null:
		return -2.0
	var from: Vector3 = right_hand.global_position
	return runtime.measure_along(from, from - right_hand.global_basis.z * ray_length)


## Recomputes the arc from the right controller; returns whether it lands on a floor.
func update_arc() -> bool:
	var from: Vector3 = right_hand.global_position
	var velocity: Vector3 = -right_hand.global_basis.z * arc_speed
	var gravity: Vector3 = Vector3(0.0, -9.8, 0.0)
	var points: PackedVector3Array = PackedVector3Array([from])
	has_target = false
	for _i: int in ARC_STEPS:
		var to: Vector3 = from + velocity * ARC_DT + gravity * (0.5 * ARC_DT * ARC_DT)
		velocity += gravity * ARC_DT
		var hit: Dictionary = runtime.pick(from, to) if runtime != null else {}
		if not hit.is_empty():
			points.append(hit["position"])
			var normal: Vector3 = hit["normal"]
			has_target = normal.y >= FLOOR_NORMAL_Y
			target = hit["position"]
			break
		points.append(to)
		from = to
	_draw_arc(points)
	return has_target


func _physics_process(_delta: float) -> void:
	if Engine.is_editor_hint():
		return
	if aiming:
		update_arc()
	_update_ray()


func _controller(node_name: String, tracker: StringName, at: Vector3) -> XRController3D:
	var hand: XRController3D = XRController3D.new()
	hand.name = node_name
	hand.tracker = tracker
	hand.position = at
	var mesh: MeshInstance3D = MeshInstance3D.new()
	mesh.name = "Mesh"
	var box: BoxMesh = BoxMesh.new()
	box.size = Vector3(0.05, 0.03, 0.14)
	mesh.mesh = box
	hand.add_child(mesh)
	origin.add_child(hand)
	return hand


func _make_ray() -> MeshInstance3D:
	var ray: MeshInstance3D = MeshInstance3D.new()
	ray.name = "Ray"
	var cylinder: CylinderMesh = CylinderMesh.new()
	cylinder.top_radius = 0.003
	cylinder.bottom_radius = 0.003
	cylinder.height = 1.0
	ray.mesh = cylinder
	ray.rotation_degrees = Vector3(-90.0, 0.0, 0.0)
	ray.material_override = _unshaded(Color(1.0, 0.7, 0.2, 0.8))
	return ray


func _update_ray() -> void:
	var from: Vector3 = right_hand.global_position
	var to: Vector3 = from - right_hand.global_basis.z * ray_length
	var hit: Dictionary = runtime.pick(from, to) if runtime != null else {}
	var length: float = ray_length if hit.is_empty() else float(hit["distance"])
	pointed_id = "" if hit.is_empty() else String(hit["id"])
	_ray.scale = Vector3(1.0, length, 1.0)
	_ray.position = Vector3(0.0, 0.0, -length / 2.0)


func _select() -> void:
	_update_ray()
	if runtime != null:
		runtime.select_ids(PackedStringArray([pointed_id]) if pointed_id != "" else PackedStringArray())


func _turn(radians: float) -> void:
	var pivot: Vector3 = xr_camera.global_position
	var xform: Transform3D = origin.global_transform
	var about_pivot: Transform3D = (
		Transform3D(Basis.IDENTITY, pivot)
		* Transform3D(Basis(Vector3.UP, radians), Vector3.ZERO)
		* Transform3D(Basis.IDENTITY, -pivot)
	)
	origin.global_transform = about_pivot * xform


func _draw_arc(points: PackedVector3Array) -> void:
	_arc_mesh.clear_surfaces()
	if points.size() >= 2:
		_arc_mesh.surface_begin(Mesh.PRIMITIVE_LINE_STRIP)
		for p: Vector3 in points:
			_arc_mesh.surface_add_vertex(p)
		_arc_mesh.surface_end()
	_marker.visible = has_target
	if has_target:
		_marker.global_position = target + Vector3(0.0, 0.01, 0.0)


func _clear_arc() -> void:
	_arc_mesh.clear_surfaces()
	_marker.visible = false
	has_target = false


func _on_button(button: String, hand: XRController3D, pressed: bool) -> void:
	on_button(hand, button, pressed)


func _on_vector2(input_name: String, value: Vector2, hand: XRController3D) -> void:
	if input_name == stick:
		on_stick(hand, value)


static func _unshaded(color: Color) -> StandardMaterial3D:
	var material: StandardMaterial3D = StandardMaterial3D.new()
	material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	material.albedo_color = color
	if color.a < 1.0:
		material.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
	return material
