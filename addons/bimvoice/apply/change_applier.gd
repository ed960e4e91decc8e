class_name BimVoiceChangeApplier
extends RefCounted
## Mirrors the agent's scene state in the engine: applies `engine_state` (full resync) and
## `engine_delta` (see `$defs` in pyagent/actions/action.schema.json) to a [BimVoiceBuildingModel].
##
## Every override can be undone exactly: visibility, colour/transparency (surface override
## materials; the loaded ones are put back), transforms (translation in IFC metres, rotation in
## degrees about the element's own centre, converted with [BimVoiceFrames]), deletion (hidden and
## marked),
## props (glb furniture or labelled boxes), the selection highlight (a material overlay) and the
## pose (handed to the rig through [signal pose_changed]).
##
## Input is checked in full first: a malformed state or delta changes nothing and comes back as
## a refused [BimVoiceApplyReport]. A delta's element changes come in groups (elements sharing one
## override state), so the work per element is a lookup, a flag test and the node setters that
## the change needs; materials and motions are made once per group. Only what differs from the
## current state is touched. When the building is (re)loaded the mirrored state is applied to
## the new nodes.

## The user's pose in the state changed (IFC frame: position, yaw, pitch).
signal pose_changed(pose: Dictionary)
## The set of selected elements changed.
signal selection_changed(ids: PackedStringArray)
## A delta was applied in full (at once, or over several [method drain] calls).
signal batch_applied(report: BimVoiceApplyReport)
## The review view changed: the section (clipping planes, IFC frame), the sun study (or null)
## or the scale-model view (or null); see `engine_state` in the action schema.
signal review_changed(sections: Array, sun: Variant, view_scale: Variant)

## Name of the node that holds the props (a child of the building).
const PROPS_NODE_NAME: String = "Props"
## Flag bits per element.
const HIDDEN: int = 1
const DELETED: int = 2
const COLORED: int = 4
const MOVED: int = 8
## Distinct transforms remembered with their converted motion.
const KNOWN_MOTIONS_MAX: int = 256

## The building the changes apply to.
var building: BimVoiceBuildingModel
## Where props go.
var props_root: Node3D
## Prop assets.
var props: BimVoicePropLibrary
## Shared override materials.
var materials: BimVoiceMaterialCache = BimVoiceMaterialCache.new()
## Microseconds per frame, counted from [method begin_frame] (or from the frame's first
## [method drain_frame]): [method apply_delta] and [method drain_frame] stop when it is spent and
## the rest waits for the next frame. 0 applies every delta at once.
var budget_usec: int = 0

# Per element (index of BimVoiceBuildingModel.element_list, as bound by _bind):
# HIDDEN | DELETED | COLORED | MOVED as shown by the node now,
var _flags: PackedByteArray = PackedByteArray()
# the element group (engine_element_group) whose state it shows, or null when pristine,
var _group_at: Array = []
# the colour material and the motion ([Basis, Vector3]) applied now, or null,
var _material_now: Array = []
var _motion_now: Array = []
# and what transforms need: node, parent inverse, parent * loaded transform, centre,
var _nodes: Array[Node3D] = []
var _parent_inverse: Array[Transform3D] = []
var _parent_base: Array[Transform3D] = []
var _centres: PackedVector3Array = PackedVector3Array()
# and its surfaces: entries _surface_start[k] to _surface_start[k + 1] of the flat surface lists
# (mesh, surface index, surface override material as loaded) of every element.
var _surface_start: PackedInt32Array = PackedInt32Array()
var _surface_mesh: Array[MeshInstance3D] = []
var _surface_index: PackedInt32Array = PackedInt32Array()
var _surface_base: Array[Material] = []
# Opacity of each surface as loaded (1 for opaque): a colour keeps it (glass stays see-through).
var _surface_alpha: PackedFloat32Array = PackedFloat32Array()
var _bound_ids: PackedStringArray = PackedStringArray()
# GlobalId -> element group, for ids the loaded building does not have (kept for a reload).
var _unknown: Dictionary = {}
# Transform (by content) -> [Basis, Vector3] in Godot's frame.
var _motion_for: Dictionary = {}
var _highlighted: Dictionary = {}
# Prop id -> [prop Dictionary (engine_prop), Node3D].
var _props: Dictionary = {}
var _selected: PackedStringArray = PackedStringArray()
var _pose: Dictionary = {}
# The review view (engine_state.sections, sun, view_scale) and the remembered views of the last
# full state (deltas do not carry views: they stay with the agent).
var _sections: Array = []
var _sun: Variant = null
var _view_scale: Variant = null
var _viewpoints: Dictionary = {}
# Deltas not yet checked and applied in full (oldest first).
var _pending: Array[PendingBatch] = []
# The process frame whose budget is being spent, and when that frame's work began.
var _budget_frame: int = -1
var _frame_started: int = 0
# The building's GlobalId -> index as bound, and a count of bindings, for prepare_delta on other
# threads (read under the lock).
var _bound_lock: Mutex = Mutex.new()
# The building's batches (null when it draws one node per element), as bound.
var _batches: BimVoiceBuildingBatches = null
# 1 per bound element index that is highlighted (selected): the batches cannot draw the outline.
var _lit: PackedByteArray = PackedByteArray()
var _bound_index: Dictionary = {}
var _generation: int = 0


