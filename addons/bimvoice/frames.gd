## The one place where the IFC frame (metres, Z up) meets Godot's frame (metres, Y up).
##
## Positions and directions: [code]godot = (x_ifc, z_ifc, -y_ifc)[/code], a proper rotation
## (no mirror).
## Heading: the agent's [code]yaw[/code] is in degrees counter-clockwise from IFC +X about +Z
## (yaw 90 faces IFC +Y), [code]pitch[/code] in degrees, positive up. In Godot a camera looks
## along its local -Z; a node whose [code]rotation.y[/code] is [code]yaw - 90°[/code] faces IFC
## yaw, and its [code]rotation.x[/code] is the pitch (Euler order YXZ, Godot's default).
## Everything on the wire to the agent is in the IFC frame; convert here and nowhere else.
class_name BimVoiceFrames
extends RefCounted

## The change of basis IFC -> Godot: its columns are the images of IFC x, y, z.
const IFC_TO_GODOT := Basis(Vector3(1, 0, 0), Vector3(0, 0, -1), Vector3(0, 1, 0))
## The change of basis Godot -> IFC (the inverse, here the transpose).
const GODOT_TO_IFC := Basis(Vector3(1, 0, 0), Vector3(0, 0, 1), Vector3(0, -1, 0))


## An IFC point or direction (x, y, z) as a Godot vector: (x, z, -y).
static func ifc_to_godot(v: Vector3) -> Vector3:
	return Vector3(v.x, v.z, -v.y)


## A Godot point or direction (x, y, z) as an IFC vector: (x, -z, y).
static func godot_to_ifc(v: Vector3) -> Vector3:
	return Vector3(v.x, -v.z, v.y)


## IFC yaw (degrees CCW from +X about Z up) -> Godot rotation about Y, in degrees.
static func ifc_yaw_to_godot_deg(yaw_deg: float) -> float:
	return wrap_degrees(yaw_deg - 90.0)


## Godot rotation about Y (degrees) -> IFC yaw in degrees, in (-180, 180].
static func godot_yaw_to_ifc_deg(rotation_y_deg: float) -> float:
	return wrap_degrees(rotation_y_deg + 90.0)


## IFC yaw (degrees) -> Godot rotation about Y, in radians (for [code]Node3D.rotation.y[/code]).
static func ifc_yaw_to_godot(yaw_deg: float) -> float:
	return deg_to_rad(ifc_yaw_to_godot_deg(yaw_deg))


## Godot rotation about Y (radians) -> IFC yaw in degrees.
static func godot_yaw_to_ifc(rotation_y: float) -> float:
	return godot_yaw_to_ifc_deg(rad_to_deg(rotation_y))


## An angle in degrees wrapped into (-180, 180].
static func wrap_degrees(deg: float) -> float:
	var w := fposmod(deg + 180.0, 360.0) - 180.0
	return 180.0 if is_equal_approx(w, -180.0) else w


## The Godot basis of a camera looking along IFC yaw/pitch (degrees), without roll.
static func basis_from_ifc_yaw_pitch(yaw_deg: float, pitch_deg: float) -> Basis:
	return Basis.from_euler(Vector3(deg_to_rad(pitch_deg), ifc_yaw_to_godot(yaw_deg), 0.0))


## The IFC [code]Vector2(yaw_deg, pitch_deg)[/code] of a Godot basis (a camera looks along its -Z).
## Roll is ignored; looking straight up or down the yaw comes from the basis' Euler angle.
static func ifc_yaw_pitch_from_basis(basis: Basis) -> Vector2:
	var forward := godot_to_ifc(-basis.orthonormalized().z)
	var pitch := rad_to_deg(asin(clampf(forward.z, -1.0, 1.0)))
	var flat := Vector2(forward.x, forward.y)
	var yaw: float
	if flat.length() > 1e-6:
		yaw = rad_to_deg(atan2(flat.y, flat.x))
	else:
		yaw = godot_yaw_to_ifc(basis.get_euler().y)
	return Vector2(wrap_degrees(yaw), pitch)


## The agent pose dictionary (IFC frame) of a Godot camera or head transform.
static func pose_from_transform(xform: Transform3D) -> Dictionary:
	var p := godot_to_ifc(xform.origin)
	var yp := ifc_yaw_pitch_from_basis(xform.basis)
	return {"position": [p.x, p.y, p.z], "yaw": yp.x, "pitch": yp.y}


## A rotation expressed in the IFC frame, as the same physical rotation in Godot's frame.
static func ifc_basis_to_godot(b: Basis) -> Basis:
	return IFC_TO_GODOT * b * GODOT_TO_IFC


## A rotation expressed in Godot's frame, as the same physical rotation in the IFC frame.
static func godot_basis_to_ifc(b: Basis) -> Basis:
	return GODOT_TO_IFC * b * IFC_TO_GODOT
