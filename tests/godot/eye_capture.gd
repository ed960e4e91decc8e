extends CompositorEffect
## Reads back what the XR camera rendered for each eye: after the transparent pass, a compute
## shader copies each view's layer of the scene's colour buffer (linear HDR; the buffer itself
## cannot be read back) into a readable texture, on the rendering thread, when asked.

const COPY_GLSL: String = """
#version 450
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(rgba16f, set = 0, binding = 0) uniform restrict readonly image2D src;
layout(rgba16f, set = 0, binding = 1) uniform restrict writeonly image2D dst;
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	if (any(greaterThanEqual(p, imageSize(src)))) {
		return;
	}
	imageStore(dst, p, imageLoad(src, p));
}
"""

## Images of the last capture, one per view (RGBA8, sRGB); empty until one was taken.
var images: Array[Image] = []
## Format and view count seen at the last capture (for messages).
var seen: String = ""
var _wanted: bool = false
var _mutex: Mutex = Mutex.new()
var _shader: RID
var _pipeline: RID


func _init() -> void:
	effect_callback_type = EFFECT_CALLBACK_TYPE_POST_TRANSPARENT


## Asks for a capture on the next rendered frame.
func request() -> void:
	_mutex.lock()
	_wanted = true
	images = []
	_mutex.unlock()


## Whether the requested capture is done.
func done() -> bool:
	_mutex.lock()
	var finished: bool = not _wanted
	_mutex.unlock()
	return finished


func _render_callback(_type: int, render_data: RenderData) -> void:
	_mutex.lock()
	var wanted: bool = _wanted
	_mutex.unlock()
	if not wanted:
		return
	var buffers: RenderSceneBuffersRD = render_data.get_render_scene_buffers() as RenderSceneBuffersRD
	var rd: RenderingDevice = RenderingServer.get_rendering_device()
	if not _pipeline.is_valid():
		var source: RDShaderSource = RDShaderSource.new()
		source.source_compute = COPY_GLSL
		var spirv: RDShaderSPIRV = rd.shader_compile_spirv_from_source(source)
		if not spirv.compile_error_compute.is_empty():
			seen = "shader: " + spirv.compile_error_compute
			_finish([])
			return
		_shader = rd.shader_create_from_spirv(spirv)
		_pipeline = rd.compute_pipeline_create(_shader)
	var size: Vector2i = buffers.get_internal_size()
	var fmt: RDTextureFormat = RDTextureFormat.new()
	fmt.width = size.x
	fmt.height = size.y
	fmt.format = RenderingDevice.DATA_FORMAT_R16G16B16A16_SFLOAT
	fmt.usage_bits = (
		RenderingDevice.TEXTURE_USAGE_STORAGE_BIT | RenderingDevice.TEXTURE_USAGE_CAN_COPY_FROM_BIT
	)
	var captured: Array[Image] = []
	seen = "%d views, %dx%d" % [buffers.get_view_count(), size.x, size.y]
	for view: int in buffers.get_view_count():
		var dst: RID = rd.texture_create(fmt, RDTextureView.new())
		var set_rid: RID = rd.uniform_set_create(
			[_image_uniform(0, buffers.get_color_layer(view)), _image_uniform(1, dst)], _shader, 0
		)
		var list: int = rd.compute_list_begin()
		rd.compute_list_bind_compute_pipeline(list, _pipeline)
		rd.compute_list_bind_uniform_set(list, set_rid, 0)
		rd.compute_list_dispatch(list, ceili(size.x / 8.0), ceili(size.y / 8.0), 1)
		rd.compute_list_end()
		var data: PackedByteArray = rd.texture_get_data(dst, 0)
		rd.free_rid(set_rid)
		rd.free_rid(dst)
		var image: Image = Image.create_from_data(size.x, size.y, false, Image.FORMAT_RGBAH, data)
		image.convert(Image.FORMAT_RGBA8)
		image.linear_to_srgb()
		captured.append(image)
	_finish(captured)


func _notification(what: int) -> void:
	if what == NOTIFICATION_PREDELETE and _shader.is_valid():
		RenderingServer.get_rendering_device().free_rid(_shader)  # frees the pipeline with it


func _finish(captured: Array[Image]) -> void:
	_mutex.lock()
	images = captured
	_wanted = false
	_mutex.unlock()


static func _image_uniform(binding: int, texture: RID) -> RDUniform:
	var uniform: RDUniform = RDUniform.new()
	uniform.uniform_type = RenderingDevice.UNIFORM_TYPE_IMAGE
	uniform.binding = binding
	uniform.add_id(texture)
	return uniform
