class_name BimEnvironment
extends Node3D
## Daylight for reviewing a building: a procedural sky (also the ambient light) and a sun with
## shadows. Used by the main scene and the screenshot scene.

## The sun.
var sun: DirectionalLight3D
## The sky and tone mapping.
var world_environment: WorldEnvironment


func _init() -> void:
	var sky_material: ProceduralSkyMaterial = ProceduralSkyMaterial.new()
	sky_material.sky_top_color = Color(0.35, 0.55, 0.85)
	sky_material.sky_horizon_color = Color(0.75, 0.82, 0.9)
	sky_material.ground_horizon_color = Color(0.6, 0.6, 0.58)
	sky_material.ground_bottom_color = Color(0.3, 0.3, 0.28)
	var sky: Sky = Sky.new()
	sky.sky_material = sky_material
	var env: Environment = Environment.new()
	env.background_mode = Environment.BG_SKY
	env.background_color = sky_material.sky_horizon_color  # when the sky is drawn as a colour
	env.sky = sky
	env.ambient_light_source = Environment.AMBIENT_SOURCE_SKY
	env.ambient_light_energy = 0.55
	env.tonemap_mode = Environment.TONE_MAPPER_FILMIC
	world_environment = WorldEnvironment.new()
	world_environment.name = "WorldEnvironment"
	world_environment.environment = env
	add_child(world_environment)
	sun = DirectionalLight3D.new()
	sun.name = "Sun"
	sun.light_energy = 0.9
	sun.shadow_enabled = true
	sun.directional_shadow_max_distance = 120.0
	sun.rotation_degrees = Vector3(-50.0, 35.0, 0.0)
	add_child(sun)


## An eye position and a target that show [param box] from outside, from above and at an angle
## (a three-quarter view), for a camera with vertical field of view [param fov_deg].
## [param from_dir] is the horizontal-ish direction from the box towards the eye (Godot frame).
static func three_quarter_view(box: AABB, fov_deg: float, from_dir: Vector3) -> Array[Vector3]:
	var centre: Vector3 = box.get_center()
	var radius: float = maxf(box.size.length() * 0.5, 1.0)
	var distance: float = radius / sin(deg_to_rad(fov_deg) * 0.5) * 0.8
	var eye: Vector3 = centre + from_dir.normalized() * distance
	return [eye, centre]
