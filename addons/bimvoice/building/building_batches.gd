class_name BimVoiceBuildingBatches
extends RefCounted
## Draws a loaded building in a few merged meshes instead of one draw per element, keeping
## per-element control: every vertex carries its element's index (UV2.x) and its loaded colour
## (COLOR: sRGB like the materials' albedo, made linear in the shader where the renderer lights
## in linear space). The batch shader reads each element's state in the vertex stage from a
## small RGBA8 texture, two texels per element: (paint colour, mode) and (motion number): hidden
## elements collapse to nothing (in shadows too), painted ones take the colour, moved ones turn
## and shift about their centre by an entry of a motion table (a float texture; element centres
## are another, made at build).
##
## Elements whose look the state cannot carry are [i]lifted[/i]: they disappear from the batches
## and their own mesh instances draw them as before (a see-through colour on an opaque surface, the
## selection outline, a motion when the table is full). The element nodes and meshes stay in the
## tree throughout: picking, bounds and the section clipper's twins work on them unchanged; only
## their render layers are off while they are batched.
##
## [BimVoiceChangeApplier] writes [member state] directly in its per-element loops (the cheapest
## way in GDScript) and calls [method mark_dirty]; the state is uploaded once per drawn frame, only
## when it changed.
##
## Batches are split by opacity (opaque / see-through) and then in space (halving the longest side
## of the elements' centres) until each holds at most [constant MAX_CHUNK_VERTICES] vertices, so
## the renderer can still leave out what is outside the view. Every batch clips against the
## section planes ([BimVoiceSectionClipper]'s global shader parameters).

## Name of the node under the building that holds the batch meshes.
const NODE_NAME: String = "Batches"
## Vertices per batch mesh at most (a batch smaller than this is not split).
const MAX_CHUNK_VERTICES: int = 131072
## Width of the state texture in elements (two texels each).
const STATE_WIDTH: int = 256
## Bytes of [member state] per element: colour r, g, b, mode, motion number low, high, 0, 0.
const STRIDE: int = 8
## State modes (byte 3 of an element's state).
const MODE_HIDDEN: int = 0
const MODE_BASE: int = 1
const MODE_COLORED: int = 2
## Added to the mode when the element is moved (its motion number applies).
const MODE_MOVED: int = 4
## Motion table: [constant MOTION_COLUMNS] x [constant MOTION_COLUMNS] entries of three texels.
const MOTION_COLUMNS: int = 64

static var _shaders: Dictionary = {}

## The batch meshes (children of the [constant NODE_NAME] node).
var meshes: Array[MeshInstance3D] = []
## Per-element state, [constant STRIDE] bytes each (see [constant STRIDE]); the applier writes it
## in place and calls [method mark_dirty].
var state: PackedByteArray = PackedByteArray()
## 1 where an element is lifted out to its own meshes.
var lifted: PackedByteArray = PackedByteArray()
## The state texture (RGBA8, 2 x [constant STATE_WIDTH] texels wide).
var texture: ImageTexture = null
## The motion table texture (RGBA float: the rows of each motion's 3x4 matrix).
var motion_texture: ImageTexture = null
## Element centres (RGBA float, [constant STATE_WIDTH] wide), made at build.
var centre_texture: ImageTexture = null
## Microseconds the last [method build] took.
var build_usec: int = 0
## Vertices merged into batches.
var vertex_count: int = 0

var _root: Node3D = null
var _image: Image = null
var _dirty: bool = false
var _motions: PackedFloat32Array = PackedFloat32Array()
var _motion_image: Image = null
var _motion_dirty: bool = false
# Motion ([Basis, Vector3] instance of the applier) -> its number in the table.
var _motion_numbers: Dictionary = {}
# Per element: [MeshInstance3D, layers, cast_shadow] of each of its meshes as loaded.
var _own: Array = []
var _element_count: int = 0
# Element centres (RGBA float, four per element), the data of [member centre_texture].
var _centres: PackedFloat32Array = PackedFloat32Array()