## A delta on its way to the nodes. Checking walks the groups' ids (cursor [member check_group],
## [member check_at]) and records the element index of each known id in [member at] (group g
## ends at [member ends][g]); applying walks [member at] up to [member applied].
class PendingBatch:
	extends RefCounted
	var delta: Dictionary
	var groups: Array
	var at: PackedInt32Array = PackedInt32Array()
	var ends: PackedInt32Array = PackedInt32Array()
	var report: BimVoiceApplyReport = BimVoiceApplyReport.new()
	var check_group: int = 0
	var check_at: int = 0
	var apply_group: int = 0
	var applied: int = 0
	## For a batch made by [method BimVoiceChangeApplier.prepare_delta]: why the delta is malformed
	## ("" when fine), and the binding its ids were looked up in.
	var error: String = ""
	var generation: int = -1
	## Whether the batch was accepted into the mirror (after its ids were all checked).
	var accepted: bool = false

	func _init(d: Dictionary) -> void:
		delta = d
		groups = d.get("elements", [])

	## Forgets which elements the ids were found to be (to look them up again).
	func uncheck() -> void:
		at = PackedInt32Array()
		ends = PackedInt32Array()
		report.unknown = PackedStringArray()
		check_group = 0
		check_at = 0

	## Whether every id was checked (the batch is accepted).
	func is_checked() -> bool:
		return check_group >= groups.size()


## An applier for [param target]; props go under [param prop_parent] (made if null).
func _init(
	target: BimVoiceBuildingModel, prop_parent: Node3D = null, library: BimVoicePropLibrary = null
) -> void:
	building = target
	props = library if library != null else BimVoicePropLibrary.new()
	if prop_parent == null:
		prop_parent = Node3D.new()
		prop_parent.name = PROPS_NODE_NAME
		building.add_child(prop_parent)
	props_root = prop_parent
	building.loaded.connect(_on_building_loaded)
	building.elements_added.connect(_on_elements_added)
	_bind()


## Applies an `engine_delta`. Malformed input is refused and changes nothing. The mirror keeps
## the element groups of the delta: do not change them afterwards.
## With [member budget_usec] set, checking and applying stop when this frame's budget is spent
## and go on in [method drain_frame]: the returned report is complete (or refused) once
## [signal batch_applied] is emitted for it. Without a budget it is complete on return.
func apply_delta(delta: Variant) -> BimVoiceApplyReport:
	var problem: String = BimVoiceChangeCheck.delta_problem(delta)
	if not problem.is_empty():
		return BimVoiceApplyReport.refused(problem)
	var batch: PendingBatch = PendingBatch.new(delta)
	_pending.append(batch)
	drain_frame()
	return batch.report


## Starts this frame's budget now: the time until [method drain_frame] counts against it (the
## runtime calls it before polling the link, so reading and applying share the budget).
func begin_frame() -> void:
	_budget_frame = Engine.get_process_frames()
	_frame_started = Time.get_ticks_usec()


## Microseconds left of this frame's budget.
func frame_budget_left() -> int:
	if _budget_frame != Engine.get_process_frames():
		return budget_usec
	return budget_usec - (Time.get_ticks_usec() - _frame_started)


## Checks a delta and looks up its elements without touching the engine or the mirror: safe to
## call on a worker thread (the link does, as it parses a large delta). Give the result to
## [method apply_prepared] on the main thread.
func prepare_delta(delta: Variant) -> PendingBatch:
	var problem: String = BimVoiceChangeCheck.delta_problem(delta)
	if not problem.is_empty():
		var refused: PendingBatch = PendingBatch.new({})
		refused.error = problem
		return refused
	var b: PendingBatch = PendingBatch.new(delta)
	_bound_lock.lock()
	var index: Dictionary = _bound_index
	b.generation = _generation
	_bound_lock.unlock()
	b.error = _check_some(b, index, 0, 0)
	return b


