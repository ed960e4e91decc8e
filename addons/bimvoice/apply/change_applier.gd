class_name ChangeApplier
extends RefCounted
## Mirrors the agent's scene state in the engine: applies `engine_state` (full resync) and
## `engine_delta` (see `$defs` in pyagent/actions/action.schema.json) to a [BuildingModel].
##
## Every override can be undone exactly: visibility, colour/transparency (a material override;
## the loaded overrides are put back), transforms (translation in IFC metres, rotation in degrees
## about the element's own centre, converted with [Frames]), deletion (hidden and marked), props
## (glb furniture or labelled boxes), the selection highlight (a material overlay) and the pose
## (handed to the rig through [signal pose_changed]).
##
## Input is checked in full first: a malformed state or delta changes nothing and comes back as
## a refused [ApplyReport]. Only what differs from the current state is touched. Hiding and
## showing (the common large batches) run on per-element flag arrays, not on the records.
## When the building is (re)loaded the mirrored state is applied to the new nodes.

## The user's pose in the state changed (IFC frame: position, yaw, pitch).
signal pose_changed(pose: Dictionary)
## The set of selected elements changed.
signal selection_changed(ids: PackedStringArray)
## A delta was applied in full (at once, or over several [method drain] calls).
signal batch_applied(report: ApplyReport)

## Name of the node that holds the props (a child of the building).
const PROPS_NODE_NAME: String = "Props"
## Flag bits per element.
const HIDDEN: int = 1
const DELETED: int = 2
const COLORED: int = 4
const MOVED: int = 8
## Distinct element changes remembered as already checked.
const KNOWN_CHANGES_MAX: int = 256

## The building the changes apply to.
var building: BuildingModel
## Where props go.
var props_root: Node3D
## Prop assets.
var props: PropLibrary
## Shared override materials.
var materials: MaterialCache = MaterialCache.new()
## Microseconds of element work a delta may take when applied; the rest is queued for
## [method drain] (the runtime drains once per frame). 0 applies every delta at once.
var budget_usec: int = 0

# GlobalId -> engine_element_change {hidden, deleted, color, transform} for every element with
# an override (whether or not the loaded building has it). Entries are never mutated; deltas
# merge in whole, so entries back to pristine may linger until read (they are skipped).
var _overrides: Dictionary = {}
# Per element (index of BuildingModel.element_list): HIDDEN | DELETED | COLORED | MOVED.
var _flags: PackedByteArray = PackedByteArray()
var _nodes: Array[Node3D] = []
# Per element: the colour (rgba Array) and transform (Dictionary) applied now, or null.
var _color_now: Array = []
var _xform_now: Array = []
# Colour (rgba Array, by content) -> material; transform (by content) -> [Basis, Vector3].
var _material_for: Dictionary = {}
var _motion_for: Dictionary = {}
var _highlighted: Dictionary = {}
# Prop id -> [prop Dictionary (engine_prop), Node3D].
var _props: Dictionary = {}
var _selected: PackedStringArray = PackedStringArray()
var _pose: Dictionary = {}
# Element change (by content) -> its flag bits, for changes already checked.
var _known_changes: Dictionary = {}
# Deltas not yet checked and applied in full (oldest first).
var _pending: Array[PendingBatch] = []


## A delta on its way to the nodes: checked up to [member checked], applied up to [member applied].
class PendingBatch:
	extends RefCounted
	var delta: Dictionary
	var keys: Array
	var values: Array
	var wanted: PackedByteArray = PackedByteArray()
	var at: PackedInt32Array = PackedInt32Array()
	var report: ApplyReport = ApplyReport.new()
	var checked: int = 0
	var applied: int = 0

	func _init(d: Dictionary) -> void:
		delta = d
		var changes: Dictionary = d["elements"]
		keys = changes.keys()
		values = changes.values()
		wanted.resize(keys.size())
		at.resize(keys.size())
		report.elements = keys.size()


## An applier for [param target]; props go under [param prop_parent] (made if null).
func _init(target: BuildingModel, prop_parent: Node3D = null, library: PropLibrary = null) -> void:
	building = target
	props = library if library != null else PropLibrary.new()
	if prop_parent == null:
		prop_parent = Node3D.new()
		prop_parent.name = PROPS_NODE_NAME
		building.add_child(prop_parent)
	props_root = prop_parent
	building.loaded.connect(_on_building_loaded)
	_bind()


