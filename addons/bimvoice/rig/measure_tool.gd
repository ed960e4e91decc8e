class_name BimVoiceMeasureTool
extends Node3D
## Measuring by pointing: two points on the building (picked with the mouse or a controller ray)
## give a distance line and a label in metres, drawn in the 3D scene so that it shows in every
## view and both eyes. A third point starts a new measurement. Distances are real-world metres:
## in the scale-model view the model's scale is divided out.

## A measurement was completed: its real-world length (metres) and its ends (world frame).
signal measured(distance_m: float, from: Vector3, to: Vector3)

## Colour of the markers, line and label.
@export var color: Color = Color(1.0, 0.85, 0.1)
## Radius of the end markers (metres, world frame).
@export_range(0.005, 0.2, 0.005, "suffix:m") var marker_radius: float = 0.03
## Thickness of the line (metres, world frame).
@export_range(0.002, 0.1, 0.001, "suffix:m") var line_width: float = 0.012

## Real-world metres per world unit (1 at full size; 1 / scale in the scale-model view).
var metres_per_unit: float = 1.0

var _points: PackedVector3Array = PackedVector3Array()
var _material: StandardMaterial3D
var _markers: Array[MeshInstance3D] = []
var _line: MeshInstance3D
var _label: Label3D


func _init() -> void:
	name = "BimVoiceMeasureTool"
	_material = StandardMaterial3D.new()
	_material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	_material.albedo_color = color
	_material.no_depth_test = true  # the measurement stays visible through what is in front
	_material.render_priority = 10
	for i: int in 2:
		var marker: MeshInstance3D = MeshInstance3D.new()
		var sphere: SphereMesh = SphereMesh.new()
		sphere.radius = marker_radius
		sphere.height = marker_radius * 2.0
		marker.mesh = sphere
		marker.material_override = _material
		marker.visible = false
		add_child(marker)
		_markers.append(marker)
	_line = MeshInstance3D.new()
	var cylinder: CylinderMesh = CylinderMesh.new()
	cylinder.top_radius = line_width * 0.5
	cylinder.bottom_radius = line_width * 0.5
	cylinder.height = 1.0
	_line.mesh = cylinder
	_line.material_override = _material
	_line.visible = false
	add_child(_line)
	_label = Label3D.new()
	_label.billboard = BaseMaterial3D.BILLBOARD_ENABLED
	_label.no_depth_test = true
	_label.fixed_size = true
	_label.pixel_size = 0.0008
	_label.font_size = 40
	_label.outline_size = 10
	_label.modulate = color
	_label.visible = false
	add_child(_label)


## Adds a measuring point (world frame). Returns the distance in metres when it completes a
## measurement, else -1.
func add_point(world: Vector3) -> float:
	if _points.size() >= 2:
		clear()
	_points.append(world)
	var marker: MeshInstance3D = _markers[_points.size() - 1]
	marker.position = world  # the tool stays at the origin: its local frame is the world's
	marker.visible = true
	if _points.size() < 2:
		return -1.0
	var a: Vector3 = _points[0]
	var b: Vector3 = _points[1]
	var length_world: float = a.distance_to(b)
	var metres: float = length_world * metres_per_unit
	_place_line(a, b)
	_label.text = format_metres(metres)
	_label.position = (a + b) * 0.5 + Vector3(0.0, 0.08, 0.0)
	_label.visible = true
	measured.emit(metres, a, b)
	return metres


## Removes the current measurement.
func clear() -> void:
	_points.clear()
	for marker: MeshInstance3D in _markers:
		marker.visible = false
	_line.visible = false
	_label.visible = false


## The points placed so far (0, 1 or 2; world frame).
func points() -> PackedVector3Array:
	return _points


## The label's text ("" before a measurement is complete).
func label_text() -> String:
	return _label.text if _label.visible else ""


## "2.35 m", or centimetres below a metre ("48 cm").
static func format_metres(metres: float) -> String:
	if metres < 1.0:
		return "%d cm" % roundi(metres * 100.0)
	return "%.2f m" % metres


func _place_line(a: Vector3, b: Vector3) -> void:
	var along: Vector3 = b - a
	var length: float = along.length()
	if length < 1e-6:
		_line.visible = false
		return
	var up: Vector3 = along / length
	var side: Vector3 = up.cross(Vector3.RIGHT if absf(up.x) < 0.9 else Vector3.FORWARD).normalized()
	# The unit cylinder stands along Y: stretch Y along the segment.
	_line.transform = Transform3D(Basis(side, along, side.cross(up)), (a + b) * 0.5)
	_line.visible = true
