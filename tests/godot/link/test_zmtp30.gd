## BimVoiceZmtpSocket against a hand-written ZMTP 3.0 peer (tests/link/test_godot_zmtp.py,
## --port=N):
## version 3.0 greeting, READY metadata, long frames, a PING command answered with PONG.
extends "res://tests/godot/link/link_test_base.gd"

var sock := BimVoiceZmtpSocket.new()
var inbox: Array = []


func run_tests() -> void:
	sock.message_received.connect(func(frames: Array) -> void: inbox.append(frames))
	sock.connect_to("127.0.0.1", arg_int("port"))
	check(await wait_until(sock.is_ready, 10.0, sock.poll), "handshake with a ZMTP 3.0 peer")
	check_eq(sock.peer_version, Vector2i(3, 0), "peer version 3.0")
	var long_frame := PackedByteArray()
	long_frame.resize(1000)
	long_frame.fill(0xAB)
	check(sock.send_message(["hi", long_frame]), "send")
	var two := await wait_until(func() -> bool: return inbox.size() >= 2, 10.0, sock.poll)
	check(two, "two messages back")
	if inbox.size() >= 2:
		var echo: Array = inbox[0]
		check_eq(echo.size(), 3, "echo frames")
		check_eq((echo[0] as PackedByteArray).get_string_from_utf8(), "echo30", "echo frame 0")
		check(echo[2] == long_frame, "1000-byte frame intact")
		# "bye" arrives only after the peer got our PONG to its PING.
		var bye := (inbox[1][0] as PackedByteArray).get_string_from_utf8()
		check_eq(bye, "bye", "message after PING/PONG")
	sock.send_message(["x"])
	await wait_until(func() -> bool: return sock.pending_bytes() == 0, 2.0, sock.poll)
	sock.close()
	finish()
