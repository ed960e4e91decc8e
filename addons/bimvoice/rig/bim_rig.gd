@tool
class_name BimVoiceRig
extends Node3D
## What the runtime needs from a user rig (XR or desktop): where the user's eyes and hands are,
## and a way to put the user somewhere (the agent's camera moves: teleport, turn, look at).
##
## A rig talks to the agent through [member runtime]; it never speaks the link itself.

## The runtime the rig reports to (the `BimVoice` autoload unless set).
var runtime: BimVoiceRuntime = null

var _talking: bool = false


func _enter_tree() -> void:
	if runtime == null:
		runtime = BimVoiceRuntime.find_in(get_tree())


## Editor warnings for wrong wiring (the runtime autoload missing).
func _get_configuration_warnings() -> PackedStringArray:
	var warnings: PackedStringArray = PackedStringArray()
	if BimVoiceRuntime.autoload_name().is_empty():
		(
			warnings
			. append(
				(
					"No BimVoice runtime autoload: enable the BimVoice plugin (Project Settings > Plugins)"
					+ " or set `runtime` from code."
				)
			)
		)
	return warnings


## Global transform of the user's eyes (a camera: looks along -Z).
func head_transform() -> Transform3D:
	return global_transform


## Global transform of a hand (tracked controller, or a made-up one for the desktop).
func hand_transform(left: bool) -> Transform3D:
	var side: float = -0.25 if left else 0.25
	var head: Transform3D = head_transform()
	var flat: Basis = Basis(Vector3.UP, head.basis.get_euler().y)
	return Transform3D(flat, head.origin + flat * Vector3(side, -0.45, -0.35))


## Puts the user's eyes at an agent pose (IFC frame: position, yaw, pitch in degrees).
func teleport_to_pose(_pose: Dictionary) -> void:
	pass


## The camera that renders this rig's view.
func camera() -> Camera3D:
	return null


## Turns the rig on (its camera current, input handled) or off.
func set_active(active: bool) -> void:
	visible = active
	process_mode = Node.PROCESS_MODE_INHERIT if active else Node.PROCESS_MODE_DISABLED
	var cam: Camera3D = camera()
	if cam != null and active:
		cam.make_current()


## Converts an agent pose to a Godot eye position and basis: [position, basis].
static func pose_to_godot(pose: Dictionary) -> Array:
	var p: Array = pose["position"]
	var eye: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(p[0], p[1], p[2]))
	var basis: Basis = BimVoiceFrames.basis_from_ifc_yaw_pitch(
		float(pose["yaw"]), float(pose["pitch"])
	)
	return [eye, basis]


# Push-to-talk pressed (true) or released: starts or ends an utterance once per press.
func _set_talking(on: bool) -> void:
	if on == _talking or runtime == null:
		return
	_talking = on
	if on:
		runtime.begin_talk()
	else:
		runtime.end_talk()
