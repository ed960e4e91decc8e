class_name BimVoiceSectionClipper
extends RefCounted
## Cuts the building open along the agent's clipping planes (a section plane or a section box),
## in every view and both eyes: while a section is active, each surface under the building node
## draws with a clip twin of its material (same colour, roughness, metalness, transparency and
## culling) whose fragment shader discards what lies on the removed side of any plane. The planes
## live in global shader parameters (`bimvoice_clip_count`, `bimvoice_clip_0` ..), in the world
## frame: call [method update_planes] when the building node moves or scales. Without a section
## every surface gets its own material back.
##
## Twins replace only the materials they were made from: when the [BimVoiceChangeApplier] paints or
## restores a surface while a section is active, [method refresh] (the runtime calls it after each
## applied batch) twins the new material too.

## Global shader parameter names.
const COUNT_PARAM: StringName = &"bimvoice_clip_count"
const PLANE_PARAM_PREFIX: String = "bimvoice_clip_"

static var _shaders: Dictionary = {}
static var _params_ready: bool = false

## The building whose surfaces are cut.
var building: Node3D

var _planes_ifc: Array = []
# Source material -> its twin, and twin -> source (by instance).
var _twins: Dictionary = {}
var _sources: Dictionary = {}
# [MeshInstance3D, surface, override before twinning] of every twinned surface.
var _swapped: Array = []


## A clipper for the surfaces under [param target] (the building node, props included).
func _init(target: Node3D) -> void:
	building = target


## Whether a section is active.
func is_active() -> bool:
	return not _planes_ifc.is_empty()


## Sets the section: clipping planes {location, direction} in the IFC frame (what lies on the
## side `direction` points to is cut away); [] removes it.
func set_sections(planes: Array) -> void:
	_planes_ifc = planes.duplicate(true)
	update_planes()
	if is_active():
		refresh()
	else:
		_restore_all()


## Twins every surface that does not draw with a twin yet (no-op without a section).
func refresh() -> void:
	if not is_active() or building == null:
		return
	for node: Node in building.find_children("*", "MeshInstance3D", true, false):
		var mesh: MeshInstance3D = node as MeshInstance3D
		for s: int in mesh.get_surface_override_material_count():
			var active: Material = mesh.get_active_material(s)
			if active == null or _sources.has(active):
				continue
			var twin: ShaderMaterial = _twin_of(active)
			if twin == null:
				continue
			_swapped.append([mesh, s, mesh.get_surface_override_material(s)])
			mesh.set_surface_override_material(s, twin)


## Recomputes the world-frame planes from the IFC-frame ones and the building's transform.
func update_planes() -> void:
	_ensure_params()
	var xform: Transform3D = _building_transform()
	var count: int = mini(_planes_ifc.size(), BimVoiceSchemaConstants.MAX_SECTION_PLANES)
	for i: int in BimVoiceSchemaConstants.MAX_SECTION_PLANES:
		var value: Vector4 = Vector4(0.0, 0.0, 0.0, 0.0)
		if i < count:
			var p: Dictionary = _planes_ifc[i]
			var loc: Array = p["location"]
			var dir: Array = p["direction"]
			var point: Vector3 = xform * BimVoiceFrames.ifc_to_godot(Vector3(loc[0], loc[1], loc[2]))
			var normal: Vector3 = (
				xform.basis * BimVoiceFrames.ifc_to_godot(Vector3(dir[0], dir[1], dir[2]))
			).normalized()
			value = Vector4(normal.x, normal.y, normal.z, normal.dot(point))
		RenderingServer.global_shader_parameter_set(StringName(PLANE_PARAM_PREFIX + str(i)), value)
	RenderingServer.global_shader_parameter_set(COUNT_PARAM, count)


## Whether world point [param p] (Godot frame) is cut away by the current section.
func is_cut(p: Vector3) -> bool:
	var xform: Transform3D = _building_transform()
	for plane: Dictionary in _planes_ifc:
		var loc: Array = plane["location"]
		var dir: Array = plane["direction"]
		var point: Vector3 = xform * BimVoiceFrames.ifc_to_godot(Vector3(loc[0], loc[1], loc[2]))
		var normal: Vector3 = xform.basis * BimVoiceFrames.ifc_to_godot(Vector3(dir[0], dir[1], dir[2]))
		if normal.dot(p - point) > 0.0:
			return true
	return false


