@tool
@icon("res://addons/bimvoice/icons/hud_panel.svg")
class_name BimVoiceHudPanel3D
extends Node3D
## World-space HUD for XR: a dark translucent quad with a [Label3D] showing a [BimVoiceHudText].
## Parent it to a controller (wrist panel) or place it in front of the user.

## Panel size (m).
@export_custom(PROPERTY_HINT_LINK, "suffix:m") var size: Vector2 = Vector2(0.42, 0.24)

var _label: Label3D
var _text: BimVoiceHudText = null


func _init() -> void:
	var quad: MeshInstance3D = MeshInstance3D.new()
	quad.name = "Background"
	var mesh: QuadMesh = QuadMesh.new()
	mesh.size = size
	quad.mesh = mesh
	var material: StandardMaterial3D = StandardMaterial3D.new()
	material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	material.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
	material.albedo_color = Color(0.05, 0.07, 0.1, 0.75)
	quad.material_override = material
	add_child(quad)
	_label = Label3D.new()
	_label.name = "Text"
	_label.pixel_size = 0.0008
	_label.font_size = 28
	_label.outline_size = 0
	_label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	_label.width = size.x / _label.pixel_size * 0.94
	_label.horizontal_alignment = HORIZONTAL_ALIGNMENT_LEFT
	_label.vertical_alignment = VERTICAL_ALIGNMENT_TOP
	_label.position = Vector3(0.0, size.y * 0.46, 0.002)
	_label.modulate = Color(0.95, 0.97, 1.0)
	add_child(_label)


func _ready() -> void:
	if _text == null and not Engine.is_editor_hint():
		var runtime: BimVoiceRuntime = BimVoiceRuntime.find_in(get_tree())
		if runtime != null:
			bind(runtime.hud)


## Editor warnings for wrong wiring: no runtime whose HUD text the panel could show.
func _get_configuration_warnings() -> PackedStringArray:
	if _text == null and BimVoiceRuntime.autoload_name().is_empty():
		return PackedStringArray([
			"No text to show: call bind() from code, or enable the BimVoice plugin so the panel"
			+ " shows the runtime's HUD."
		])
	return PackedStringArray()


## Shows [param text] from now on.
func bind(text: BimVoiceHudText) -> void:
	_text = BimVoiceHudText.rebind(_text, text, _refresh)


## What the panel shows now.
func shown_text() -> String:
	return _label.text


func _refresh() -> void:
	_label.text = _text.render() if _text != null else ""