## Merges the elements of [param model] into batch meshes under a new child of it and turns the
## element meshes' rendering off. Call once per loaded building (the model does).
func build(model: BimVoiceBuildingModel) -> void:
	var started: int = Time.get_ticks_usec()
	BimVoiceSectionClipper.ensure_global_params()
	_element_count = model.element_list.size()
	lifted = PackedByteArray()
	lifted.resize(_element_count)
	var height: int = maxi(1, ceili(float(_element_count) / STATE_WIDTH))
	state = PackedByteArray()
	state.resize(STATE_WIDTH * height * STRIDE)
	for k: int in _element_count:
		state[k * STRIDE + 3] = MODE_BASE
	_image = Image.create_from_data(STATE_WIDTH * 2, height, false, Image.FORMAT_RGBA8, state)
	texture = ImageTexture.create_from_image(_image)
	_centres = PackedFloat32Array()
	_write_centres(model, 0, height)
	centre_texture = ImageTexture.create_from_image(_centre_image(height))
	_motions = PackedFloat32Array()
	_motions.resize(MOTION_COLUMNS * 3 * MOTION_COLUMNS * 4)
	_motion_numbers.clear()
	_write_motion(0, Basis.IDENTITY, Vector3.ZERO)
	_motion_image = Image.create_from_data(
		MOTION_COLUMNS * 3, MOTION_COLUMNS, false, Image.FORMAT_RGBAF, _motions.to_byte_array()
	)
	motion_texture = ImageTexture.create_from_image(_motion_image)
	_root = Node3D.new()
	_root.name = NODE_NAME
	model.add_child(_root)
	_own = []
	_batch_elements(model, 0)
	_dirty = false
	_motion_dirty = false
	if not RenderingServer.frame_pre_draw.is_connected(flush):
		RenderingServer.frame_pre_draw.connect(flush)
	build_usec = Time.get_ticks_usec() - started


## Adds the elements of [param model] from index [param first] on (a streamed part, appended to
## its element list after those already batched) in batch meshes of their own; what the state
## shows for the elements already batched is kept. The state textures grow when they must.
func add_elements(model: BimVoiceBuildingModel, first: int) -> void:
	var started: int = Time.get_ticks_usec()
	var count: int = model.element_list.size()
	if _image == null or first != _element_count or count <= first:
		return
	_element_count = count
	lifted.resize(count)
	var height: int = maxi(1, ceili(float(count) / STATE_WIDTH))
	state.resize(STATE_WIDTH * height * STRIDE)  # rows are appended: the old bytes stay put
	for k: int in range(first, count):
		state[k * STRIDE + 3] = MODE_BASE
	_write_centres(model, first, height)
	if height != _image.get_height():
		_image = Image.create_from_data(
			STATE_WIDTH * 2, height, false, Image.FORMAT_RGBA8, state
		)
		texture = ImageTexture.create_from_image(_image)
		centre_texture = ImageTexture.create_from_image(_centre_image(height))
		for batch: MeshInstance3D in meshes:
			var material: ShaderMaterial = batch.mesh.surface_get_material(0) as ShaderMaterial
			material.set_shader_parameter("element_state", texture)
			material.set_shader_parameter("element_centre", centre_texture)
	else:
		centre_texture.update(_centre_image(height))
		_dirty = true
	_batch_elements(model, first)
	build_usec = Time.get_ticks_usec() - started


## Removes the batch meshes and gives the element meshes their rendering back.
func release() -> void:
	if RenderingServer.frame_pre_draw.is_connected(flush):
		RenderingServer.frame_pre_draw.disconnect(flush)
	for k: int in _own.size():
		_set_own_drawn(k, true)
	if _root != null and is_instance_valid(_root):
		if _root.get_parent() != null:
			_root.get_parent().remove_child(_root)
		_root.queue_free()
	_root = null
	meshes.clear()


## The state changed: upload it before the next frame is drawn.
func mark_dirty() -> void:
	_dirty = true


## The state mode of an element shown in the batches (not lifted, not hidden): painted or not,
## moved or not.
static func shown_mode(painted: bool, moved: bool) -> int:
	return (MODE_COLORED if painted else MODE_BASE) + (MODE_MOVED if moved else 0)


## The number of [param motion] ([Basis, translation] about an element's centre, building frame,
## as [BimVoiceChangeApplier] makes them; the same instance gets the same number) in the motion
## table, adding it if new; -1 when the table is full (the element is then lifted).
func motion_number(motion: Array) -> int:
	var number: int = _motion_numbers.get(motion, -1)
	if number >= 0:
		return number
	number = _motion_numbers.size() + 1
	if number >= MOTION_COLUMNS * MOTION_COLUMNS:
		return -1
	_motion_numbers[motion] = number
	_write_motion(number, motion[0], motion[1])
	return number