## Number of twinned surfaces now.
func twinned_count() -> int:
	return _swapped.size()


func _building_transform() -> Transform3D:
	return building.global_transform if building.is_inside_tree() else building.transform


func _restore_all() -> void:
	for entry: Array in _swapped:
		var mesh: MeshInstance3D = entry[0]
		if not is_instance_valid(mesh):
			continue
		var s: int = entry[1]
		if _sources.has(mesh.get_surface_override_material(s)):
			mesh.set_surface_override_material(s, entry[2])
	_swapped.clear()


func _twin_of(source: Material) -> ShaderMaterial:
	if _twins.has(source):
		return _twins[source]
	if not source is BaseMaterial3D:
		return null
	var m: BaseMaterial3D = source
	var transparent: bool = m.transparency != BaseMaterial3D.TRANSPARENCY_DISABLED
	var twin: ShaderMaterial = ShaderMaterial.new()
	var unshaded: bool = m.shading_mode == BaseMaterial3D.SHADING_MODE_UNSHADED
	twin.shader = _shader(transparent, m.cull_mode, unshaded)
	twin.resource_name = "%s_clipped" % source.resource_name
	twin.set_shader_parameter("albedo", m.albedo_color)
	twin.set_shader_parameter("roughness", m.roughness)
	twin.set_shader_parameter("metallic", m.metallic)
	_twins[source] = twin
	_sources[twin] = source
	return twin


static func _shader(transparent: bool, cull: int, unshaded: bool) -> Shader:
	var key: String = "%s/%d/%s" % [transparent, cull, unshaded]
	if _shaders.has(key):
		return _shaders[key]
	var modes: PackedStringArray = PackedStringArray(["blend_mix"])
	modes.append(
		["cull_back", "cull_front", "cull_disabled"][clampi(cull, 0, 2)]
	)
	modes.append("depth_draw_opaque")
	if unshaded:
		modes.append("unshaded")
	var planes: String = ""
	var tests: String = ""
	for i: int in BimVoiceSchemaConstants.MAX_SECTION_PLANES:
		planes += "global uniform vec4 %s%d;\n" % [PLANE_PARAM_PREFIX, i]
		tests += (
			"\tif (%s > %d && dot(%s%d.xyz, world_pos) > %s%d.w) { discard; }\n"
			% [COUNT_PARAM, i, PLANE_PARAM_PREFIX, i, PLANE_PARAM_PREFIX, i]
		)
	var code: String = (
		"shader_type spatial;\nrender_mode %s;\n" % ", ".join(modes)
		+ "global uniform int %s;\n" % COUNT_PARAM
		+ planes
		+ "uniform vec4 albedo : source_color = vec4(1.0);\n"
		+ "uniform float roughness : hint_range(0.0, 1.0) = 1.0;\n"
		+ "uniform float metallic : hint_range(0.0, 1.0) = 0.0;\n"
		+ "varying vec3 world_pos;\n\n"
		+ "void vertex() {\n\tworld_pos = (MODEL_MATRIX * vec4(VERTEX, 1.0)).xyz;\n}\n\n"
		+ "void fragment() {\n"
		+ tests
		+ "\tALBEDO = albedo.rgb;\n\tROUGHNESS = roughness;\n\tMETALLIC = metallic;\n"
		+ ("\tALPHA = albedo.a;\n" if transparent else "")
		+ "}\n"
	)
	var shader: Shader = Shader.new()
	shader.code = code
	_shaders[key] = shader
	return shader


## Registers the global shader parameters of the section planes (once per process): shaders that
## clip against them compile only after this.
static func ensure_global_params() -> void:
	_ensure_params()


static func _ensure_params() -> void:
	# Added once per process (the global parameter list can only be read in the editor).
	if _params_ready:
		return
	_params_ready = true
	RenderingServer.global_shader_parameter_add(COUNT_PARAM, RenderingServer.GLOBAL_VAR_TYPE_INT, 0)
	for i: int in BimVoiceSchemaConstants.MAX_SECTION_PLANES:
		RenderingServer.global_shader_parameter_add(
			StringName(PLANE_PARAM_PREFIX + str(i)),
			RenderingServer.GLOBAL_VAR_TYPE_VEC4,
			Vector4(0.0, 0.0, 0.0, 0.0)
		)
