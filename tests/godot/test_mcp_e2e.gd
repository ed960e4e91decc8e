extends "res://tests/godot/scene_test.gd"
## End to end with an MCP client: the engine is linked to `python -m pyagent serve --mcp-http`
## (started by the pytest wrapper). Once in step it writes the ready file; the wrapper then hides
## the doors through the SDK's MCP client, and the change must arrive here as a delta that hides
## exactly those nodes. The reviewer's "undo" over the link brings them back.
## -- --no-agent --agent tcp://127.0.0.1:PORT --expect PATH.json --ready PATH
## expect.json: {"doors": [GlobalId]}

const TIMEOUT_S: float = 60.0

var rt: BimVoiceRuntime
var answers: Array[Dictionary] = []


func run_test() -> void:
	var expect: Dictionary = read_json(args["expect"])
	var doors: Array = expect["doors"]
	rt = runtime()
	rt.speak_answers = false
	rt.answer_received.connect(func(response: Dictionary) -> void: answers.append(response))
	var link: BimVoiceAgentLink = rt.connect_agent(args["agent"])
	if not check(await wait_for(func() -> bool: return link.is_in_sync(), "welcome"), "linked"):
		return
	if not check(await wait_for(rt.building.is_loaded, "model download"), "building downloaded"):
		return
	check_eq(rt.applier.current_state()["hidden"], [], "nothing hidden at the start")
	var seq_before: int = link.last_seq
	var ready: FileAccess = FileAccess.open(args["ready"], FileAccess.WRITE)
	ready.store_string(str(seq_before))
	ready.close()

	var doors_hidden: Callable = func() -> bool:
		for gid: Variant in doors:
			if not rt.applier.is_hidden(str(gid)):
				return false
		return true
	check(await wait_for(doors_hidden, "the MCP change"), "the MCP client's change arrived")
	check_eq(link.last_seq, seq_before + 1, "one delta")
	var hidden_nodes: Array[String] = []
	for gid: String in rt.building.element_ids():
		if not rt.building.get_element(gid).node.visible:
			hidden_nodes.append(gid)
	hidden_nodes.sort()
	var expected: Array[String] = []
	for gid: Variant in doors:
		expected.append(str(gid))
	expected.sort()
	check_eq(hidden_nodes, expected, "exactly the door nodes are hidden")

	var count: int = answers.size()
	check(rt.say("undo") >= 0, "said undo")
	await wait_for(func() -> bool: return answers.size() > count, "answer to undo")
	check(answers.size() > count and answers[count].get("ok", false), "undo done by the agent")
	check(await wait_for(func() -> bool: return not doors_hidden.call(), "doors back"), "undone")
	for gid: Variant in doors:
		check(rt.building.get_element(str(gid)).node.visible, "door visible again: " + str(gid))
	link.stop()


func wait_for(condition: Callable, what: String) -> bool:
	var deadline: int = Time.get_ticks_msec() + int(TIMEOUT_S * 1000.0)
	while not condition.call():
		if Time.get_ticks_msec() > deadline:
			printerr("timed out waiting for " + what)
			return false
		await process_frame
	return true
