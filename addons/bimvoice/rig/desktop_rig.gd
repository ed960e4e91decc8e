@icon("res://addons/bimvoice/icons/desktop_rig.svg")
class_name DesktopRig
extends BimRig
## Desktop mode (no headset): a free camera with mouse-look (hold the right mouse button and
## drag), W/A/S/D to walk, Q/E down/up (Shift: faster), V push-to-talk, left click selects the
## element under the mouse, and a command line (Enter sends the typed command).

## Walking speed (m/s).
@export_range(0.1, 20.0, 0.1, "suffix:m/s") var speed: float = 2.5
## Degrees of turn per pixel of mouse drag.
@export_range(0.01, 2.0, 0.01, "suffix:°/px") var mouse_sensitivity: float = 0.25

## The desktop overlay (status, transcript, answer, command line).
var hud: DesktopHud

var _camera: Camera3D
var _yaw: float = 90.0
var _pitch: float = 0.0
var _held: Dictionary = {}
var _looking: bool = false


func _init() -> void:
	_camera = Camera3D.new()
	_camera.name = "Camera"
	_camera.near = 0.05
	_camera.far = 500.0
	_camera.fov = 70.0
	add_child(_camera)
	hud = DesktopHud.new()
	hud.name = "Hud"
	add_child(hud)
	hud.command_entered.connect(_on_command)


func _ready() -> void:
	if runtime != null:
		hud.bind(runtime.hud)
	_apply_view()


## The desktop camera.
func camera() -> Camera3D:
	return _camera


## Eye transform: the camera's.
func head_transform() -> Transform3D:
	return _camera.global_transform


## Heading (IFC yaw, degrees) and pitch (degrees) of the view.
func view_angles() -> Vector2:
	return Vector2(_yaw, _pitch)


## Puts the camera at an agent pose.
func teleport_to_pose(pose: Dictionary) -> void:
	var p: Array = pose["position"]
	global_position = Frames.ifc_to_godot(Vector3(p[0], p[1], p[2]))
	_yaw = float(pose["yaw"])
	_pitch = clampf(float(pose["pitch"]), -89.0, 89.0)
	_apply_view()


## Looks from [param eye] at [param target] (both Godot frame).
func look_from(eye: Vector3, target: Vector3) -> void:
	global_position = eye
	var angles: Vector2 = Frames.ifc_yaw_pitch_from_basis(
		Basis.looking_at((target - eye).normalized(), Vector3.UP)
	)
	_yaw = angles.x
	_pitch = angles.y
	_apply_view()


func _unhandled_input(event: InputEvent) -> void:
	if handle_input(event):
		get_viewport().set_input_as_handled()


## Handles one input event; returns whether it was used.
func handle_input(event: InputEvent) -> bool:
	if event is InputEventKey:
		return _handle_key(event as InputEventKey)
	if event is InputEventMouseButton:
		var button: InputEventMouseButton = event
		if button.button_index == MOUSE_BUTTON_RIGHT:
			_looking = button.pressed
		elif button.button_index == MOUSE_BUTTON_LEFT and button.pressed:
			_click(button.position)
		else:
			return false
		return true
	if event is InputEventMouseMotion and _looking:
		var motion: InputEventMouseMotion = event
		_yaw = Frames.wrap_degrees(_yaw - motion.relative.x * mouse_sensitivity)
		_pitch = clampf(_pitch - motion.relative.y * mouse_sensitivity, -89.0, 89.0)
		_apply_view()
		return true
	return false


func _handle_key(key: InputEventKey) -> bool:
	if key.echo or hud.is_typing():
		return false
	var code: Key = key.physical_keycode if key.physical_keycode != KEY_NONE else key.keycode
	_held[code] = key.pressed
	if code == KEY_V:
		_set_talking(key.pressed)
		return true
	return code in [KEY_W, KEY_A, KEY_S, KEY_D, KEY_Q, KEY_E, KEY_SHIFT]


func _physics_process(delta: float) -> void:
	step(delta)


## Moves by the held keys for [param delta] seconds.
func step(delta: float) -> void:
	var move: Vector3 = Vector3.ZERO
	var yaw: float = deg_to_rad(_yaw)
	var forward: Vector3 = Frames.ifc_to_godot(Vector3(cos(yaw), sin(yaw), 0.0))
	var left: Vector3 = Frames.ifc_to_godot(Vector3(-sin(yaw), cos(yaw), 0.0))
	if _held.get(KEY_W, false):
		move += forward
	if _held.get(KEY_S, false):
		move -= forward
	if _held.get(KEY_A, false):
		move += left
	if _held.get(KEY_D, false):
		move -= left
	if _held.get(KEY_E, false):
		move += Vector3.UP
	if _held.get(KEY_Q, false):
		move -= Vector3.UP
	if move != Vector3.ZERO:
		var fast: float = 3.0 if _held.get(KEY_SHIFT, false) else 1.0
		global_position += move.normalized() * speed * fast * delta


func _apply_view() -> void:
	_camera.basis = Frames.basis_from_ifc_yaw_pitch(_yaw, _pitch)


func _click(screen_position: Vector2) -> void:
	if runtime == null:
		return
	var from: Vector3 = _camera.project_ray_origin(screen_position)
	var to: Vector3 = from + _camera.project_ray_normal(screen_position) * _camera.far
	runtime.select_along(from, to)


func _on_command(text: String) -> void:
	if runtime != null:
		runtime.say(text)