## Applies a delta made ready by [method prepare_delta], as [method apply_delta] would (its ids
## are looked up again if the building was reloaded since).
func apply_prepared(b: PendingBatch) -> BimVoiceApplyReport:
	if not b.error.is_empty():
		return BimVoiceApplyReport.refused(b.error)
	if b.generation != _generation:
		b.uncheck()
	_pending.append(b)
	drain_frame()
	return b.report


## Checks and applies queued deltas with what is left of this frame's [member budget_usec] (all
## of them without a budget). Returns whether nothing is left.
func drain_frame() -> bool:
	if budget_usec <= 0:
		return drain()
	if _budget_frame != Engine.get_process_frames():
		begin_frame()
	var left: int = frame_budget_left()
	if left <= 0 or _pending.is_empty():
		return _pending.is_empty()
	return drain(left)


## Checks and applies queued deltas for about [param limit_usec] microseconds (0: until done),
## whatever this frame's budget. Returns whether nothing is left.
func drain(limit_usec: int = 0) -> bool:
	var deadline: int = Time.get_ticks_usec() + limit_usec
	while not _pending.is_empty():
		var b: PendingBatch = _pending[0]
		if not b.accepted:
			var problem: String = ""
			if not b.is_checked():
				problem = _check_some(b, building.index, limit_usec, deadline)
			if not problem.is_empty():
				_pending.pop_front()
				b.report.ok = false
				b.report.error = problem
				batch_applied.emit(b.report)
				continue
			if not b.is_checked():
				return false
			_accept(b)
		if not _apply_some(b, limit_usec, deadline):
			return false
		_pending.pop_front()
		_apply_rest(b.delta, b.report)
		batch_applied.emit(b.report)
		if limit_usec > 0 and Time.get_ticks_usec() >= deadline:
			break
	return _pending.is_empty()


# Checks the ids of a batch until done or out of time, finding each one's element; returns why
# the batch is malformed, or "".
func _check_some(b: PendingBatch, index: Dictionary, limit_usec: int, deadline: int) -> String:
	var at: PackedInt32Array = b.at
	var unknown: PackedStringArray = b.report.unknown
	var n: int = b.groups.size()
	var g: int = b.check_group
	var i: int = b.check_at
	var done: int = 0
	while g < n:
		var ids: Array = b.groups[g]["ids"]
		var count: int = ids.size()
		while i < count:
			var gid: Variant = ids[i]
			if typeof(gid) != TYPE_STRING:
				return "delta.elements[%d].ids[%d] must be a GlobalId" % [g, i]
			var k: int = index.get(gid, -1)
			if k >= 0:
				at.append(k)
			else:
				unknown.append(gid)
			i += 1
			done += 1
			if limit_usec > 0 and done & 31 == 0 and Time.get_ticks_usec() >= deadline:
				break
		if i < count:
			break
		b.ends.append(at.size())
		g += 1
		i = 0
	b.check_group = g
	b.check_at = i
	return ""


# A fully checked batch joins the mirror: ids the building does not have are kept aside.
func _accept(b: PendingBatch) -> void:
	b.accepted = true
	var elements: int = 0
	for group: Dictionary in b.groups:
		elements += (group["ids"] as Array).size()
	b.report.elements = elements
	if b.report.unknown.is_empty():
		return
	var group_of: Dictionary = {}
	for group: Dictionary in b.groups:
		for gid: String in group["ids"]:
			group_of[gid] = group
	for gid: String in b.report.unknown:
		var group: Dictionary = group_of[gid]
		if _is_pristine(group):
			_unknown.erase(gid)
		else:
			_unknown[gid] = group


