class_name BimVoiceMaterialCache
extends RefCounted
## Shared materials for colour overrides (one per colour, reused by every element painted that
## colour) and the selection highlight overlay: an outline around the selected element (stencil)
## and a light tint, so a painted element keeps showing its colour while selected.

## Colours are quantised to 1/255 per channel for the cache key.
const STEPS: float = 255.0
## Colour of the selection outline and tint.
const HIGHLIGHT: Color = Color(1.0, 0.55, 0.0)
## Opacity of the selection tint over the element's own colour.
const HIGHLIGHT_TINT: float = 0.06

var _by_key: Dictionary = {}
var _highlight: StandardMaterial3D = null


## The override material for an RGBA colour (alpha < 1 makes it transparent). Same colour, same
## material instance.
func color_material(color: Color) -> StandardMaterial3D:
	var key: int = key_of(color)
	var cached: StandardMaterial3D = _by_key.get(key, null)
	if cached != null:
		return cached
	var material: StandardMaterial3D = StandardMaterial3D.new()
	material.albedo_color = color
	material.roughness = 0.85
	material.cull_mode = BaseMaterial3D.CULL_DISABLED
	if color.a < 1.0:
		material.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
		material.depth_draw_mode = BaseMaterial3D.DEPTH_DRAW_DISABLED
	material.resource_name = "bimvoice_color_%08x" % key
	_by_key[key] = material
	return material


## The material of [param material] (a colour material) with its alpha scaled by
## [param opacity]: painting a see-through surface keeps it see-through.
func with_opacity(material: Material, opacity: float) -> StandardMaterial3D:
	var c: Color = (material as StandardMaterial3D).albedo_color
	return color_material(Color(c.r, c.g, c.b, c.a * opacity))


## The overlay drawn on selected elements: an orange outline around the element and a light
## orange tint ([constant HIGHLIGHT_TINT] alpha) that leaves its own colour visible.
func highlight_material() -> StandardMaterial3D:
	if _highlight == null:
		_highlight = StandardMaterial3D.new()
		_highlight.resource_name = "bimvoice_selection"
		_highlight.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
		_highlight.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
		_highlight.albedo_color = Color(HIGHLIGHT.r, HIGHLIGHT.g, HIGHLIGHT.b, HIGHLIGHT_TINT)
		_highlight.cull_mode = BaseMaterial3D.CULL_BACK
		_highlight.depth_draw_mode = BaseMaterial3D.DEPTH_DRAW_DISABLED
		_highlight.stencil_mode = BaseMaterial3D.STENCIL_MODE_OUTLINE
		_highlight.stencil_color = HIGHLIGHT
		_highlight.stencil_outline_thickness = 0.04
	return _highlight


## Number of distinct colour materials made so far.
func size() -> int:
	return _by_key.size()


## The cache key of a colour: RGBA8 packed into an int.
static func key_of(color: Color) -> int:
	return (
		(int(roundf(clampf(color.r, 0.0, 1.0) * STEPS)) << 24)
		| (int(roundf(clampf(color.g, 0.0, 1.0) * STEPS)) << 16)
		| (int(roundf(clampf(color.b, 0.0, 1.0) * STEPS)) << 8)
		| int(roundf(clampf(color.a, 0.0, 1.0) * STEPS))
	)