## Applies an `engine_delta`. Malformed input is refused and changes nothing. The mirror keeps
## the element change dictionaries of the delta: do not change them afterwards.
## With [member budget_usec] set, checking and applying stop when the budget is spent and go on
## in [method drain]: the returned report is complete (or refused) once [signal batch_applied]
## is emitted for it. Without a budget it is complete on return.
func apply_delta(delta: Variant) -> ApplyReport:
	var problem: String = check_delta(delta, false)
	if not problem.is_empty():
		return ApplyReport.refused(problem)
	var batch: PendingBatch = PendingBatch.new(delta)
	_pending.append(batch)
	drain(budget_usec)
	return batch.report


## Checks and applies queued deltas for about [param limit_usec] microseconds (0: until done).
## Returns whether nothing is left.
func drain(limit_usec: int = 0) -> bool:
	var deadline: int = Time.get_ticks_usec() + limit_usec
	while not _pending.is_empty():
		var b: PendingBatch = _pending[0]
		if b.checked < b.keys.size():
			var problem: String = _check_some(b, limit_usec, deadline)
			if not problem.is_empty():
				_pending.pop_front()
				b.report.ok = false
				b.report.error = problem
				batch_applied.emit(b.report)
				continue
			if b.checked < b.keys.size():
				return false
			_overrides.merge(b.delta["elements"], true)
		if not _apply_some(b, limit_usec, deadline):
			return false
		_pending.pop_front()
		_apply_rest(b.delta, b.report)
		batch_applied.emit(b.report)
		if limit_usec > 0 and Time.get_ticks_usec() >= deadline:
			break
	return _pending.is_empty()


# Checks element changes of a batch until done or out of time; returns why the batch is
# malformed, or "". Batches repeat the same few change objects, so each distinct one is checked
# once and then recognised by its content.
func _check_some(b: PendingBatch, limit_usec: int, deadline: int) -> String:
	var index: Dictionary = building.index
	var known: Dictionary = _known_changes
	var keys: Array = b.keys
	var values: Array = b.values
	var n: int = keys.size()
	var i: int = b.checked
	while i < n:
		var change: Variant = values[i]
		var bits: int = known.get(change, -1) if typeof(change) == TYPE_DICTIONARY else -1
		if bits < 0:
			bits = _change_bits(keys[i], change)
			if bits < 0:
				return _check_change(keys[i], change)
			if known.size() >= KNOWN_CHANGES_MAX:
				known.clear()
			known[change] = bits
		if typeof(keys[i]) != TYPE_STRING:
			return _check_change(keys[i], change)
		b.wanted[i] = bits
		b.at[i] = index.get(keys[i], -1)
		i += 1
		if limit_usec > 0 and i & 63 == 0 and Time.get_ticks_usec() >= deadline:
			break
	b.checked = i
	return ""


# Applies checked element changes of a batch until done or out of time; returns whether done.
func _apply_some(b: PendingBatch, limit_usec: int, deadline: int) -> bool:
	var report: ApplyReport = b.report
	var n: int = b.at.size()
	var i: int = b.applied
	var hidden_count: int = 0
	var shown_count: int = 0
	while i < n:
		var k: int = b.at[i]
		if k < 0:
			report.unknown.append(b.keys[i])
		else:
			var bits: int = b.wanted[i]
			var current: int = _flags[k]
			var flip: int = (bits ^ current) & (HIDDEN | DELETED)
			if flip == HIDDEN:
				# Only "hidden" changes (the common batch): the fast path.
				_flags[k] = current ^ HIDDEN
				if bits & DELETED == 0:
					_nodes[k].visible = bits & HIDDEN == 0
				if bits & HIDDEN != 0:
					hidden_count += 1
				else:
					shown_count += 1
			elif flip != 0:
				_set_visibility(k, bits, current, report)
			if (bits | current) & (COLORED | MOVED) != 0:
				_set_looks(k, b.values[i], report)
		i += 1
		if limit_usec > 0 and i & 31 == 0 and Time.get_ticks_usec() >= deadline:
			break
	report.hidden += hidden_count
	report.shown += shown_count
	b.applied = i
	return i >= n


