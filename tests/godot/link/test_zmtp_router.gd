## BimVoiceZmtpSocket against a real pyzmq ROUTER run by tests/link/test_godot_zmtp.py (--port=N).
## The router echoes every message back as ["echo", *frames]; "restart" makes it close and rebind;
## "big" makes it answer with one 3 MB frame. Heartbeats (ZMTP PING) are on at the router.
extends "res://tests/godot/link/link_test_base.gd"

var sock := BimVoiceZmtpSocket.new()
var inbox: Array = []
var events: Array[String] = []


func run_tests() -> void:
	sock.message_received.connect(func(frames: Array) -> void: inbox.append(frames))
	sock.connected.connect(func() -> void: events.append("connected"))
	sock.disconnected.connect(func(_why: String) -> void: events.append("disconnected"))
	# Build the expected data before connecting: a long stall would miss the router's heartbeats.
	var f300 := _pattern(300, 1)
	var f70k := _pattern(70000, 3)
	var f3m := _pattern(3 * 1024 * 1024, 7)
	var port := arg_int("port")
	sock.connect_to("127.0.0.1", port)
	check(await wait_until(sock.is_ready, 10.0, sock.poll), "handshake with the pyzmq ROUTER")
	check_eq(sock.peer_metadata.get("Socket-Type"), "ROUTER", "peer READY says ROUTER")
	check_eq(sock.peer_version, Vector2i(3, 1), "libzmq greets with ZMTP 3.1")

	# Multipart with a short frame, a long frame (> 255 bytes), a 70 kB frame and an empty frame.
	check(sock.send_message(["multi", f300, f70k, PackedByteArray()]), "send multipart")
	var reply := await _next()
	check_eq(reply.size(), 5, "echo has 5 frames")
	if reply.size() == 5:
		check_eq((reply[0] as PackedByteArray).get_string_from_utf8(), "echo", "frame 0")
		check_eq((reply[1] as PackedByteArray).get_string_from_utf8(), "multi", "frame 1")
		check(reply[2] == f300, "300-byte frame intact")
		check(reply[3] == f70k, "70 kB frame intact")
		check_eq((reply[4] as PackedByteArray).size(), 0, "empty frame intact")

	# A 3 MB frame from the router arrives across several polls.
	sock.max_read_per_poll = 256 * 1024
	check(sock.send_message(["big"]), "ask for a big frame")
	var big := await _next()
	check_eq(big.size(), 1, "big reply is one frame")
	if big.size() == 1:
		check_eq((big[0] as PackedByteArray).size(), 3 * 1024 * 1024, "3 MB frame size")
		check(big[0] == f3m, "3 MB frame content")

	# Many messages in a row keep their order; delivery is bounded per poll.
	sock.max_messages_per_poll = 8
	for i in 200:
		sock.send_message(["n", str(i)])
	var got: Array[int] = []
	var deadline := Time.get_ticks_msec() + 10000
	while got.size() < 200 and Time.get_ticks_msec() < deadline:
		var before := inbox.size()
		sock.poll()
		check(inbox.size() - before <= 8, "at most max_messages_per_poll per poll")
		while not inbox.is_empty():
			got.append(int((inbox.pop_front()[2] as PackedByteArray).get_string_from_utf8()))
		await process_frame
	var want: Array[int] = []
	for i in 200:
		want.append(i)
	check_eq(got, want, "200 messages in order")

	# Heartbeats: the router pings every 100 ms and drops us after 2 s without PONG.
	await wait_until(func() -> bool: return false, 3.0, sock.poll)
	check(not "disconnected" in events, "still connected after 3 s of ZMTP heartbeats")
	check(sock.send_message(["still-there"]), "send after heartbeats")
	var still := await _next()
	check(
		still.size() == 2 and (still[1] as PackedByteArray).get_string_from_utf8() == "still-there",
		"echo after heartbeats"
	)

	# The router restarts: we see the disconnect, reconnect by ourselves and talk again.
	sock.send_message(["restart"])
	check(
		await wait_until(func() -> bool: return "disconnected" in events, 10.0, sock.poll),
		"disconnected when the router closed"
	)
	check(not sock.send_message(["lost"]), "send refused while disconnected")
	check(await wait_until(sock.is_ready, 15.0, sock.poll), "reconnected after the restart")
	check_eq(events.count("connected"), 2, "connected twice")
	sock.send_message(["after-restart", f300])
	var after := await _next()
	check(after.size() == 3 and after[2] == f300, "round trip after the restart")
	sock.send_message(["done"])
	await wait_until(func() -> bool: return sock.pending_bytes() == 0, 2.0, sock.poll)
	sock.close()
	finish()


func _next(timeout_s := 10.0) -> Array:
	if not await wait_until(func() -> bool: return not inbox.is_empty(), timeout_s, sock.poll):
		check(false, "no reply within %.0f s" % timeout_s)
		return []
	return inbox.pop_front()


static func _pattern(n: int, seed: int) -> PackedByteArray:
	var out := PackedByteArray()
	out.resize(n)
	for i in n:
		out[i] = (i * seed + (i >> 8)) & 0xFF
	return out
