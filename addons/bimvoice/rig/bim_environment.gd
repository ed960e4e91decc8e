class_name BimVoiceEnvironment
extends Node3D
## Daylight for reviewing a building: a procedural sky (also the ambient light) and a sun with
## shadows, which a sun study moves ([method set_sun]). Used by the main scene and the screenshot
## scene.

## The default sun's rotation (degrees) and energy, and the sky's ambient energy.
const DEFAULT_SUN_ROTATION: Vector3 = Vector3(-50.0, 35.0, 0.0)
const DEFAULT_SUN_ENERGY: float = 0.9
const DEFAULT_AMBIENT: float = 0.55
## The sun's elevation at sunrise and sunset (degrees: refraction and the sun's disc).
const SUNRISE_ELEVATION: float = -0.833
## Sine of the lowest elevation the light comes from (2 degrees).
const LOWEST_LIGHT_SINE: float = 0.0349

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
	env.ambient_light_energy = DEFAULT_AMBIENT
	env.tonemap_mode = Environment.TONE_MAPPER_FILMIC
	world_environment = WorldEnvironment.new()
	world_environment.name = "WorldEnvironment"
	world_environment.environment = env
	add_child(world_environment)
	sun = DirectionalLight3D.new()
	sun.name = "Sun"
	sun.light_energy = DEFAULT_SUN_ENERGY
	sun.shadow_enabled = true
	sun.directional_shadow_max_distance = 120.0
	sun.rotation_degrees = DEFAULT_SUN_ROTATION
	add_child(sun)


## Puts the sun where an agent's sun study (`engine_sun`: a unit vector towards the sun in the
## IFC frame, and its elevation) says; null returns to the default daylight. A sun below the
## horizon gives no direct light.
func set_sun(state: Variant) -> void:
	if not state is Dictionary:
		sun.rotation_degrees = DEFAULT_SUN_ROTATION
		sun.light_energy = DEFAULT_SUN_ENERGY
		world_environment.environment.ambient_light_energy = DEFAULT_AMBIENT
		return
	var d: Array = state["direction"]
	var towards: Vector3 = BimVoiceFrames.ifc_to_godot(Vector3(d[0], d[1], d[2])).normalized()
	var elevation: float = float(state["elevation_deg"])
	var above: bool = elevation > SUNRISE_ELEVATION
	if above and towards.y < LOWEST_LIGHT_SINE:
		# At sunrise and sunset the sun sits on the horizon: light from just above it.
		var flat: Vector3 = Vector3(towards.x, 0.0, towards.z).normalized()
		var cosine: float = sqrt(1.0 - LOWEST_LIGHT_SINE * LOWEST_LIGHT_SINE)
		towards = flat * cosine + Vector3.UP * LOWEST_LIGHT_SINE
	var up: Vector3 = Vector3.UP if absf(towards.y) < 0.99 else Vector3.FORWARD
	sun.basis = Basis.looking_at(-towards, up)
	# Low sun, weak light: full strength from 10 degrees up.
	var strength: float = clampf((elevation + 1.0) / 11.0, 0.25, 1.0)
	sun.light_energy = DEFAULT_SUN_ENERGY * strength if above else 0.0
	world_environment.environment.ambient_light_energy = DEFAULT_AMBIENT if above else 0.15


## Unit vector from the scene towards the sun (Godot frame).
func towards_sun() -> Vector3:
	return sun.global_basis.z if sun.is_inside_tree() else sun.basis.z


## An eye position and a target that show [param box] from outside, from above and at an angle
## (a three-quarter view), for a camera with vertical field of view [param fov_deg].
## [param from_dir] is the horizontal-ish direction from the box towards the eye (Godot frame).
static func three_quarter_view(box: AABB, fov_deg: float, from_dir: Vector3) -> Array[Vector3]:
	var centre: Vector3 = box.get_center()
	var radius: float = maxf(box.size.length() * 0.5, 1.0)
	var distance: float = radius / sin(deg_to_rad(fov_deg) * 0.5) * 0.8
	var eye: Vector3 = centre + from_dir.normalized() * distance
	return [eye, centre]
