## BimVoiceFrames: IFC (Z up) <-> Godot (Y up) for points, yaw/pitch, bases; both ways.
extends "res://tests/godot/link/link_test_base.gd"


func run_tests() -> void:
	# Axes: IFC +X east, +Y north, +Z up -> Godot +X, -Z, +Y.
	check_eq(BimVoiceFrames.ifc_to_godot(Vector3(1, 0, 0)), Vector3(1, 0, 0), "ifc +x")
	check_eq(BimVoiceFrames.ifc_to_godot(Vector3(0, 1, 0)), Vector3(0, 0, -1), "ifc +y")
	check_eq(BimVoiceFrames.ifc_to_godot(Vector3(0, 0, 1)), Vector3(0, 1, 0), "ifc +z (up)")
	check_eq(BimVoiceFrames.ifc_to_godot(Vector3(2, 3, 4)), Vector3(2, 4, -3), "godot = (x, z, -y)")
	check_eq(BimVoiceFrames.godot_to_ifc(Vector3(2, 4, -3)), Vector3(2, 3, 4), "ifc = (x, -z, y)")
	var rng := RandomNumberGenerator.new()
	rng.seed = 7
	for i in 200:
		var v := Vector3(
			rng.randf_range(-50, 50), rng.randf_range(-50, 50), rng.randf_range(-50, 50)
		)
		check_eq(
			BimVoiceFrames.godot_to_ifc(BimVoiceFrames.ifc_to_godot(v)),
			v,
			"round trip ifc->godot->ifc"
		)
		check_eq(
			BimVoiceFrames.ifc_to_godot(BimVoiceFrames.godot_to_ifc(v)),
			v,
			"round trip godot->ifc->godot"
		)
	# Handedness is kept: x cross y = z in both frames.
	var gx := BimVoiceFrames.ifc_to_godot(Vector3.RIGHT)
	var gy := BimVoiceFrames.ifc_to_godot(Vector3(0, 1, 0))
	check_eq(
		gx.cross(gy), BimVoiceFrames.ifc_to_godot(Vector3(0, 0, 1)), "proper rotation (no mirror)"
	)
	check_near(BimVoiceFrames.IFC_TO_GODOT.determinant(), 1.0, "change of basis is a rotation")
	for v: Vector3 in [Vector3(1, 2, 3), Vector3(-4, 0.5, 9)]:
		check_eq(
			BimVoiceFrames.IFC_TO_GODOT * v,
			BimVoiceFrames.ifc_to_godot(v),
			"IFC_TO_GODOT matches ifc_to_godot"
		)
		check_eq(
			BimVoiceFrames.GODOT_TO_IFC * v,
			BimVoiceFrames.godot_to_ifc(v),
			"GODOT_TO_IFC matches godot_to_ifc"
		)

	# Yaw: IFC yaw 90 faces IFC +Y = Godot -Z = an unrotated Godot camera.
	check_near(BimVoiceFrames.ifc_yaw_to_godot_deg(90.0), 0.0, "yaw 90 -> rotation.y 0")
	check_near(BimVoiceFrames.ifc_yaw_to_godot_deg(0.0), -90.0, "yaw 0 -> rotation.y -90")
	check_near(BimVoiceFrames.ifc_yaw_to_godot_deg(180.0), 90.0, "yaw 180 -> rotation.y 90")
	check_near(BimVoiceFrames.godot_yaw_to_ifc_deg(0.0), 90.0, "rotation.y 0 -> yaw 90")
	check_near(BimVoiceFrames.godot_yaw_to_ifc_deg(90.0), 180.0, "rotation.y 90 -> yaw 180")
	check_near(BimVoiceFrames.wrap_degrees(-180.0), 180.0, "wrap -180 -> 180")
	check_near(BimVoiceFrames.wrap_degrees(540.0), 180.0, "wrap 540 -> 180")
	check_near(BimVoiceFrames.wrap_degrees(-190.0), 170.0, "wrap -190 -> 170")
	for yaw in range(-180, 181, 15):
		var y := float(yaw)
		# The camera's forward (-Z) in Godot must be the IFC heading converted.
		var b := Basis.from_euler(Vector3(0, BimVoiceFrames.ifc_yaw_to_godot(y), 0))
		var want := BimVoiceFrames.ifc_to_godot(Vector3(cos(deg_to_rad(y)), sin(deg_to_rad(y)), 0))
		check_near(-b.z, want, "camera forward for yaw %d" % yaw)
		check_near(
			BimVoiceFrames.wrap_degrees(
				BimVoiceFrames.godot_yaw_to_ifc(BimVoiceFrames.ifc_yaw_to_godot(y)) - y
			),
			0.0,
			"yaw round trip %d" % yaw
		)
		for pitch: float in [-60.0, 0.0, 30.0]:
			var basis := BimVoiceFrames.basis_from_ifc_yaw_pitch(y, pitch)
			var fwd := BimVoiceFrames.godot_to_ifc(-basis.z)
			var p := deg_to_rad(pitch)
			var expect := Vector3(cos(deg_to_rad(y)) * cos(p), sin(deg_to_rad(y)) * cos(p), sin(p))
			check_near(fwd, expect, "forward of yaw %d pitch %d (Pose.forward)" % [yaw, pitch])
			var back := BimVoiceFrames.ifc_yaw_pitch_from_basis(basis)
			check_near(
				BimVoiceFrames.wrap_degrees(back.x - y),
				0.0,
				"yaw from basis %d/%d" % [yaw, pitch],
				1e-3
			)
			check_near(back.y, pitch, "pitch from basis %d/%d" % [yaw, pitch], 1e-3)

	# A camera transform -> the agent's pose dictionary.
	var cam := Transform3D(
		BimVoiceFrames.basis_from_ifc_yaw_pitch(135.0, -10.0),
		BimVoiceFrames.ifc_to_godot(Vector3(4, 5, 1.6))
	)
	var pose := BimVoiceFrames.pose_from_transform(cam)
	var pos: Array = pose["position"]
	check_near(Vector3(pos[0], pos[1], pos[2]), Vector3(4, 5, 1.6), "pose position in IFC frame")
	check_near(float(pose["yaw"]), 135.0, "pose yaw", 1e-3)
	check_near(float(pose["pitch"]), -10.0, "pose pitch", 1e-3)
	# Straight down: yaw falls back on the Euler angle.
	var down := BimVoiceFrames.ifc_yaw_pitch_from_basis(
		BimVoiceFrames.basis_from_ifc_yaw_pitch(30.0, -90.0)
	)
	check_near(down.y, -90.0, "pitch straight down", 1e-3)

	# Rotations: an IFC rotation about Z (up) is a Godot rotation about Y, same angle.
	var rz := Basis(Vector3(0, 0, 1), deg_to_rad(90.0))
	var ry := Basis(Vector3(0, 1, 0), deg_to_rad(90.0))
	check(
		BimVoiceFrames.ifc_basis_to_godot(rz).is_equal_approx(ry),
		"IFC rot about Z == Godot rot about Y"
	)
	check(
		BimVoiceFrames.godot_basis_to_ifc(ry).is_equal_approx(rz),
		"Godot rot about Y == IFC rot about Z"
	)
	var rb := Basis.from_euler(Vector3(0.3, -1.1, 2.0))
	var rb_back := BimVoiceFrames.godot_basis_to_ifc(BimVoiceFrames.ifc_basis_to_godot(rb))
	check(rb_back.is_equal_approx(rb), "basis round trip")
	var v := Vector3(1.5, -2.0, 0.25)
	check_near(
		BimVoiceFrames.ifc_basis_to_godot(rb) * BimVoiceFrames.ifc_to_godot(v),
		BimVoiceFrames.ifc_to_godot(rb * v),
		"rotating then converting == converting then rotating"
	)
	finish()
