class_name BimVoiceElementPicker
extends RefCounted
## Ray picking of building elements (controller ray, mouse click, teleport arc).
##
## Colliders are made lazily: [method build_some] adds trimesh colliders for a few elements per
## call within a time budget (the runtime calls it every frame after a load) and [method pick]
## builds the ones a ray needs first. Hidden and deleted elements are never picked.

## Physics layer (bit index, 1-based as in the editor) of the element colliders.
const ELEMENT_LAYER: int = 20
## Collision mask for rays that hit elements only.
const ELEMENT_MASK: int = 1 << (ELEMENT_LAYER - 1)
## Rays skip at most this many hidden elements before giving up.
const MAX_SKIPS: int = 32

## The building to pick from.
var building: BimVoiceBuildingModel

var _pending: Array[String] = []
var _done: Dictionary = {}
var _shape_cache: Dictionary = {}


## A picker for [param target]; call [method reset] after every (re)load.
func _init(target: BimVoiceBuildingModel) -> void:
	building = target
	reset()


## Forgets the colliders of a previous building and queues every element of the current one.
func reset() -> void:
	_done.clear()
	_shape_cache.clear()
	_pending.clear()
	for gid: String in building.element_ids():
		_pending.append(gid)


## Queues colliders for elements added to the building since (a streamed part).
func add_elements(ids: PackedStringArray) -> void:
	for gid: String in ids:
		_pending.append(gid)


## Whether every element has its collider.
func is_complete() -> bool:
	return _pending.is_empty()


## Adds colliders for queued elements until [param budget_usec] microseconds are spent.
## Returns how many elements are still waiting.
func build_some(budget_usec: int = 1500) -> int:
	var deadline: int = Time.get_ticks_usec() + budget_usec
	while not _pending.is_empty() and Time.get_ticks_usec() < deadline:
		_ensure(_pending.pop_back())
	return _pending.size()


## Adds every missing collider now.
func build_all() -> void:
	while not _pending.is_empty():
		_ensure(_pending.pop_back())


## The nearest visible element hit by the segment [param from] -> [param to] (world frame).
## Returns {} when nothing is hit, else {"id", "position", "normal", "distance"}.
func pick(from: Vector3, to: Vector3) -> Dictionary:
	if not building.is_inside_tree():
		return {}
	if not _pending.is_empty():
		_build_along(from, to)
	var space: PhysicsDirectSpaceState3D = building.get_world_3d().direct_space_state
	var query: PhysicsRayQueryParameters3D = PhysicsRayQueryParameters3D.create(from, to, ELEMENT_MASK)
	query.hit_back_faces = true
	var excluded: Array[RID] = []
	for _i: int in MAX_SKIPS:
		query.exclude = excluded
		var hit: Dictionary = space.intersect_ray(query)
		if hit.is_empty():
			return {}
		var collider: Object = hit["collider"]
		var gid: String = collider.get_meta(&"gid", "")
		var element: BimVoiceBuildingElement = building.get_element(gid)
		if element != null and element.node.visible:
			return {
				"id": gid,
				"position": hit["position"],
				"normal": hit["normal"],
				"distance": from.distance_to(hit["position"]),
			}
		excluded.append(hit["rid"])
	return {}


# Builds colliders for queued elements whose box the segment crosses (so a pick right after a
# load is exact).
func _build_along(from: Vector3, to: Vector3) -> void:
	var to_building: Transform3D = building.global_transform.affine_inverse()
	var a: Vector3 = to_building * from
	var b: Vector3 = to_building * to
	var keep: Array[String] = []
	for gid: String in _pending:
		var element: BimVoiceBuildingElement = building.get_element(gid)
		if element != null and element.current_aabb().grow(0.01).intersects_segment(a, b):
			_ensure(gid)
		else:
			keep.append(gid)
	_pending = keep


func _ensure(gid: String) -> void:
	if _done.has(gid):
		return
	_done[gid] = true
	var element: BimVoiceBuildingElement = building.get_element(gid)
	if element == null:
		return
	for mesh_instance: MeshInstance3D in element.meshes:
		if mesh_instance.mesh == null:
			continue
		var shape: Shape3D = _shape_cache.get(mesh_instance.mesh, null)
		if shape == null:
			shape = mesh_instance.mesh.create_trimesh_shape()
			if shape == null:
				continue
			_shape_cache[mesh_instance.mesh] = shape
		var body: StaticBody3D = StaticBody3D.new()
		body.name = "PickBody"
		body.collision_layer = ELEMENT_MASK
		body.collision_mask = 0
		body.set_meta(&"gid", gid)
		var collision: CollisionShape3D = CollisionShape3D.new()
		collision.shape = shape
		body.add_child(collision)
		mesh_instance.add_child(body)