## Sets everything the batches show of element [param k] at once: shown or hidden, lifted out to
## its own meshes or not, its colour ([param color] opaque sRGB, or null for the loaded one) and
## its motion ([param motion] as for [method motion_number], or null where it stands as loaded).
func set_element(k: int, shown: bool, lift: bool, color: Variant, motion: Variant = null) -> void:
	var at: int = k * STRIDE
	var number: int = 0
	if motion != null:
		number = motion_number(motion)
		if number < 0:
			lift = true
			number = 0
	set_lifted(k, lift)
	if color != null:
		var c: Color = color
		state[at] = c.r8
		state[at + 1] = c.g8
		state[at + 2] = c.b8
	state[at + 4] = number & 255
	state[at + 5] = number >> 8
	state[at + 3] = (
		shown_mode(color != null, motion != null) if shown and not lift else MODE_HIDDEN
	)
	_dirty = true


## Lifts element [param k] out of the batches (its own meshes draw it) or puts it back (then set
## its state: a lifted element's mode is [constant MODE_HIDDEN]).
func set_lifted(k: int, lift: bool) -> void:
	if (lifted[k] == 1) == lift:
		return
	lifted[k] = 1 if lift else 0
	_set_own_drawn(k, lift)
	if lift:
		state[k * STRIDE + 3] = MODE_HIDDEN
		_dirty = true


## Whether element [param k] is drawn by its own meshes now.
func is_lifted(k: int) -> bool:
	return lifted[k] == 1


## The state mode of element [param k] as the batches draw it ([constant MODE_HIDDEN],
## [constant MODE_BASE] or [constant MODE_COLORED], plus [constant MODE_MOVED]).
func mode_of(k: int) -> int:
	return state[k * STRIDE + 3]


## The paint colour of element [param k] in the state (sRGB, meaningful with
## [constant MODE_COLORED]).
func color_of(k: int) -> Color:
	return Color8(state[k * STRIDE], state[k * STRIDE + 1], state[k * STRIDE + 2])


## The motion of element [param k] about its centre as the batches draw it ([Basis, translation];
## the identity when it is not moved).
func motion_of(k: int) -> Array:
	var number: int = state[k * STRIDE + 4] | (state[k * STRIDE + 5] << 8)
	if state[k * STRIDE + 3] < MODE_MOVED:
		number = 0
	var at: int = _motion_at(number)
	var m: PackedFloat32Array = _motions
	return [
		Basis(
			Vector3(m[at], m[at + 4], m[at + 8]),
			Vector3(m[at + 1], m[at + 5], m[at + 9]),
			Vector3(m[at + 2], m[at + 6], m[at + 10])
		),
		Vector3(m[at + 3], m[at + 7], m[at + 11])
	]


## Number of elements drawn by their own meshes now.
func lifted_count() -> int:
	return lifted.count(1)


## Uploads the state to the GPU if it changed (connected to [signal
## RenderingServer.frame_pre_draw]; call it to upload now).
func flush() -> void:
	if _image == null:
		return
	if _dirty:
		_dirty = false
		_image.set_data(_image.get_width(), _image.get_height(), false, Image.FORMAT_RGBA8, state)
		texture.update(_image)
	if _motion_dirty:
		_motion_dirty = false
		_motion_image.set_data(
			_motion_image.get_width(),
			_motion_image.get_height(),
			false,
			Image.FORMAT_RGBAF,
			_motions.to_byte_array()
		)
		motion_texture.update(_motion_image)


# Merges elements [param first].. of the model into new batch meshes and turns their own
# meshes' rendering off.
func _batch_elements(model: BimVoiceBuildingModel, first: int) -> void:
	var pieces: Array = [[], []]  # opaque, see-through: [k, mesh, surface, vertices, centre]
	_own.resize(_element_count)
	for k: int in range(first, _element_count):
		var element: BimVoiceBuildingElement = model.element_list[k]
		var own: Array = []
		for mesh_instance: MeshInstance3D in element.meshes:
			own.append([mesh_instance, mesh_instance.layers, mesh_instance.cast_shadow])
			if mesh_instance.mesh == null:
				continue
			for s: int in mesh_instance.mesh.get_surface_count():
				var count: int = _surface_vertices(mesh_instance.mesh, s)
				if count == 0:
					continue
				var piece: Array = [k, mesh_instance, s, count, element.centre]
				pieces[1 if _base_alpha(mesh_instance, s) < 1.0 else 0].append(piece)
		_own[k] = own
	for see_through: int in 2:
		for chunk: Array in _split(pieces[see_through]):
			_make_batch(model, chunk, see_through == 1)
	for k: int in range(first, _element_count):
		_set_own_drawn(k, false)