# Applies checked element changes of a batch until done or out of time; returns whether done.
# One loop per group with the group's material and motion made beforehand; the per-element work
# is inline (a call per element would cost more than the setters).
func _apply_some(b: PendingBatch, limit_usec: int, deadline: int) -> bool:
	var report: BimVoiceApplyReport = b.report
	var at: PackedInt32Array = b.at  # packed arrays are shared, not copied
	var flags: PackedByteArray = _flags
	var nodes: Array[Node3D] = _nodes
	var elements: Array[BimVoiceBuildingElement] = building.element_list
	var group_at: Array = _group_at
	var material_now: Array = _material_now
	var motion_now: Array = _motion_now
	var surface_start: PackedInt32Array = _surface_start
	var surface_mesh: Array[MeshInstance3D] = _surface_mesh
	var surface_index: PackedInt32Array = _surface_index
	var surface_base: Array[Material] = _surface_base
	var surface_alpha: PackedFloat32Array = _surface_alpha
	var batches: BimVoiceBuildingBatches = _batches
	var state: PackedByteArray = batches.state if batches != null else PackedByteArray()
	var lifted: PackedByteArray = batches.lifted if batches != null else PackedByteArray()
	var lit: PackedByteArray = _lit
	var n: int = b.groups.size()
	var g: int = b.apply_group
	var i: int = b.applied
	while g < n:
		var group: Dictionary = b.groups[g]
		var bits: int = _group_bits(group)
		var show: bool = bits & (HIDDEN | DELETED) == 0
		var looks: int = bits & (COLORED | MOVED)
		var material: Material = _material_of(group["color"])
		var motion: Variant = _motion_of(group["transform"])
		var basis: Basis = motion[0] if motion != null else Basis.IDENTITY
		var shift: Vector3 = motion[1] if motion != null else Vector3.ZERO
		var stored: Variant = group if bits != 0 else null
		# What the batches draw of every element of the group (see BimVoiceBuildingBatches).
		var lift_all: bool = false
		var paint: Color = Color.BLACK
		var number: int = 0
		var batch_mode: int = BimVoiceBuildingBatches.shown_mode(material != null, motion != null)
		if batches != null:
			if material != null:
				paint = (material as StandardMaterial3D).albedo_color
				lift_all = paint.a < 1.0
			if motion != null:
				number = batches.motion_number(motion)
				lift_all = lift_all or number < 0
				number = maxi(number, 0)
		var flipped: int = 0
		var painted: int = 0
		var unpainted: int = 0
		var moved: int = 0
		var end: int = b.ends[g]
		var start: int = i
		while i < end:
			var k: int = at[i]
			var current: int = flags[k]
			var flip: int = (bits ^ current) & (HIDDEN | DELETED)
			if flip == HIDDEN:
				# Only "hidden" changes (the common batch): the fast path.
				flags[k] = current ^ HIDDEN
				if bits & DELETED == 0:
					nodes[k].visible = show
					if batches != null and lifted[k] == 0:
						state[k * BimVoiceBuildingBatches.STRIDE + 3] = (
							BimVoiceBuildingBatches.shown_mode(
								current & COLORED != 0, current & MOVED != 0
							)
							if show
							else BimVoiceBuildingBatches.MODE_HIDDEN
						)
				flipped += 1
			elif flip != 0:
				_set_visibility(k, bits, current, report)
			if (looks | current) & (COLORED | MOVED) != 0:
				if material != material_now[k]:
					if material == null:
						for s: int in range(surface_start[k], surface_start[k + 1]):
							surface_mesh[s].set_surface_override_material(
								surface_index[s], surface_base[s]
							)
						unpainted += 1
					else:
						for s: int in range(surface_start[k], surface_start[k + 1]):
							surface_mesh[s].set_surface_override_material(
								surface_index[s],
								(
									material
									if surface_alpha[s] >= 1.0
									else materials.with_opacity(material, surface_alpha[s])
								)
							)
						painted += 1
					material_now[k] = material
				var now: Variant = motion_now[k]
				if not is_same(now, motion) and now != motion:
					if motion == null:
						nodes[k].transform = elements[k].base_transform
					else:
						var c: Vector3 = _centres[k]
						nodes[k].transform = (
							_parent_inverse[k]
							* Transform3D(basis, c + shift - basis * c)
							* _parent_base[k]
						)
					motion_now[k] = motion
					moved += 1
				flags[k] = (flags[k] & (HIDDEN | DELETED)) | looks
				if batches != null:
					var lift: bool = lift_all or lit[k] == 1
					if lift != (lifted[k] == 1):
						batches.set_lifted(k, lift)
					if not lift:
						var sa: int = k * BimVoiceBuildingBatches.STRIDE
						state[sa] = paint.r8
						state[sa + 1] = paint.g8
						state[sa + 2] = paint.b8
						state[sa + 4] = number & 255
						state[sa + 5] = number >> 8
						state[sa + 3] = (
							batch_mode
							if flags[k] & (HIDDEN | DELETED) == 0
							else BimVoiceBuildingBatches.MODE_HIDDEN
						)
			group_at[k] = stored
			i += 1
			if limit_usec > 0 and (i - start) & 7 == 0 and Time.get_ticks_usec() >= deadline:
				break
		if batches != null:
			batches.mark_dirty()
		if bits & HIDDEN != 0:
			report.hidden += flipped
		else:
			report.shown += flipped
		report.colored += painted
		report.uncolored += unpainted
		report.moved += moved
		if i < end:
			break
		g += 1
	b.apply_group = g
	b.applied = i
	return g >= n


