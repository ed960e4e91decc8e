class_name BimVoiceChangeCheck
extends RefCounted
## Checks the agent's engine messages (`engine_delta`, `engine_state` in
## pyagent/actions/action.schema.json, keys from [BimVoiceSchemaConstants]) before
## [BimVoiceChangeApplier] touches
## anything: each function returns why the input is malformed, or "" when it is fine. Static and
## free of engine state, so deltas can be checked on a worker thread.


## Why an `engine_delta` is malformed ("" when it is fine). The ids of its element groups are
## not looked at: [BimVoiceChangeApplier] checks them one by one as it finds their elements.
static func delta_problem(delta: Variant) -> String:
	if not delta is Dictionary:
		return "a delta must be an object"
	var d: Dictionary = delta
	for key: String in BimVoiceSchemaConstants.DELTA_REQUIRED_KEYS:
		if not d.has(key):
			return "the delta has no '%s'" % key
	for key: Variant in d:
		if (
			not BimVoiceSchemaConstants.DELTA_REQUIRED_KEYS.has(key)
			and not BimVoiceSchemaConstants.DELTA_OPTIONAL_KEYS.has(key)
		):
			return "the delta has an unknown field '%s'" % str(key)
	if not d["elements"] is Array:
		return "delta.elements must be a list of element groups"
	var groups: Array = d["elements"]
	for g: int in groups.size():
		var problem: String = group_problem(groups[g], g)
		if not problem.is_empty():
			return problem
	if not is_string_list(d["props_removed"]):
		return "delta.props_removed must be a list of prop ids"
	var problem_props: String = props_problem(d["props_added"], "delta.props_added")
	if not problem_props.is_empty():
		return problem_props
	if d.has("selected") and not is_string_list(d["selected"]):
		return "delta.selected must be a list of GlobalIds"
	if d.has("pose"):
		var problem_pose: String = pose_problem(d["pose"], "delta.pose")
		if not problem_pose.is_empty():
			return problem_pose
	return review_problem(d, "delta")


## Why an `engine_state` is malformed ("" when it is fine).
static func state_problem(full: Variant) -> String:
	if not full is Dictionary:
		return "a state must be an object"
	var s: Dictionary = full
	for key: String in BimVoiceSchemaConstants.STATE_KEYS:
		if not s.has(key):
			return "the state has no '%s'" % key
	for key: String in ["hidden", "deleted", "selected"]:
		if not is_string_list(s[key]):
			return "state.%s must be a list of GlobalIds" % key
	if not s["colors"] is Dictionary:
		return "state.colors must be an object"
	for gid: Variant in s["colors"]:
		if not gid is String or not is_rgba(s["colors"][gid]):
			return "state.colors[%s] must be [r, g, b, a] in 0..1" % str(gid)
	if not s["transforms"] is Dictionary:
		return "state.transforms must be an object"
	for gid: Variant in s["transforms"]:
		if not gid is String or not is_transform(s["transforms"][gid]):
			return "state.transforms[%s] must be {translation, rotation_deg}" % str(gid)
	var problem: String = props_problem(s["props"], "state.props")
	if not problem.is_empty():
		return problem
	if not s["viewpoints"] is Dictionary:
		return "state.viewpoints must be an object"
	problem = pose_problem(s["pose"], "state.pose")
	if not problem.is_empty():
		return problem
	return review_problem(s, "state")


## Why the review keys of a state or delta (those it has of sections, sun, view_scale) are
## malformed ("" when fine).
static func review_problem(d: Dictionary, where: String) -> String:
	if d.has("sections"):
		var planes: Variant = d["sections"]
		if not planes is Array or (planes as Array).size() > BimVoiceSchemaConstants.MAX_SECTION_PLANES:
			return "%s.sections must be a list of at most %d planes" % [
				where, BimVoiceSchemaConstants.MAX_SECTION_PLANES
			]
		for plane: Variant in planes:
			if (
				not plane is Dictionary
				or (plane as Dictionary).size() != 2
				or not is_vec3(plane.get("location"))
				or not is_vec3(plane.get("direction"))
			):
				return "%s.sections: a plane is {location: [x, y, z], direction: [x, y, z]}" % where
	if d.has("sun") and d["sun"] != null:
		var sun: Variant = d["sun"]
		if (
			not sun is Dictionary
			or not is_vec3(sun.get("direction"))
			or not is_number(sun.get("elevation_deg"))
		):
			return "%s.sun must be null or {direction: [x, y, z], elevation_deg, ...}" % where
	if d.has("view_scale") and d["view_scale"] != null:
		var vs: Variant = d["view_scale"]
		if (
			not vs is Dictionary
			or not is_number(vs.get("scale"))
			or float(vs.get("scale")) <= 0.0
			or float(vs.get("scale")) > 1.0
			or not is_vec3(vs.get("pivot"))
			or not is_vec3(vs.get("anchor"))
		):
			return "%s.view_scale must be null or {scale in (0, 1], pivot, anchor}" % where
	return ""