## Whether element changes wait for [method drain].
func has_pending() -> bool:
	return not _pending.is_empty()


## Applies a full `engine_state`: afterwards the engine shows exactly that state. Malformed
## input is refused and changes nothing.
func apply_state(full: Variant) -> ApplyReport:
	var problem: String = check_state(full)
	if not problem.is_empty():
		return ApplyReport.refused(problem)
	drain()
	var s: Dictionary = full
	var report: ApplyReport = ApplyReport.new()
	var hidden: Dictionary = _as_set(s["hidden"])
	var deleted: Dictionary = _as_set(s["deleted"])
	var colors: Dictionary = s["colors"]
	var transforms: Dictionary = s["transforms"]
	var touched: Dictionary = _overrides.duplicate()
	touched.merge(hidden)
	touched.merge(deleted)
	touched.merge(colors)
	touched.merge(transforms)
	report.elements = touched.size()
	for gid: String in touched:
		_set_override(gid, {
			"hidden": hidden.has(gid),
			"deleted": deleted.has(gid),
			"color": colors.get(gid),
			"transform": transforms.get(gid),
		}, report)
	var wanted: Dictionary = {}
	for prop: Dictionary in s["props"]:
		wanted[prop["id"]] = prop
	var removed: Array = []
	for pid: String in _props:
		if not wanted.has(pid) or not _same_prop(_props[pid][0], wanted[pid]):
			removed.append(pid)
	var added: Array = []
	for pid: String in wanted:
		if not _props.has(pid) or removed.has(pid):
			added.append(wanted[pid])
	_apply_rest({
		"props_removed": removed, "props_added": added, "selected": s["selected"], "pose": s["pose"]
	}, report)
	return report


## Applies the mirrored state again (after the building was reloaded this happens by itself).
func reapply() -> ApplyReport:
	drain()
	var report: ApplyReport = ApplyReport.new()
	var saved: Dictionary = _overrides.duplicate()
	report.elements = saved.size()
	for gid: String in saved:
		_set_override(gid, saved[gid], report)
	var selected: PackedStringArray = _selected
	_selected = PackedStringArray()
	_set_selection(selected, report)
	return report


## The mirrored scene state (an `engine_state`, IFC frame), built from what was applied.
func current_state() -> Dictionary:
	var hidden: Array = []
	var deleted: Array = []
	var colors: Dictionary = {}
	var transforms: Dictionary = {}
	var ids: Array = _overrides.keys()
	ids.sort()
	for gid: String in ids:
		var o: Dictionary = _overrides[gid]
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
	}


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


## Why an `engine_delta` is malformed ("" when it is fine). With [param with_elements] false
## the element changes are not looked at (the caller checks them one by one).
static func check_delta(delta: Variant, with_elements: bool = true) -> String:
	if not delta is Dictionary:
		return "a delta must be an object"
	var d: Dictionary = delta
	for key: String in SchemaConstants.DELTA_REQUIRED_KEYS:
		if not d.has(key):
			return "the delta has no '%s'" % key
	for key: Variant in d:
		if (
			not SchemaConstants.DELTA_REQUIRED_KEYS.has(key)
			and not SchemaConstants.DELTA_OPTIONAL_KEYS.has(key)
		):
			return "the delta has an unknown field '%s'" % str(key)
	if not d["elements"] is Dictionary:
		return "delta.elements must be an object"
	if with_elements:
		var changes: Dictionary = d["elements"]
		for gid: Variant in changes:
			var problem: String = _check_change(gid, changes[gid])
			if not problem.is_empty():
				return problem
	if not _is_string_list(d["props_removed"]):
		return "delta.props_removed must be a list of prop ids"
	var problem_props: String = _check_props(d["props_added"], "delta.props_added")
	if not problem_props.is_empty():
		return problem_props
	if d.has("selected") and not _is_string_list(d["selected"]):
		return "delta.selected must be a list of GlobalIds"
	if d.has("pose"):
		return _check_pose(d["pose"], "delta.pose")
	return ""