## Whether element changes wait for [method drain].
func has_pending() -> bool:
	return not _pending.is_empty()


## Applies a full `engine_state`: afterwards the engine shows exactly that state. Malformed
## input is refused and changes nothing. Queued deltas are finished first.
func apply_state(full: Variant) -> BimVoiceApplyReport:
	var problem: String = BimVoiceChangeCheck.state_problem(full)
	if not problem.is_empty():
		return BimVoiceApplyReport.refused(problem)
	drain()
	var s: Dictionary = full
	var hidden: Dictionary = _as_set(s["hidden"])
	var deleted: Dictionary = _as_set(s["deleted"])
	var colors: Dictionary = s["colors"]
	var transforms: Dictionary = s["transforms"]
	var touched: Dictionary = _overridden()
	touched.merge(hidden)
	touched.merge(deleted)
	touched.merge(colors)
	touched.merge(transforms)
	var wanted: Dictionary = {}
	for gid: String in touched:
		wanted[gid] = [hidden.has(gid), deleted.has(gid), colors.get(gid), transforms.get(gid)]
	var report: BimVoiceApplyReport = _apply_now(_grouped(wanted))
	var by_id: Dictionary = {}
	for prop: Dictionary in s["props"]:
		by_id[prop["id"]] = prop
	var removed: Array = []
	for pid: String in _props:
		if not by_id.has(pid) or not _same_prop(_props[pid][0], by_id[pid]):
			removed.append(pid)
	var added: Array = []
	for pid: String in by_id:
		if not _props.has(pid) or removed.has(pid):
			added.append(by_id[pid])
	_viewpoints = (s["viewpoints"] as Dictionary).duplicate(true)
	_apply_rest(
		{
			"props_removed": removed,
			"props_added": added,
			"selected": s["selected"],
			"pose": s["pose"],
			"sections": s["sections"],
			"sun": s["sun"],
			"view_scale": s["view_scale"],
		},
		report
	)
	return report


## Applies the mirrored state again (after the building was reloaded this happens by itself).
func reapply() -> BimVoiceApplyReport:
	drain()
	return _reapply_from(_overridden())


## The mirrored scene state (an `engine_state`, IFC frame): what was applied, and the deltas
## that were accepted but wait for [method drain].
func current_state() -> Dictionary:
	var of: Dictionary = _overridden()
	for b: PendingBatch in _pending:
		if b.is_checked():
			for group: Dictionary in b.groups:
				for gid: String in group["ids"]:
					of[gid] = group
	var hidden: Array = []
	var deleted: Array = []
	var colors: Dictionary = {}
	var transforms: Dictionary = {}
	var ids: Array = of.keys()
	ids.sort()
	for gid: String in ids:
		var o: Dictionary = of[gid]
		if o["hidden"]:
			hidden.append(gid)
		if o["deleted"]:
			deleted.append(gid)
		if o["color"] != null:
			colors[gid] = o["color"]
		if o["transform"] != null:
			transforms[gid] = o["transform"]
	var prop_list: Array = []
	for pid: String in _props:
		prop_list.append(_props[pid][0])
	return {
		"hidden": hidden,
		"colors": colors,
		"transforms": transforms,
		"deleted": deleted,
		"props": prop_list,
		"pose": _pose,
		"selected": Array(_selected),
		"sections": _sections.duplicate(true),
		"viewpoints": _viewpoints.duplicate(true),
		"sun": _sun,
		"view_scale": _view_scale,
	}


## The section in the mirrored state: clipping planes {location, direction} in the IFC frame
## (what lies on the side `direction` points to is cut away); [] when nothing is cut.
func sections() -> Array:
	return _sections


## The sun study in the mirrored state (`engine_sun`), or null for the default light.
func sun_state() -> Variant:
	return _sun


## The scale-model view in the mirrored state (`engine_view_scale`), or null at full size.
func view_scale() -> Variant:
	return _view_scale


## The user's pose in the mirrored state (IFC frame; {} before the agent sent one).
func pose() -> Dictionary:
	return _pose


## Ids of the elements selected now.
func selected_ids() -> PackedStringArray:
	return _selected


## Whether an element is hidden or deleted now.
func is_hidden(gid: String) -> bool:
	var k: int = building.index.get(gid, -1)
	return k >= 0 and _flags[k] & (HIDDEN | DELETED) != 0