## Why element group [param g] of a delta is malformed ("" when it is fine; its ids are not
## looked at).
static func group_problem(group: Variant, g: int) -> String:
	if typeof(group) != TYPE_DICTIONARY:
		return "delta.elements[%d] must be an object" % g
	var c: Dictionary = group
	var ids: Variant = c.get("ids")
	if (
		c.size() != BimVoiceSchemaConstants.ELEMENT_GROUP_KEYS.size()
		or typeof(ids) != TYPE_ARRAY
		or (ids as Array).is_empty()
		or typeof(c.get("hidden")) != TYPE_BOOL
		or typeof(c.get("deleted")) != TYPE_BOOL
		or not c.has("color")
		or not c.has("transform")
	):
		return (
			"delta.elements[%d] must have exactly %s (ids not empty, hidden and deleted true/false)"
			% [g, ", ".join(BimVoiceSchemaConstants.ELEMENT_GROUP_KEYS)]
		)
	if c["color"] != null and not is_rgba(c["color"]):
		return "delta.elements[%d].color must be null or [r, g, b, a] in 0..1" % g
	if c["transform"] != null and not is_transform(c["transform"]):
		return "delta.elements[%d].transform must be null or {translation, rotation_deg}" % g
	return ""


## Why a list of props is malformed ("" when fine); [param where] names it in the message.
static func props_problem(value: Variant, where: String) -> String:
	if not value is Array:
		return "%s must be a list" % where
	for prop: Variant in value:
		if not prop is Dictionary:
			return "%s must hold objects" % where
		var p: Dictionary = prop
		if p.size() != BimVoiceSchemaConstants.PROP_KEYS.size():
			return "%s: a prop has exactly %s" % [where, ", ".join(BimVoiceSchemaConstants.PROP_KEYS)]
		if not (p.get("id") is String and p.get("asset") is String):
			return "%s: a prop needs a string id and asset" % where
		if not (is_vec3(p.get("position")) and is_number(p.get("yaw"))):
			return "%s: prop %s needs position [x, y, z] and yaw" % [where, str(p.get("id"))]
	return ""


## Why a pose is malformed ("" when fine); [param where] names it in the message.
static func pose_problem(value: Variant, where: String) -> String:
	if not value is Dictionary:
		return "%s must be an object" % where
	var p: Dictionary = value
	if p.size() != BimVoiceSchemaConstants.POSE_KEYS.size():
		return "%s has exactly %s" % [where, ", ".join(BimVoiceSchemaConstants.POSE_KEYS)]
	if not (is_vec3(p.get("position")) and is_number(p.get("yaw")) and is_number(p.get("pitch"))):
		return "%s needs position [x, y, z], yaw and pitch" % where
	return ""


## Whether [param v] is an int or a float.
static func is_number(v: Variant) -> bool:
	return typeof(v) == TYPE_FLOAT or typeof(v) == TYPE_INT


## Whether [param v] is [x, y, z] numbers.
static func is_vec3(v: Variant) -> bool:
	if typeof(v) != TYPE_ARRAY:
		return false
	var a: Array = v
	return a.size() == 3 and is_number(a[0]) and is_number(a[1]) and is_number(a[2])


## Whether [param v] is [r, g, b, a] numbers in 0..1.
static func is_rgba(v: Variant) -> bool:
	if typeof(v) != TYPE_ARRAY:
		return false
	var a: Array = v
	if a.size() != 4:
		return false
	for x: Variant in a:
		if not is_number(x) or x < 0.0 or x > 1.0:
			return false
	return true


## Whether [param v] is {translation, rotation_deg} (each [x, y, z]).
static func is_transform(v: Variant) -> bool:
	if typeof(v) != TYPE_DICTIONARY:
		return false
	var t: Dictionary = v
	return t.size() == 2 and is_vec3(t.get("translation")) and is_vec3(t.get("rotation_deg"))


## Whether [param v] is an array of strings.
static func is_string_list(v: Variant) -> bool:
	if typeof(v) != TYPE_ARRAY:
		return false
	for x: Variant in v:
		if typeof(x) != TYPE_STRING:
			return false
	return true