# Element centres [param first].. into [member _centres] (grown to [param height] rows).
func _write_centres(model: BimVoiceBuildingModel, first: int, height: int) -> void:
	_centres.resize(STATE_WIDTH * height * 4)
	for k: int in range(first, _element_count):
		var c: Vector3 = model.element_list[k].centre
		_centres[k * 4] = c.x
		_centres[k * 4 + 1] = c.y
		_centres[k * 4 + 2] = c.z


func _centre_image(height: int) -> Image:
	return Image.create_from_data(
		STATE_WIDTH, height, false, Image.FORMAT_RGBAF, _centres.to_byte_array()
	)


# Index of motion number n's first float: three RGBA texels in a row, the rows of its 3x4 matrix.
static func _motion_at(n: int) -> int:
	return ((n / MOTION_COLUMNS) * MOTION_COLUMNS * 3 + (n % MOTION_COLUMNS) * 3) * 4


func _write_motion(n: int, b: Basis, o: Vector3) -> void:
	var at: int = _motion_at(n)
	var m: PackedFloat32Array = _motions
	m[at] = b.x.x
	m[at + 1] = b.y.x
	m[at + 2] = b.z.x
	m[at + 3] = o.x
	m[at + 4] = b.x.y
	m[at + 5] = b.y.y
	m[at + 6] = b.z.y
	m[at + 7] = o.y
	m[at + 8] = b.x.z
	m[at + 9] = b.y.z
	m[at + 10] = b.z.z
	m[at + 11] = o.z
	_motion_dirty = true


func _set_own_drawn(k: int, drawn: bool) -> void:
	for entry: Array in _own[k]:
		var mesh_instance: MeshInstance3D = entry[0]
		if not is_instance_valid(mesh_instance):
			continue
		mesh_instance.layers = entry[1] if drawn else 0
		mesh_instance.cast_shadow = (
			entry[2] if drawn else GeometryInstance3D.SHADOW_CASTING_SETTING_OFF
		)


# Splits pieces into chunks of at most MAX_CHUNK_VERTICES vertices, halving along the longest
# side of their centres' box (an element's pieces may land in different chunks: fine).
func _split(pieces: Array) -> Array:
	if pieces.is_empty():
		return []
	var total: int = 0
	var box: AABB = AABB(pieces[0][4], Vector3.ZERO)
	for piece: Array in pieces:
		total += piece[3]
		box = box.expand(piece[4])
	if total <= MAX_CHUNK_VERTICES or pieces.size() < 2:
		return [pieces]
	var axis: int = box.get_longest_axis_index()
	pieces.sort_custom(func(a: Array, b: Array) -> bool: return a[4][axis] < b[4][axis])
	var half: int = 0
	var cut: int = 0
	while cut < pieces.size() - 1 and half < total / 2:
		half += pieces[cut][3]
		cut += 1
	cut = maxi(cut, 1)
	return _split(pieces.slice(0, cut)) + _split(pieces.slice(cut))