## The node of a placed prop, or null.
func prop_node(prop_id: String) -> Node3D:
	var entry: Array = _props.get(prop_id, [])
	return entry[1] if not entry.is_empty() else null


## Number of props placed.
func prop_count() -> int:
	return _props.size()


# The flag bits of a (checked) element group.
static func _group_bits(group: Dictionary) -> int:
	var bits: int = (HIDDEN if group["hidden"] else 0) | (DELETED if group["deleted"] else 0)
	if group["color"] != null:
		bits |= COLORED
	if group["transform"] != null:
		bits |= MOVED
	return bits


static func _as_set(ids: Array) -> Dictionary:
	var out: Dictionary = {}
	for gid: String in ids:
		out[gid] = true
	return out


static func _same_prop(a: Dictionary, b: Dictionary) -> bool:
	return a["asset"] == b["asset"] and a["position"] == b["position"] and a["yaw"] == b["yaw"]


static func _is_pristine(change: Dictionary) -> bool:
	return not (
		change["hidden"]
		or change["deleted"]
		or change["color"] != null
		or change["transform"] != null
	)


# [Godot basis, Godot translation] of an IFC rotation (degrees, X then Y then Z) and translation.
static func _motion(rotation_deg: Vector3, translation_ifc: Vector3) -> Array:
	var basis: Basis = BimVoiceFrames.ifc_basis_to_godot(
		(
			Basis(Vector3(0.0, 0.0, 1.0), deg_to_rad(rotation_deg.z))
			* Basis(Vector3(0.0, 1.0, 0.0), deg_to_rad(rotation_deg.y))
			* Basis(Vector3(1.0, 0.0, 0.0), deg_to_rad(rotation_deg.x))
		)
	)
	return [basis, BimVoiceFrames.ifc_to_godot(translation_ifc)]


# Ids -> [hidden, deleted, color, transform] as element groups, one per distinct state.
static func _grouped(wanted: Dictionary) -> Array:
	var by_state: Dictionary = {}
	var ids: Array = wanted.keys()
	ids.sort()
	for gid: String in ids:
		var state: Array = wanted[gid]
		var group: Dictionary = by_state.get(state, {})
		if group.is_empty():
			group = {
				"ids": [],
				"hidden": state[0],
				"deleted": state[1],
				"color": state[2],
				"transform": state[3]
			}
			by_state[state] = group
		(group["ids"] as Array).append(gid)
	return by_state.values()


# Ids -> element group, as ids -> [hidden, deleted, color, transform].
static func _states_of(groups_by_id: Dictionary) -> Dictionary:
	var out: Dictionary = {}
	for gid: String in groups_by_id:
		var o: Dictionary = groups_by_id[gid]
		out[gid] = [o["hidden"], o["deleted"], o["color"], o["transform"]]
	return out


# Every id with an override (loaded or not) -> its element group.
func _overridden() -> Dictionary:
	var out: Dictionary = _unknown.duplicate()
	for k: int in _bound_ids.size():
		if _group_at[k] != null:
			out[_bound_ids[k]] = _group_at[k]
	return out


# Checks and applies element groups made here (well-formed) at once.
func _apply_now(groups: Array) -> BimVoiceApplyReport:
	var b: PendingBatch = PendingBatch.new(
		{"elements": groups, "props_added": [], "props_removed": []}
	)
	_check_some(b, building.index, 0, 0)
	_accept(b)
	_apply_some(b, 0, 0)
	return b.report


# Opacity of a surface as loaded: its material's albedo alpha when it blends, else 1.
static func _opacity(mesh: MeshInstance3D, surface: int) -> float:
	var material: BaseMaterial3D = mesh.get_surface_override_material(surface) as BaseMaterial3D
	if material == null and mesh.mesh != null and surface < mesh.mesh.get_surface_count():
		material = mesh.mesh.surface_get_material(surface) as BaseMaterial3D
	if material == null or material.transparency == BaseMaterial3D.TRANSPARENCY_DISABLED:
		return 1.0
	return material.albedo_color.a


# The override material of a colour (null: none). The cache hands out one material per colour.
func _material_of(color: Variant) -> Material:
	if color == null:
		return null
	var rgba: Array = color
	return materials.color_material(Color(rgba[0], rgba[1], rgba[2], rgba[3]))