## Why an `engine_state` is malformed ("" when it is fine).
static func check_state(full: Variant) -> String:
	if not full is Dictionary:
		return "a state must be an object"
	var s: Dictionary = full
	for key: String in SchemaConstants.STATE_KEYS:
		if not s.has(key):
			return "the state has no '%s'" % key
	for key: String in ["hidden", "deleted", "selected"]:
		if not _is_string_list(s[key]):
			return "state.%s must be a list of GlobalIds" % key
	if not s["colors"] is Dictionary:
		return "state.colors must be an object"
	for gid: Variant in s["colors"]:
		if not gid is String or not _is_rgba(s["colors"][gid]):
			return "state.colors[%s] must be [r, g, b, a] in 0..1" % str(gid)
	if not s["transforms"] is Dictionary:
		return "state.transforms must be an object"
	for gid: Variant in s["transforms"]:
		if not gid is String or not _is_transform(s["transforms"][gid]):
			return "state.transforms[%s] must be {translation, rotation_deg}" % str(gid)
	var problem: String = _check_props(s["props"], "state.props")
	if not problem.is_empty():
		return problem
	return _check_pose(s["pose"], "state.pose")


# The flag bits an element change asks for, or -1 when it is malformed (the hot check).
static func _change_bits(gid: Variant, change: Variant) -> int:
	if typeof(gid) != TYPE_STRING or typeof(change) != TYPE_DICTIONARY:
		return -1
	var c: Dictionary = change
	if c.size() != 4:
		return -1
	var hidden: Variant = c.get("hidden")
	var deleted: Variant = c.get("deleted")
	if typeof(hidden) != TYPE_BOOL or typeof(deleted) != TYPE_BOOL:
		return -1
	var bits: int = (HIDDEN if hidden else 0) | (DELETED if deleted else 0)
	var color: Variant = c.get("color", false)
	if color != null:
		if not _is_rgba(color):
			return -1
		bits |= COLORED
	var xform: Variant = c.get("transform", false)
	if xform != null:
		if not _is_transform(xform):
			return -1
		bits |= MOVED
	return bits


# Why an element change is malformed, for the refusal message.
static func _check_change(gid: Variant, change: Variant) -> String:
	if typeof(gid) != TYPE_STRING:
		return "delta.elements keys must be GlobalIds"
	if typeof(change) != TYPE_DICTIONARY:
		return "delta.elements[%s] must be an object" % gid
	var c: Dictionary = change
	if (
		c.size() != 4
		or typeof(c.get("hidden")) != TYPE_BOOL
		or typeof(c.get("deleted")) != TYPE_BOOL
		or not c.has("color")
		or not c.has("transform")
	):
		return "delta.elements[%s] must have exactly %s (hidden and deleted true/false)" % [
			gid, ", ".join(SchemaConstants.ELEMENT_CHANGE_KEYS)
		]
	if c["color"] != null and not _is_rgba(c["color"]):
		return "delta.elements[%s].color must be null or [r, g, b, a] in 0..1" % gid
	return "delta.elements[%s].transform must be null or {translation, rotation_deg}" % gid


static func _check_props(value: Variant, where: String) -> String:
	if not value is Array:
		return "%s must be a list" % where
	for prop: Variant in value:
		if not prop is Dictionary:
			return "%s must hold objects" % where
		var p: Dictionary = prop
		if p.size() != SchemaConstants.PROP_KEYS.size():
			return "%s: a prop has exactly %s" % [where, ", ".join(SchemaConstants.PROP_KEYS)]
		if not (p.get("id") is String and p.get("asset") is String):
			return "%s: a prop needs a string id and asset" % where
		if not (_is_vec3(p.get("position")) and _is_number(p.get("yaw"))):
			return "%s: prop %s needs position [x, y, z] and yaw" % [where, str(p.get("id"))]
	return ""


static func _check_pose(value: Variant, where: String) -> String:
	if not value is Dictionary:
		return "%s must be an object" % where
	var p: Dictionary = value
	if p.size() != SchemaConstants.POSE_KEYS.size():
		return "%s has exactly %s" % [where, ", ".join(SchemaConstants.POSE_KEYS)]
	if not (_is_vec3(p.get("position")) and _is_number(p.get("yaw")) and _is_number(p.get("pitch"))):
		return "%s needs position [x, y, z], yaw and pitch" % where
	return ""


static func _is_number(v: Variant) -> bool:
	return typeof(v) == TYPE_FLOAT or typeof(v) == TYPE_INT


