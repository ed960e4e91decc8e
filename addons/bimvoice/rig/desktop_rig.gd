@icon("res://addons/bimvoice/icons/desktop_rig.svg")
class_name BimVoiceDesktopRig
extends BimVoiceRig
## Desktop mode (no headset): a free camera with mouse-look (hold the right mouse button and
## drag), W/A/S/D to walk, Q/E down/up (Shift: faster), V push-to-talk, left click selects the
## element under the mouse (Ctrl + click places the ends of a measurement instead), and a command
## line: Enter (or any other printable key) starts typing, Enter sends, Escape leaves it.
##
## Movement is per rendered frame with the frame's real duration, so it keeps its speed at any
## frame rate; a key pressed and released within one frame still moves the user a step.

## Keys that move the user or talk (everything else printable starts typing).
const CONTROL_KEYS: Array[Key] = [KEY_W, KEY_A, KEY_S, KEY_D, KEY_Q, KEY_E, KEY_V, KEY_SHIFT]
## Control keys tapped less than this apart, followed as quickly by another printable key, were
## typed: "what", "show", "add " go into the command line whole and the steps are taken back.
const TYPING_GAP_MS: int = 400

## Walking speed (m/s).
@export_range(0.1, 20.0, 0.1, "suffix:m/s") var speed: float = 2.5
## Degrees of turn per pixel of mouse drag.
@export_range(0.01, 2.0, 0.01, "suffix:°/px") var mouse_sensitivity: float = 0.25
## Seconds of walking that a short tap (pressed and released between two frames) is worth.
@export var tap_seconds: float = 0.15
## Longest frame time that moves the user (a longer hitch does not throw the user across a room).
@export var max_step_seconds: float = 1.0


## The desktop overlay (status, transcript, answer, command line).
var hud: BimVoiceDesktopHud

var _camera: Camera3D
var _yaw: float = 90.0
var _pitch: float = 0.0
var _held: Dictionary = {}
var _tapped: Dictionary = {}
var _prefix: String = ""
var _prefix_from: Vector3 = Vector3.ZERO
var _prefix_ms: int = 0
var _looking: bool = false


func _init() -> void:
	_camera = Camera3D.new()
	_camera.name = "Camera"
	_camera.near = 0.05
	_camera.far = 500.0
	_camera.fov = 70.0
	_camera.cull_mask &= ~BimVoiceAvatar.AVATAR_LAYER_MASK  # the avatar is for spectators only
	add_child(_camera)
	hud = BimVoiceDesktopHud.new()
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
	global_position = BimVoiceFrames.ifc_to_godot(Vector3(p[0], p[1], p[2]))
	_yaw = float(pose["yaw"])
	_pitch = clampf(float(pose["pitch"]), -89.0, 89.0)
	_apply_view()


## Looks from [param eye] at [param target] (both Godot frame).
func look_from(eye: Vector3, target: Vector3) -> void:
	global_position = eye
	var angles: Vector2 = BimVoiceFrames.ifc_yaw_pitch_from_basis(
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
		if button.pressed and hud.is_typing():
			hud.stop_typing()  # a click in the view gives the keyboard back to moving
		if button.button_index == MOUSE_BUTTON_RIGHT:
			_looking = button.pressed
		elif button.button_index == MOUSE_BUTTON_LEFT and button.pressed:
			_click(button.position, button.ctrl_pressed)
		else:
			return false
		return true
	if event is InputEventMouseMotion and _looking:
		var motion: InputEventMouseMotion = event
		_yaw = BimVoiceFrames.wrap_degrees(_yaw - motion.relative.x * mouse_sensitivity)
		_pitch = clampf(_pitch - motion.relative.y * mouse_sensitivity, -89.0, 89.0)
		_apply_view()
		return true
	return false


func _handle_key(key: InputEventKey) -> bool:
	if hud.is_typing():
		return false
	var code: Key = key.physical_keycode if key.physical_keycode != KEY_NONE else key.keycode
	var modified: bool = key.ctrl_pressed or key.alt_pressed or key.meta_pressed
	if code in CONTROL_KEYS and not modified:
		if not key.echo:
			_control_key(code, key.pressed, key.unicode)
		return true
	var starts_typing: bool = key.pressed and not key.echo and (
		key.keycode in [KEY_ENTER, KEY_KP_ENTER] or (key.unicode >= 32 and not modified)
	)
	if starts_typing:
		var typed: String = _take_prefix()
		hud.start_typing(typed + ("" if key.unicode < 32 else String.chr(key.unicode)))
	return starts_typing


# A movement or talk key pressed or released; its character is kept as a possible start of a
# typed command (see TYPING_GAP_MS).
func _control_key(code: Key, pressed: bool, unicode: int) -> void:
	var now: int = Time.get_ticks_msec()
	var recent: bool = not _prefix.is_empty() and now - _prefix_ms <= TYPING_GAP_MS
	if not pressed and now - _prefix_ms > TYPING_GAP_MS:
		_prefix = ""  # held for a while: walking, not typing
	if pressed and unicode >= 32:
		if not recent:
			_prefix = ""
			_prefix_from = global_position
		_prefix += String.chr(unicode)
		_prefix_ms = now
	if pressed and not _held.get(code, false):
		_tapped[code] = true
	_held[code] = pressed
	if code == KEY_V and not (pressed and recent):
		_set_talking(pressed)


# The control keys just typed (and the user put back where they were before them), or "".
func _take_prefix() -> String:
	var typed: String = ""
	if not _prefix.is_empty() and Time.get_ticks_msec() - _prefix_ms <= TYPING_GAP_MS:
		typed = _prefix
		global_position = _prefix_from
		_held.clear()
		_tapped.clear()
		_set_talking(false)
	_prefix = ""
	return typed


func _process(delta: float) -> void:
	step(delta)


## Moves by the keys held (or tapped since the last step) for [param delta] seconds of real time.
func step(delta: float) -> void:
	var move: Vector3 = Vector3.ZERO
	var yaw: float = deg_to_rad(_yaw)
	var forward: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(cos(yaw), sin(yaw), 0.0))
	var left: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(-sin(yaw), cos(yaw), 0.0))
	var only_taps: bool = true
	for pair: Array in [
		[KEY_W, forward], [KEY_S, -forward], [KEY_A, left], [KEY_D, -left],
		[KEY_E, Vector3.UP], [KEY_Q, Vector3.DOWN],
	]:
		var held: bool = _held.get(pair[0], false)
		if held or _tapped.get(pair[0], false):
			move += pair[1]
			only_taps = only_taps and not held
	_tapped.clear()
	if move != Vector3.ZERO:
		var fast: float = 3.0 if _held.get(KEY_SHIFT, false) else 1.0
		var seconds: float = tap_seconds if only_taps else minf(delta, max_step_seconds)
		global_position += move.normalized() * speed * fast * seconds


func _apply_view() -> void:
	_camera.basis = BimVoiceFrames.basis_from_ifc_yaw_pitch(_yaw, _pitch)


func _click(screen_position: Vector2, measure: bool = false) -> void:
	if runtime == null:
		return
	var from: Vector3 = _camera.project_ray_origin(screen_position)
	var to: Vector3 = from + _camera.project_ray_normal(screen_position) * _camera.far
	if measure:
		runtime.measure_along(from, to)
	else:
		runtime.select_along(from, to)


func _on_command(text: String) -> void:
	if runtime != null:
		runtime.say(text)
