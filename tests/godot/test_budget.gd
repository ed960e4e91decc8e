extends "res://tests/godot/scene_test.gd"
## Deltas applied under a frame budget: the mirror changes at once, nodes follow over several
## drain() calls, in order, and batch_applied reports each delta once it is complete.
## -- --no-agent --glb PATH (a building with a few hundred elements)


func run_test() -> void:
	var building: BimVoiceBuildingModel = BimVoiceBuildingModel.new()
	root.add_child(building)
	check_eq(building.load_file(args["glb"]), OK, "load")
	var applier: BimVoiceChangeApplier = BimVoiceChangeApplier.new(building)
	var done: Array[BimVoiceApplyReport] = []
	applier.batch_applied.connect(func(r: BimVoiceApplyReport) -> void: done.append(r))
	var ids: PackedStringArray = building.element_ids()
	check(ids.size() >= 200, "enough elements (%d)" % ids.size())
	var hide: Dictionary = delta(ids, true)
	applier.budget_usec = 1
	var report: BimVoiceApplyReport = applier.apply_delta(hide)
	check(report.ok, "accepted")
	check(applier.has_pending(), "work left after one budget")
	check_eq(applier.current_state()["hidden"].size(), 0, "mirror waits until the delta is checked")
	check(visible_count(building) > 0, "some nodes wait for the next frame")
	check_eq(done.size(), 0, "not reported before it is complete")
	# A second delta waits behind the first one.
	var show_first: Dictionary = delta(PackedStringArray([ids[0]]), false)
	check(applier.apply_delta(show_first).ok, "second delta accepted")
	var calls: int = 0
	while not applier.drain(1):
		calls += 1
		check(calls < 100000, "drain makes progress")
		if calls >= 100000:
			return
	check(calls >= 2, "took several frames (%d)" % calls)
	check_eq(done.size(), 2, "both deltas reported")
	check_eq(done[0].hidden, ids.size(), "first report complete")
	check(done[0] == report, "the report returned is the one completed")
	check_eq(visible_count(building), 1, "in order: all hidden, then the first shown")
	check(building.get_element(ids[0]).node.visible, "the second delta came last")
	var mirrored: Array = applier.current_state()["hidden"]
	check_eq(mirrored.size(), ids.size() - 1, "mirror holds both deltas")
	# A malformed delta found out during a later frame is refused and changes nothing.
	var bad: Dictionary = delta(ids, false)
	bad["elements"][0]["ids"][-1] = 17
	var refused: BimVoiceApplyReport = applier.apply_delta(bad)
	while not applier.drain(1):
		pass
	var where: String = "delta.elements[0].ids[%d]" % (ids.size() - 1)
	check(not refused.ok and refused.error.contains(where), "late refusal: " + refused.error)
	check_eq(done[-1], refused, "refusal reported through batch_applied")
	check_eq(visible_count(building), 1, "refused delta changed nothing")
	# A full state first finishes queued work, then resyncs.
	applier.apply_delta(delta(ids, false))
	check(applier.has_pending(), "queued again")
	var state: Dictionary = applier.current_state()
	state["hidden"] = [ids[1]]
	state["pose"] = {"position": [0.0, 0.0, 1.6], "yaw": 0.0, "pitch": 0.0}
	check(applier.apply_state(state).ok, "state applied")
	check(not applier.has_pending(), "nothing left after a state")
	check_eq(visible_count(building), ids.size() - 1, "state shows exactly its hidden element")
	# Without a budget a delta is applied at once.
	applier.budget_usec = 0
	applier.apply_delta(delta(ids, true))
	check(not applier.has_pending() and visible_count(building) == 0, "no budget: applied at once")
	test_prepared(building, applier, ids)


# Deltas checked on a worker thread (as the link does for large ones), then applied.
func test_prepared(
	building: BimVoiceBuildingModel, applier: BimVoiceChangeApplier, ids: PackedStringArray
) -> void:
	var show_all: Dictionary = delta(ids, false)
	var made: Array = []
	var task: int = WorkerThreadPool.add_task(
		func() -> void: made.append(applier.prepare_delta(show_all))
	)
	WorkerThreadPool.wait_for_task_completion(task)
	var prepared: BimVoiceChangeApplier.PendingBatch = made[0]
	check(prepared.error.is_empty() and prepared.is_checked(), "prepared on a worker thread")
	check_eq(visible_count(building), 0, "preparing changes nothing")
	var report: BimVoiceApplyReport = applier.apply_prepared(prepared)
	check(
		report.ok and report.shown == ids.size(), "prepared delta applied: %d shown" % report.shown
	)
	check_eq(visible_count(building), ids.size(), "all shown")
	# A malformed delta prepared is refused and changes nothing.
	var bad: Dictionary = delta(ids, true)
	bad["elements"][0]["ids"][3] = 5
	var refused: BimVoiceApplyReport = applier.apply_prepared(applier.prepare_delta(bad))
	check(not refused.ok and refused.error.contains("ids[3]"), "prepared refusal: " + refused.error)
	check_eq(visible_count(building), ids.size(), "refused prepared delta changed nothing")
	# Prepared, then the building is reloaded: the ids are looked up again in the new one.
	var stale: BimVoiceChangeApplier.PendingBatch = applier.prepare_delta(delta(ids, true))
	check_eq(building.load_file(args["glb"]), OK, "reload")
	report = applier.apply_prepared(stale)
	check(report.ok and report.hidden == ids.size(), "stale prepared delta looked up again")
	check_eq(visible_count(building), 0, "the new nodes are hidden")


func delta(ids: PackedStringArray, hidden: bool) -> Dictionary:
	var group: Dictionary = {
		"ids": Array(ids), "hidden": hidden, "deleted": false, "color": null, "transform": null
	}
	return {"elements": [group], "props_added": [], "props_removed": []}


func visible_count(building: BimVoiceBuildingModel) -> int:
	var count: int = 0
	for e: BimVoiceBuildingElement in building.element_list:
		if e.node.visible:
			count += 1
	return count
