## BimVoiceAgentLink when no agent is running (--port=N, nothing listens there): one status line, no
## error
## spam, retries with backoff, requests fail at once with a clear result; then the agent appears
## (--server-after-s seconds later, started by the pytest wrapper) and the link connects by itself.
extends "res://tests/godot/link/link_test_base.gd"

var statuses: Array[String] = []
var results := {}
var welcomed := false


func run_tests() -> void:
	var link := BimVoiceAgentLink.new()
	link.endpoint = "tcp://127.0.0.1:%d" % arg_int("port")
	link.status_changed.connect(func(text: String) -> void: statuses.append(text))
	link.result.connect(func(id: int, r: Dictionary) -> void: results[id] = r)
	link.welcome.connect(func(_s: Dictionary, _m: Dictionary) -> void: welcomed = true)
	root.add_child(link)
	var sock := link.get_socket()
	sock.reconnect_max_ms = 400
	await wait_until(func() -> bool: return false, 1.5)
	var offline := "agent not running on 127.0.0.1:%d, retrying" % arg_int("port")
	check_eq(statuses.count(offline), 1, "the offline status is reported once, not per retry")
	check_eq(link.status_text, offline, "status text while offline")
	var id := link.say("hello?")
	check(id > 0, "say returns an id while offline")
	await process_frame
	await process_frame
	check(results.has(id), "the request fails at once")
	if results.has(id):
		check_eq(results[id]["ok"], false, "ok false")
		check(String(results[id]["error"]).contains("agent not running"), "clear error")
	check(not link.flush_pose(), "no pose sent while offline")
	# The pytest wrapper starts the agent now; the link must find it by itself.
	print("READY-FOR-AGENT")
	check(
		await wait_until(func() -> bool: return welcomed, 30.0), "connected once the agent started"
	)
	check(
		link.status_text.begins_with("agent ready"), "status after connecting: " + link.status_text
	)
	link.stop()
	finish()