func _make_batch(model: BimVoiceBuildingModel, chunk: Array, see_through: bool) -> void:
	var positions: PackedVector3Array = PackedVector3Array()
	var normals: PackedVector3Array = PackedVector3Array()
	var colors: PackedColorArray = PackedColorArray()
	var uv2: PackedVector2Array = PackedVector2Array()
	var indices: PackedInt32Array = PackedInt32Array()
	for piece: Array in chunk:
		var k: int = piece[0]
		var mesh_instance: MeshInstance3D = piece[1]
		var s: int = piece[2]
		var arrays: Array = mesh_instance.mesh.surface_get_arrays(s)
		var xform: Transform3D = model.to_building(mesh_instance)
		var start: int = positions.size()
		var verts: PackedVector3Array = arrays[Mesh.ARRAY_VERTEX]
		positions.append_array(xform * verts)
		var surface_normals: Variant = arrays[Mesh.ARRAY_NORMAL]
		var has_normals: bool = surface_normals is PackedVector3Array
		if has_normals and (surface_normals as PackedVector3Array).size() == verts.size():
			var turn: Transform3D = Transform3D(xform.basis.inverse().transposed(), Vector3.ZERO)
			normals.append_array(turn * (surface_normals as PackedVector3Array))
		else:
			var up: PackedVector3Array = PackedVector3Array()
			up.resize(verts.size())
			up.fill(Vector3.UP)
			normals.append_array(up)
		var tint: PackedColorArray = PackedColorArray()
		tint.resize(verts.size())
		tint.fill(_base_color(mesh_instance, s))
		colors.append_array(tint)
		var ids: PackedVector2Array = PackedVector2Array()
		ids.resize(verts.size())
		ids.fill(Vector2(float(k), 0.0))
		uv2.append_array(ids)
		var surface_indices: Variant = arrays[Mesh.ARRAY_INDEX]
		if (
			surface_indices is PackedInt32Array
			and not (surface_indices as PackedInt32Array).is_empty()
		):
			var source: PackedInt32Array = surface_indices
			var at: int = indices.size()
			indices.resize(at + source.size())
			for i: int in source.size():
				indices[at + i] = source[i] + start
		else:
			var at: int = indices.size()
			indices.resize(at + verts.size())
			for i: int in verts.size():
				indices[at + i] = start + i
	vertex_count += positions.size()
	var arrays_out: Array = []
	arrays_out.resize(Mesh.ARRAY_MAX)
	arrays_out[Mesh.ARRAY_VERTEX] = positions
	arrays_out[Mesh.ARRAY_NORMAL] = normals
	arrays_out[Mesh.ARRAY_COLOR] = colors
	arrays_out[Mesh.ARRAY_TEX_UV2] = uv2
	arrays_out[Mesh.ARRAY_INDEX] = indices
	var mesh: ArrayMesh = ArrayMesh.new()
	mesh.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays_out)
	var material: ShaderMaterial = ShaderMaterial.new()
	material.shader = batch_shader(see_through)
	material.set_shader_parameter("element_state", texture)
	material.set_shader_parameter("motions", motion_texture)
	material.set_shader_parameter("element_centre", centre_texture)
	mesh.surface_set_material(0, material)
	var instance: MeshInstance3D = MeshInstance3D.new()
	instance.name = "Batch%d" % meshes.size()
	instance.mesh = mesh
	_root.add_child(instance)
	meshes.append(instance)


static func _surface_vertices(mesh: Mesh, s: int) -> int:
	var arrays: Array = mesh.surface_get_arrays(s)
	var verts: Variant = arrays[Mesh.ARRAY_VERTEX]
	return (verts as PackedVector3Array).size() if verts is PackedVector3Array else 0


static func _material(mesh_instance: MeshInstance3D, s: int) -> BaseMaterial3D:
	var material: Material = mesh_instance.get_surface_override_material(s)
	if material == null:
		material = mesh_instance.mesh.surface_get_material(s)
	return material as BaseMaterial3D


static func _base_alpha(mesh_instance: MeshInstance3D, s: int) -> float:
	var m: BaseMaterial3D = _material(mesh_instance, s)
	if m == null or m.transparency == BaseMaterial3D.TRANSPARENCY_DISABLED:
		return 1.0
	return m.albedo_color.a


# The loaded albedo (sRGB, as materials keep it).
static func _base_color(mesh_instance: MeshInstance3D, s: int) -> Color:
	var m: BaseMaterial3D = _material(mesh_instance, s)
	if m == null:
		return Color(0.8, 0.8, 0.8, 1.0)
	var c: Color = m.albedo_color
	c.a = _base_alpha(mesh_instance, s)
	return c


