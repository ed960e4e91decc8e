extends SceneTree
## Benchmark: the main-thread cost, frame by frame, of changes the agent makes to many elements,
## end to end through the real runtime (the BimVoice autoload): a program goes to
## `python -m pyagent serve`, its delta comes back over ZeroMQ, is parsed (on a worker thread
## when large) and applied under the runtime's frame budget. Each frame here runs the runtime's
## own per-frame work ([method BimVoiceRuntime.step_frame]), timed.
## Run through tests/bench/bench_engine_e2e.py (it starts the agent).
## -- --agent tcp://127.0.0.1:PORT --desktop --class IfcBeam [--rounds 5]
## Prints one line "BENCH <json>".

var rt: BimVoiceRuntime
var results: Dictionary = {}
var touched: Array = []


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var args: Dictionary = BimVoiceRuntime.parse_args(OS.get_cmdline_user_args())
	var ifc_class: String = args.get("class", "IfcBeam")
	var rounds: int = int(args.get("rounds", "5"))
	rt = root.get_node_or_null("BimVoice")
	if rt == null or rt.link == null:
		printerr("the BimVoice runtime with an agent link is needed (--agent)")
		quit(2)
		return
	var ready: bool = await _wait(func() -> bool:
		return rt.link.is_in_sync() and rt.building.is_loaded() and not rt.applier.has_pending(),
		180.0)
	if not ready:
		printerr("no agent or no building: " + rt.link.status_text)
		quit(2)
		return
	# From here the runtime's frame work is done (and timed) by this loop.
	rt.set_process(false)
	rt.picker.build_all()  # colliders are built from the budget's leftovers: not measured here
	rt.link.result.connect(func(id: int, response: Dictionary) -> void: results[id] = response)
	rt.link.delta.connect(func(_seq: int, changes: Dictionary) -> void:
		for group: Dictionary in changes["elements"]:
			touched.append_array(group["ids"]))
	var target: Dictionary = {"class": [ifc_class]}
	var kinds: Array = [
		["hide", {"op": "hide", "target": target}],
		["paint", {"op": "color", "target": target, "rgba": [0.9, 0.2, 0.1, 1.0]}],
		["move", {"op": "move", "target": target, "delta": [0.0, 0.0, 0.5]}],
	]
	var out: Dictionary = {"elements": rt.building.elements.size(), "rows": []}
	for kind: Array in kinds:
		for r: int in rounds:
			for step: Dictionary in [kind[1], {"op": "undo"}]:
				var label: String = kind[0] if step["op"] != "undo" else "undo " + kind[0]
				var row: Dictionary = await _measure(label, step)
				if row.is_empty():
					quit(2)
					return
				out["rows"].append(row)
	print("BENCH " + JSON.stringify(out))
	quit(0)


# Sends one program and times every frame until its result is in and its delta applied:
# {kind, elements, frames, max_ms, sum_ms, request_ms, base_ms}.
func _measure(kind: String, step: Dictionary) -> Dictionary:
	touched.clear()
	var id: int = rt.link.do_program({"steps": [step]})
	var started: int = Time.get_ticks_usec()
	var costs: Array[float] = []
	while true:
		var t0: int = Time.get_ticks_usec()
		rt.step_frame()
		costs.append(float(Time.get_ticks_usec() - t0) / 1000.0)
		if results.has(id) and not rt.applier.has_pending():
			break
		if Time.get_ticks_usec() - started > 60_000_000:
			printerr("no result for %s" % kind)
			return {}
		await process_frame
	var response: Dictionary = results[id]
	if not response.get("ok", false):
		printerr("%s refused: %s" % [kind, response.get("error")])
		return {}
	var sum_ms: float = 0.0
	for c: float in costs:
		sum_ms += c
	costs.sort()
	return {
		"kind": kind, "elements": touched.size(), "frames": costs.size(), "max_ms": costs[-1],
		"sum_ms": sum_ms, "request_ms": float(Time.get_ticks_usec() - started) / 1000.0,
		"base_ms": _baseline(kind),
	}


# The bare engine setters for the same change on the same nodes (timed, then put back).
func _baseline(kind: String) -> float:
	var elements: Array[BimVoiceBuildingElement] = []
	for gid: String in touched:
		var e: BimVoiceBuildingElement = rt.building.get_element(gid)
		if e != null:
			elements.append(e)
	var red: Material = rt.applier.materials.color_material(Color(0.9, 0.2, 0.1))
	var lift: Transform3D = Transform3D(Basis.IDENTITY, Vector3(0.0, 0.5, 0.0))
	var saved: Array = []
	for e: BimVoiceBuildingElement in elements:
		var surfaces: Array = []
		for i: int in e.surface_meshes.size():
			surfaces.append(e.surface_meshes[i].get_surface_override_material(e.surface_index[i]))
		saved.append([e.node.visible, e.node.transform, surfaces])
	var t0: int = Time.get_ticks_usec()
	for e: BimVoiceBuildingElement in elements:
		if kind.ends_with("hide"):
			e.node.visible = not e.node.visible
		elif kind.ends_with("paint"):
			for i: int in e.surface_meshes.size():
				e.surface_meshes[i].set_surface_override_material(e.surface_index[i], red)
		else:
			e.node.transform = lift * e.node.transform
	var spent: float = float(Time.get_ticks_usec() - t0) / 1000.0
	for k: int in elements.size():
		var e: BimVoiceBuildingElement = elements[k]
		e.node.visible = saved[k][0]
		e.node.transform = saved[k][1]
		for i: int in e.surface_meshes.size():
			e.surface_meshes[i].set_surface_override_material(e.surface_index[i], saved[k][2][i])
	return spent


func _wait(done: Callable, timeout_s: float) -> bool:
	var until: int = Time.get_ticks_msec() + int(timeout_s * 1000.0)
	while not done.call():
		if Time.get_ticks_msec() > until:
			return false
		await process_frame
	return true