static func _is_vec3(v: Variant) -> bool:
	if typeof(v) != TYPE_ARRAY:
		return false
	var a: Array = v
	return a.size() == 3 and _is_number(a[0]) and _is_number(a[1]) and _is_number(a[2])


static func _is_rgba(v: Variant) -> bool:
	if typeof(v) != TYPE_ARRAY:
		return false
	var a: Array = v
	if a.size() != 4:
		return false
	for x: Variant in a:
		if not _is_number(x) or x < 0.0 or x > 1.0:
			return false
	return true


static func _is_transform(v: Variant) -> bool:
	if typeof(v) != TYPE_DICTIONARY:
		return false
	var t: Dictionary = v
	return t.size() == 2 and _is_vec3(t.get("translation")) and _is_vec3(t.get("rotation_deg"))


static func _is_string_list(v: Variant) -> bool:
	if typeof(v) != TYPE_ARRAY:
		return false
	for x: Variant in v:
		if typeof(x) != TYPE_STRING:
			return false
	return true


static func _as_set(ids: Array) -> Dictionary:
	var out: Dictionary = {}
	for gid: String in ids:
		out[gid] = true
	return out


static func _same_prop(a: Dictionary, b: Dictionary) -> bool:
	return a["asset"] == b["asset"] and a["position"] == b["position"] and a["yaw"] == b["yaw"]


static func _is_pristine(change: Dictionary) -> bool:
	return not (
		change["hidden"] or change["deleted"] or change["color"] != null or change["transform"] != null
	)


# [Godot basis, Godot translation] of an IFC rotation (degrees, X then Y then Z) and translation.
static func _motion(rotation_deg: Vector3, translation_ifc: Vector3) -> Array:
	var basis: Basis = Frames.ifc_basis_to_godot(
		Basis(Vector3(0.0, 0.0, 1.0), deg_to_rad(rotation_deg.z))
		* Basis(Vector3(0.0, 1.0, 0.0), deg_to_rad(rotation_deg.y))
		* Basis(Vector3(1.0, 0.0, 0.0), deg_to_rad(rotation_deg.x))
	)
	return [basis, Frames.ifc_to_godot(translation_ifc)]


static func _moved(e: BuildingElement, motion: Array) -> Transform3D:
	var basis: Basis = motion[0]
	var shift: Vector3 = motion[1]
	var about_centre: Transform3D = Transform3D(basis, e.centre + shift - basis * e.centre)
	return e.parent_global.affine_inverse() * about_centre * e.parent_global * e.base_transform


func _bind() -> void:
	var count: int = building.element_list.size()
	_flags = PackedByteArray()
	_flags.resize(count)
	_color_now = []
	_color_now.resize(count)
	_xform_now = []
	_xform_now.resize(count)
	_highlighted.clear()
	_nodes.clear()
	for e: BuildingElement in building.element_list:
		_nodes.append(e.node)


func _on_building_loaded(_count: int) -> void:
	# Queued element work points at the old nodes; the mirror already holds those changes and
	# reapply() puts them on the new nodes. Props, selection and pose of queued deltas still count.
	var queued: Array[PendingBatch] = _pending.duplicate()
	_pending.clear()
	for b: PendingBatch in queued:
		if b.checked < b.keys.size():
			var problem: String = _check_some(b, 0, 0)
			if not problem.is_empty():
				b.report.ok = false
				b.report.error = problem
				batch_applied.emit(b.report)
				continue
			_overrides.merge(b.delta["elements"], true)
		_apply_rest(b.delta, b.report)
		batch_applied.emit(b.report)
	_bind()
	reapply()


func _set_override(gid: String, change: Dictionary, report: ApplyReport) -> void:
	if _is_pristine(change):
		_overrides.erase(gid)
	else:
		_overrides[gid] = change
	var k: int = building.index.get(gid, -1)
	if k < 0:
		report.unknown.append(gid)
		return
	var bits: int = _change_bits(gid, change)
	var current: int = _flags[k]
	if (bits ^ current) & (HIDDEN | DELETED) != 0:
		_set_visibility(k, bits, current, report)
	if (bits | current) & (COLORED | MOVED) != 0:
		_set_looks(k, change, report)


func _set_visibility(k: int, bits: int, current: int, report: ApplyReport) -> void:
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


