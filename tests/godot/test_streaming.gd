extends "res://tests/godot/scene_test.gd"
## The progressive first load end to end with a real agent (`python -m pyagent serve` on a building
## it has not cached, started by the pytest wrapper): the engine gets the first view, a hide made
## before the rest comes (of an element still loading and of a loaded one) is answered at once,
## then the second glb part arrives, its elements join the building (one-shot element set, same
## boxes as a one-shot load) and the hide holds on them, in their nodes and in the batches.
## -- --no-agent --agent tcp://127.0.0.1:PORT --expect PATH.json
## expect.json: {"ids": [GlobalId of every element node of a one-shot load], "glb": its .glb path}

const TIMEOUT_S: float = 180.0

var rt: BimVoiceRuntime
var answers: Array[Dictionary] = []
var parts: Array[PackedStringArray] = []


func run_test() -> void:
	var expect: Dictionary = read_json(args["expect"])
	var all_ids: Array = expect["ids"]
	rt = runtime()
	rt.speak_answers = false
	_clear_model_cache()
	rt.answer_received.connect(func(response: Dictionary) -> void: answers.append(response))
	rt.elements_added.connect(func(ids: PackedStringArray) -> void: parts.append(ids))
	var link: BimVoiceAgentLink = rt.connect_agent(args["agent"])
	if not check(await wait_for(func() -> bool: return link.is_in_sync(), "welcome"), "linked"):
		return
	if not check(await wait_for(rt.building.is_loaded, "first view download"), "first view in"):
		return
	var pending: int = int(link.model_info.get("pending", 0))
	var first_view: bool = pending > 0 and parts.is_empty()
	if not check(first_view, "the agent serves a first view (%d pending)" % pending):
		return
	var first_hash: String = rt.model_hash
	var loaded: PackedStringArray = rt.building.element_ids()
	check_eq(loaded.size() + pending, all_ids.size(), "first view + pending = one-shot elements")
	var missing: Array = all_ids.filter(func(g: String) -> bool: return not loaded.has(g))
	check_eq(missing.size(), pending, "the pending elements are the ones the first view lacks")
	var still: String = missing[0]
	var shown: String = loaded[0]

	# A change between the parts: one element still loading, one loaded.
	var program: Dictionary = {"steps": [{"op": "hide", "target": {"ids": [still, shown]}}]}
	link.do_program(program)
	await wait_for(func() -> bool: return not answers.is_empty(), "the hide's answer")
	var answer: Dictionary = answers[0] if not answers.is_empty() else {}
	check(answer.get("ok", false), "hidden: %s" % str(answer))
	check(str(answer.get("answer", "")).contains("still loading"), "the answer says one is loading")
	check(parts.is_empty(), "the hide was made before the rest came")
	check(await wait_for(func() -> bool: return rt.applier.is_hidden(shown), "hide"), "delta came")
	check(not rt.building.get_element(shown).node.visible, "the loaded element is hidden")

	# The second part.
	if not check(await wait_for(func() -> bool: return not parts.is_empty(), "model_part"), "part"):
		return
	check_eq(parts.size(), 1, "one part")
	check_eq(parts[0].size(), pending, "the part holds the pending elements")
	check_eq(rt.building.part_count, 1, "the building added one part")
	check(rt.model_hash != first_hash, "the model is now the full one")
	var ids: Array = Array(rt.building.element_ids())
	var wanted: Array = all_ids.duplicate()
	wanted.sort()
	check_eq(ids, wanted, "the engine ends with the one-shot element set")
	check(rt.applier.is_hidden(still), "the hide made between the parts holds on the new element")
	check(not rt.building.get_element(still).node.visible, "its node is hidden")
	check(not rt.building.get_element(shown).node.visible, "the loaded one stays hidden")
	var batches: BimVoiceBuildingBatches = rt.building.batches
	if check(batches != null, "batched"):
		var k_still: int = rt.building.index[still]
		check_eq(batches.mode_of(k_still), BimVoiceBuildingBatches.MODE_HIDDEN, "hidden in batches")
		var drawn: int = 0
		for gid: String in parts[0]:
			if gid != still and batches.mode_of(rt.building.index[gid]) == BimVoiceBuildingBatches.MODE_BASE:
				drawn += 1
		check_eq(drawn, parts[0].size() - 1, "the other new elements are drawn in the batches")
		check_eq(batches.mode_of(rt.building.index[shown]), BimVoiceBuildingBatches.MODE_HIDDEN, "kept")

	# Same boxes as a one-shot load of the building.
	var reference: BimVoiceBuildingModel = BimVoiceBuildingModel.new()
	reference.batched = false
	root.add_child(reference)
	if check(reference.load_file(expect["glb"]) == OK, "one-shot glb loads"):
		var off: int = 0
		for gid: String in all_ids:
			var a: AABB = rt.building.get_element(gid).base_aabb
			var b: AABB = reference.get_element(gid).base_aabb
			if not (a.position.is_equal_approx(b.position) and a.size.is_equal_approx(b.size)):
				off += 1
				printerr("box differs: %s %s %s" % [gid, a, b])
		check_eq(off, 0, "every element's box equals the one-shot load's")
	reference.queue_free()
	check(
		await wait_for(func() -> bool: return rt.hud.status.contains("fully loaded"), "status"),
		"the HUD says the building is fully loaded: " + rt.hud.status
	)
	link.stop()


func wait_for(condition: Callable, what: String) -> bool:
	var deadline: int = Time.get_ticks_msec() + int(TIMEOUT_S * 1000.0)
	while not condition.call():
		if Time.get_ticks_msec() > deadline:
			printerr("timed out waiting for " + what)
			return false
		await process_frame
	return true


func _clear_model_cache() -> void:
	var dir: DirAccess = DirAccess.open(BimVoiceRuntime.MODEL_CACHE_DIR)
	if dir == null:
		return
	for name: String in dir.get_files():
		dir.remove(name)
