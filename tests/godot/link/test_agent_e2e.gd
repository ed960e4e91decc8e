## BimVoiceAgentLink against a real `python -m pyagent serve` (tests/link/test_godot_zmtp.py):
## --port=N, --door=GlobalId of the door in front of the pose below, --model-size=bytes of the glb.
## Welcome, model bytes, pose throttling, say "hide the door in front of me" -> a delta hiding
## exactly that door, a program, and a resync after a seq gap.
extends "res://tests/godot/link/link_test_base.gd"

var link: BimVoiceAgentLink
var welcomes: Array = []
var deltas: Array = []
var results := {}
var models: Array = []
var events: Array[String] = []


func run_tests() -> void:
	link = BimVoiceAgentLink.new()
	link.endpoint = "tcp://127.0.0.1:%d" % arg_int("port")
	link.ping_interval_s = 0.2
	link.welcome.connect(
		func(state: Dictionary, info: Dictionary) -> void: welcomes.append([state, info])
	)
	link.delta.connect(func(seq: int, changes: Dictionary) -> void:
		deltas.append([seq, changes])
		events.append("delta %d" % seq))
	link.result.connect(func(id: int, response: Dictionary) -> void:
		results[id] = response
		events.append("result %d" % id))
	link.model_bytes.connect(func(h: String, b: PackedByteArray) -> void: models.append([h, b]))
	root.add_child(link)
	var welcomed := await wait_until(func() -> bool: return welcomes.size() == 1, 20.0)
	check(welcomed, "welcome from the agent")
	if welcomes.is_empty():
		finish()
		return
	var state: Dictionary = welcomes[0][0]
	check_eq(state.get("hidden"), [], "nothing hidden at the start")
	check_eq(link.last_seq, 0, "seq 0 after the first welcome")
	check(link.status_text.begins_with("agent ready"), "status says ready: " + link.status_text)
	var info: Dictionary = welcomes[0][1]
	check_eq(int(info.get("size", 0)), arg_int("model-size"), "model size in the welcome")

	# The building's glb.
	link.request_model(String(info["hash"]))
	check(await wait_until(func() -> bool: return models.size() == 1, 20.0), "model bytes arrive")
	if models.size() == 1:
		var glb: PackedByteArray = models[0][1]
		check_eq(glb.size(), arg_int("model-size"), "glb size")
		check_eq(glb.slice(0, 4).get_string_from_ascii(), "glTF", "glb magic")

	# Poses: many calls in one frame -> one message; an unchanged pose is not sent again.
	for i in 10:
		link.send_pose(Vector3(1.0 + i, 1.0, 1.6), 0.0, 0.0)
	link.send_pose(Vector3(5.66, 4.0, 1.6), 90.0, 0.0)
	await physics_frame
	await physics_frame
	check_eq(link.stats["poses_sent"], 1, "one pose per physics frame")
	link.send_pose(Vector3(5.6604, 4.0, 1.6), 90.01, 0.0)  # below the thresholds: not a change
	await physics_frame
	await physics_frame
	check_eq(link.stats["poses_sent"], 1, "an unchanged pose is not sent")

	# The headline: say it, and the engine is told to hide exactly that door.
	var door := String(args.get("door", ""))
	var id := link.say("hide the door in front of me")
	check(await wait_until(func() -> bool: return results.has(id), 20.0), "result for say")
	var res: Dictionary = results.get(id, {})
	check_eq(res.get("ok"), true, "say succeeded: %s" % res.get("answer"))
	check_eq(deltas.size(), 1, "one delta")
	if deltas.size() == 1:
		check_eq(deltas[0][0], 1, "delta seq 1")
		var groups: Array = deltas[0][1]["elements"]
		check_eq(groups.size(), 1, "one element group")
		if groups.size() == 1:
			check_eq(groups[0]["ids"], [door], "the delta touches exactly the door in front")
			check_eq(groups[0]["hidden"], true, "the door is hidden")
	check_eq(int(res.get("seq", -1)), link.last_seq, "result seq = last delta seq")

	# A program; then a pretend-missed delta forces a resync with the full state. From here on
	# every message is parsed on a worker thread (as large deltas are): the order must hold.
	link.thread_parse_bytes = 0
	var show := {"steps": [{"op": "show", "target": {"ids": [door]}}]}
	var id2 := link.do_program(show)
	check(await wait_until(func() -> bool: return results.has(id2), 20.0), "result for do")
	check_eq(events.slice(-2), ["delta 2", "result %d" % id2], "parsed off-thread, still in order")
	check_eq(results.get(id2, {}).get("ok"), true, "show succeeded")
	check_eq(deltas.size(), 2, "a second delta")
	if deltas.size() == 2:
		check_eq(deltas[1][1]["elements"], [{
			"ids": [door], "hidden": false, "deleted": false, "color": null, "transform": null
		}], "the door is shown again")
	link.last_seq -= 1  # as if delta 2 had been lost
	var id3 := link.do_program({"steps": [{"op": "hide", "target": {"ids": [door]}}]})
	check(
		await wait_until(func() -> bool: return welcomes.size() == 2 and results.has(id3), 20.0),
		"resync: a second welcome"
	)
	check_eq(link.stats["resyncs"], 1, "one resync")
	if welcomes.size() == 2:
		check_eq(welcomes[1][0]["hidden"], [door], "the full state after the resync has the change")
		check_eq(link.last_seq, 3, "seq after the resync")
	check(link.is_in_sync(), "in sync again")
	check(
		await wait_until(func() -> bool: return link.latency_ms >= 0.0, 5.0), "ping/pong measured"
	)
	link.stop()
	finish()