# The motion of a transform (null: none), converted once per distinct transform.
func _motion_of(xform: Variant) -> Variant:
	if xform == null:
		return null
	var motion: Array = _motion_for.get(xform, [])
	if motion.is_empty():
		var t: Dictionary = xform
		var tr: Array = t["translation"]
		var rot: Array = t["rotation_deg"]
		motion = _motion(Vector3(rot[0], rot[1], rot[2]), Vector3(tr[0], tr[1], tr[2]))
		if _motion_for.size() >= KNOWN_MOTIONS_MAX:
			_motion_for.clear()
		_motion_for[xform] = motion
	return motion


func _bind() -> void:
	_flags = PackedByteArray()
	_group_at = []
	_material_now = []
	_motion_now = []
	_highlighted.clear()
	_nodes.clear()
	_parent_inverse.clear()
	_parent_base.clear()
	_centres = PackedVector3Array()
	_bound_ids = PackedStringArray()
	_surface_start = PackedInt32Array([0])
	_surface_mesh.clear()
	_surface_index = PackedInt32Array()
	_surface_base.clear()
	_surface_alpha = PackedFloat32Array()
	_lit = PackedByteArray()
	_bind_more(0)


# Binds the elements from index [param first] on (those bound before keep their state), and the
# building's index as it is now.
func _bind_more(first: int) -> void:
	var count: int = building.element_list.size()
	_flags.resize(count)
	_group_at.resize(count)
	_material_now.resize(count)
	_motion_now.resize(count)
	_lit.resize(count)
	_batches = building.batches
	_bound_lock.lock()
	_bound_index = building.index
	_generation += 1
	_bound_lock.unlock()
	for k: int in range(first, count):
		var e: BimVoiceBuildingElement = building.element_list[k]
		_surface_mesh.append_array(e.surface_meshes)
		_surface_index.append_array(e.surface_index)
		_surface_base.append_array(e.base_surface_materials)
		for i: int in e.surface_meshes.size():
			_surface_alpha.append(_opacity(e.surface_meshes[i], e.surface_index[i]))
		_surface_start.append(_surface_mesh.size())
		_nodes.append(e.node)
		_parent_inverse.append(e.parent_global.affine_inverse())
		_parent_base.append(e.parent_global * e.base_transform)
		_centres.append(e.centre)
		_bound_ids.append(e.id)


func _on_building_loaded(_count: int) -> void:
	# Queued element work points at the old nodes: it joins the mirror, which is then put on the
	# new nodes. Props, selection and pose of queued deltas still count.
	var saved: Dictionary = _overridden()
	var queued: Array[PendingBatch] = _pending.duplicate()
	_pending.clear()
	for b: PendingBatch in queued:
		var problem: String = _check_some(b, building.index, 0, 0) if not b.is_checked() else ""
		if not problem.is_empty():
			b.report.ok = false
			b.report.error = problem
			batch_applied.emit(b.report)
			continue
		for group: Dictionary in b.groups:
			for gid: String in group["ids"]:
				saved[gid] = group
		_apply_rest(b.delta, b.report)
		batch_applied.emit(b.report)
	_reapply_from(saved)


# A part was added to the building (after the bound elements): bind its elements and show on them
# what the mirror holds for their ids (changes made before they came); queued deltas look their ids
# up again.
func _on_elements_added(ids: PackedStringArray) -> void:
	_bind_more(_bound_ids.size())
	for b: PendingBatch in _pending:
		if not b.accepted:
			b.uncheck()
	var saved: Dictionary = {}
	for gid: String in ids:
		if _unknown.has(gid):
			saved[gid] = _unknown[gid]
			_unknown.erase(gid)
	_apply_now(_grouped(_states_of(saved)))
	for gid: String in _selected:
		if ids.has(gid):
			_highlight(gid, true)


# Binds the loaded building afresh and shows [param saved] (id -> element group) on it.
func _reapply_from(saved: Dictionary) -> BimVoiceApplyReport:
	_unknown.clear()
	_bind()
	var report: BimVoiceApplyReport = _apply_now(_grouped(_states_of(saved)))
	var selected: PackedStringArray = _selected
	_selected = PackedStringArray()
	_set_selection(selected, report)
	return report


func _set_visibility(k: int, bits: int, current: int, report: BimVoiceApplyReport) -> void:
	var deleted: bool = bits & DELETED != 0
	if (bits ^ current) & DELETED != 0:
		if deleted:
			report.deleted += 1
			_nodes[k].set_meta(&"deleted", true)
		else:
			report.restored += 1
			_nodes[k].remove_meta(&"deleted")
	elif bits & HIDDEN != 0:
		report.hidden += 1
	else:
		report.shown += 1
	_flags[k] = (current & ~(HIDDEN | DELETED)) | (bits & (HIDDEN | DELETED))
	var visible: bool = bits & (HIDDEN | DELETED) == 0
	if _nodes[k].visible != visible:
		_nodes[k].visible = visible
	if _batches != null:
		_sync_batch(k)