# Colour and transform of element k (rarer than hiding; materials and motions are cached by
# the content of the colour or transform, so a batch computes each once).
func _set_looks(k: int, change: Dictionary, report: ApplyReport) -> void:
	var color: Variant = change["color"]
	var bits: int = _flags[k] & ~(COLORED | MOVED)
	if color != _color_now[k]:
		var e: BuildingElement = building.element_list[k]
		if color == null:
			for i: int in e.meshes.size():
				e.meshes[i].material_override = e.base_overrides[i]
			report.uncolored += 1
		else:
			var material: Material = _material_for.get(color)
			if material == null:
				var rgba: Array = color
				material = materials.color_material(Color(rgba[0], rgba[1], rgba[2], rgba[3]))
				_material_for[color] = material
			for mesh: MeshInstance3D in e.meshes:
				mesh.material_override = material
			report.colored += 1
		_color_now[k] = color
	var xform: Variant = change["transform"]
	if xform != _xform_now[k]:
		var e: BuildingElement = building.element_list[k]
		if xform == null:
			e.node.transform = e.base_transform
		else:
			var motion: Array = _motion_for.get(xform, [])
			if motion.is_empty():
				var t: Dictionary = xform
				var tr: Array = t["translation"]
				var rot: Array = t["rotation_deg"]
				motion = _motion(Vector3(rot[0], rot[1], rot[2]), Vector3(tr[0], tr[1], tr[2]))
				if _motion_for.size() >= KNOWN_CHANGES_MAX:
					_motion_for.clear()
				_motion_for[xform] = motion
			e.node.transform = _moved(e, motion)
		report.moved += 1
		_xform_now[k] = xform
	if color != null:
		bits |= COLORED
	if xform != null:
		bits |= MOVED
	_flags[k] = bits


# Props, selection and pose of a delta (or of a state turned into one).
func _apply_rest(d: Dictionary, report: ApplyReport) -> void:
	for pid: String in d["props_removed"]:
		_remove_prop(pid, report)
	for prop: Dictionary in d["props_added"]:
		_add_prop(prop, report)
	if d.has("selected"):
		_set_selection(PackedStringArray(d["selected"]), report)
	if d.has("pose"):
		_set_pose(d["pose"], report)


func _set_selection(ids: PackedStringArray, report: ApplyReport) -> void:
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
	var e: BuildingElement = building.elements.get(gid)
	if e == null or _highlighted.has(gid) == on:
		return
	if on:
		_highlighted[gid] = true
	else:
		_highlighted.erase(gid)
	for i: int in e.meshes.size():
		e.meshes[i].material_overlay = materials.highlight_material() if on else e.base_overlays[i]


func _set_pose(pose: Dictionary, report: ApplyReport) -> void:
	if pose.is_empty() or pose == _pose:
		return
	_pose = pose.duplicate(true)
	report.pose_changed = true
	pose_changed.emit(_pose)


func _remove_prop(pid: String, report: ApplyReport) -> void:
	var entry: Array = _props.get(pid, [])
	if entry.is_empty():
		return
	_props.erase(pid)
	var node: Node3D = entry[1]
	props_root.remove_child(node)
	node.queue_free()
	report.props_removed += 1


func _add_prop(prop: Dictionary, report: ApplyReport) -> void:
	var pid: String = prop["id"]
	if _props.has(pid):
		_remove_prop(pid, report)
	var asset: String = prop["asset"]
	var node: Node3D = props.instantiate(asset)
	node.name = pid.validate_node_name()
	node.set_meta(&"prop_id", pid)
	var p: Array = prop["position"]
	node.position = Frames.ifc_to_godot(Vector3(p[0], p[1], p[2]))
	# Yaw turns the prop as modelled counter-clockwise about the vertical (as pyagent/ifcsave.py).
	var yaw: float = deg_to_rad(float(prop["yaw"]))
	node.basis = Frames.ifc_basis_to_godot(Basis(Vector3(0.0, 0.0, 1.0), yaw))
	props_root.add_child(node)
	_props[pid] = [prop.duplicate(true), node]
	report.props_added += 1
	if node.get_meta(&"fallback", false) and not report.fallback_assets.has(asset):
		report.fallback_assets.append(asset)