## The batch shader (opaque or see-through): element state from the texture, section planes from
## the global parameters.
static func batch_shader(see_through: bool) -> Shader:
	if _shaders.has(see_through):
		return _shaders[see_through]
	var count: StringName = BimVoiceSectionClipper.COUNT_PARAM
	var prefix: String = BimVoiceSectionClipper.PLANE_PARAM_PREFIX
	var planes: String = ""
	var tests: String = ""
	for i: int in BimVoiceSchemaConstants.MAX_SECTION_PLANES:
		planes += "global uniform vec4 %s%d;\n" % [prefix, i]
		tests += (
			"\tif (%s > %d && dot(%s%d.xyz, world_pos) > %s%d.w) { discard; }\n"
			% [count, i, prefix, i, prefix, i]
		)
	var code: String = (
		"shader_type spatial;\n"
		+ "render_mode blend_mix, cull_disabled, depth_draw_opaque;\n"
		+ "global uniform int %s;\n" % count
		+ planes
		+ "uniform sampler2D element_state : filter_nearest, repeat_disable;\n"
		+ "uniform sampler2D motions : filter_nearest, repeat_disable;\n"
		+ "uniform sampler2D element_centre : filter_nearest, repeat_disable;\n"
		+ "uniform float roughness : hint_range(0.0, 1.0) = 0.9;\n"
		+ "varying vec3 world_pos;\n"
		+ "varying vec4 tint;\n\n"
		+ "vec3 to_linear(vec3 c) {\n"
		+ "\treturn mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(0.04045, c));\n"
		+ "}\n\n"
		+ "void vertex() {\n"
		+ "\tint k = int(UV2.x + 0.5);\n"
		+ "\tint w = textureSize(element_state, 0).x / 2;\n"
		+ "\tvec4 s = texelFetch(element_state, ivec2((k % w) * 2, k / w), 0);\n"
		+ "\tint mode = int(s.a * 255.0 + 0.5);\n"
		+ "\tif (mode >= %d) {\n" % MODE_MOVED
		+ "\t\tmode -= %d;\n" % MODE_MOVED
		+ "\t\tvec4 n = texelFetch(element_state, ivec2((k % w) * 2 + 1, k / w), 0);\n"
		+ "\t\tint m = int(n.r * 255.0 + 0.5) + 256 * int(n.g * 255.0 + 0.5);\n"
		+ "\t\tivec2 at = ivec2((m %% %d) * 3, m / %d);\n" % [MOTION_COLUMNS, MOTION_COLUMNS]
		+ "\t\tvec4 r0 = texelFetch(motions, at, 0);\n"
		+ "\t\tvec4 r1 = texelFetch(motions, at + ivec2(1, 0), 0);\n"
		+ "\t\tvec4 r2 = texelFetch(motions, at + ivec2(2, 0), 0);\n"
		+ "\t\tvec3 c = texelFetch(element_centre, ivec2(k % w, k / w), 0).xyz;\n"
		+ "\t\tvec3 v = VERTEX - c;\n"
		+ "\t\tVERTEX = c + vec3(dot(r0.xyz, v) + r0.w, dot(r1.xyz, v) + r1.w,"
		+ " dot(r2.xyz, v) + r2.w);\n"
		+ "\t\tNORMAL = normalize(vec3(dot(r0.xyz, NORMAL), dot(r1.xyz, NORMAL),"
		+ " dot(r2.xyz, NORMAL)));\n"
		+ "\t}\n"
		+ "\ttint = vec4(mode == %d ? s.rgb : COLOR.rgb, COLOR.a);\n" % MODE_COLORED
		# Colours are sRGB bytes like the materials' albedo: the Compatibility renderer lights
		# them as they are, the Vulkan renderers in linear space (measured against the element
		# meshes' own materials on both, tests/engine/test_batches.py).
		+ "#if CURRENT_RENDERER != RENDERER_COMPATIBILITY\n"
		+ "\ttint.rgb = to_linear(tint.rgb);\n"
		+ "#endif\n"
		+ "\tif (mode == %d) {\n\t\tVERTEX = vec3(0.0);\n\t}\n" % MODE_HIDDEN
		+ "\tworld_pos = (MODEL_MATRIX * vec4(VERTEX, 1.0)).xyz;\n"
		+ "}\n\n"
		+ "void fragment() {\n"
		+ tests
		+ "\tALBEDO = tint.rgb;\n\tROUGHNESS = roughness;\n"
		+ ("\tALPHA = tint.a;\n" if see_through else "")
		+ "}\n"
	)
	var shader: Shader = Shader.new()
	shader.code = code
	_shaders[see_through] = shader
	return shader