# Shows element k's state in the batches: hidden, painted (an opaque colour), moved, or lifted out
# to its own meshes (a see-through colour, selected).
func _sync_batch(k: int) -> void:
	var material: StandardMaterial3D = _material_now[k] as StandardMaterial3D
	var see_through: bool = material != null and material.albedo_color.a < 1.0
	_batches.set_element(
		k,
		_flags[k] & (HIDDEN | DELETED) == 0,
		see_through or _lit[k] == 1,
		material.albedo_color if material != null and not see_through else null,
		_motion_now[k]
	)


# Props, selection and pose of a delta (or of a state turned into one).
func _apply_rest(d: Dictionary, report: BimVoiceApplyReport) -> void:
	for pid: String in d["props_removed"]:
		_remove_prop(pid, report)
	for prop: Dictionary in d["props_added"]:
		_add_prop(prop, report)
	if d.has("selected"):
		_set_selection(PackedStringArray(d["selected"]), report)
	if d.has("pose"):
		_set_pose(d["pose"], report)
	var review: bool = false
	if d.has("sections") and d["sections"] != _sections:
		_sections = (d["sections"] as Array).duplicate(true)
		review = true
	if d.has("sun") and d["sun"] != _sun:
		_sun = d["sun"].duplicate(true) if d["sun"] is Dictionary else null
		review = true
	if d.has("view_scale") and d["view_scale"] != _view_scale:
		_view_scale = d["view_scale"].duplicate(true) if d["view_scale"] is Dictionary else null
		review = true
	if review:
		report.review_changed = true
		review_changed.emit(_sections, _sun, _view_scale)


func _set_selection(ids: PackedStringArray, report: BimVoiceApplyReport) -> void:
	if ids == _selected:
		return
	var keep: Dictionary = _as_set(Array(ids))
	for gid: String in _selected:
		if not keep.has(gid):
			_highlight(gid, false)
	for gid: String in ids:
		_highlight(gid, true)
	_selected = ids
	report.selection_changed = true
	selection_changed.emit(ids)


func _highlight(gid: String, on: bool) -> void:
	var e: BimVoiceBuildingElement = building.elements.get(gid)
	if e == null or _highlighted.has(gid) == on:
		return
	if on:
		_highlighted[gid] = true
	else:
		_highlighted.erase(gid)
	for i: int in e.meshes.size():
		e.meshes[i].material_overlay = materials.highlight_material() if on else e.base_overlays[i]
	var k: int = building.index.get(gid, -1)
	if k >= 0 and k < _lit.size():
		_lit[k] = 1 if on else 0
		if _batches != null:
			_sync_batch(k)


func _set_pose(pose: Dictionary, report: BimVoiceApplyReport) -> void:
	if pose.is_empty() or pose == _pose:
		return
	_pose = pose.duplicate(true)
	report.pose_changed = true
	pose_changed.emit(_pose)


func _remove_prop(pid: String, report: BimVoiceApplyReport) -> void:
	var entry: Array = _props.get(pid, [])
	if entry.is_empty():
		return
	_props.erase(pid)
	var node: Node3D = entry[1]
	props_root.remove_child(node)
	node.queue_free()
	report.props_removed += 1


func _add_prop(prop: Dictionary, report: BimVoiceApplyReport) -> void:
	var pid: String = prop["id"]
	if _props.has(pid):
		_remove_prop(pid, report)
	var asset: String = prop["asset"]
	var node: Node3D = props.instantiate(asset)
	node.name = pid.validate_node_name()
	node.set_meta(&"prop_id", pid)
	var p: Array = prop["position"]
	node.position = BimVoiceFrames.ifc_to_godot(Vector3(p[0], p[1], p[2]))
	# Yaw turns the prop as modelled counter-clockwise about the vertical (as pyagent/ifcsave.py).
	var yaw: float = deg_to_rad(float(prop["yaw"]))
	node.basis = BimVoiceFrames.ifc_basis_to_godot(Basis(Vector3(0.0, 0.0, 1.0), yaw))
	props_root.add_child(node)
	_props[pid] = [prop.duplicate(true), node]
	report.props_added += 1
	if node.get_meta(&"fallback", false) and not report.fallback_assets.has(asset):
		report.fallback_assets.append(asset)
