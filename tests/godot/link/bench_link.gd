## Link round-trip benchmark, engine side (driven by tests/bench/bench_link.py).
## --port=N --mode=echo|ping|do --n=COUNT [--paced=FPS]
## echo: a raw ZMTP round trip of a small frame against a pyzmq ROUTER that echoes;
## ping: a JSON ping -> pong through `pyagent serve`;
## do: an action program (hide/show one element) -> delta + result through `pyagent serve`.
## Tight mode polls in a loop, sleeping between empty polls for 1/8 of the time waited so far
## (20..500 us: fine-grained for fast replies, and a busy loop would starve the agent of CPU on a
## small machine); paced mode polls once per frame at FPS, as the engine does.
## Prints one line "BENCH <json>" with the round-trip times in microseconds.
extends "res://tests/godot/link/link_test_base.gd"

var sock := BimVoiceZmtpSocket.new()
var inbox: Array = []


func run_tests() -> void:
	var mode := String(args.get("mode", "echo"))
	var n := arg_int("n", 1000)
	var paced := arg_int("paced", 0)
	if paced > 0:
		Engine.max_fps = paced
	sock.message_received.connect(func(frames: Array) -> void: inbox.append(frames))
	sock.connect_to("127.0.0.1", arg_int("port"))
	if not await wait_until(sock.is_ready, 20.0, sock.poll):
		printerr("cannot connect")
		quit(2)
		return
	var target := String(args.get("target", ""))
	if mode != "echo":
		sock.send_message([JSON.stringify({"type": "hello", "protocol": 2})])
		await _reply(paced)
	var rtts: Array[int] = []
	var warmup := floori(n / 10.0)  # the first tenth warms up
	for i in n + warmup:
		var t0 := Time.get_ticks_usec()
		match mode:
			"echo":
				sock.send_message(["x".repeat(64)])
				await _reply(paced)
			"ping":
				sock.send_message([JSON.stringify({"type": "ping", "t": i})])
				var pong: Variant = JSON.parse_string((await _reply(paced))[0].get_string_from_utf8())
				assert(pong is Dictionary)
			"do":
				var op := "hide" if i % 2 == 0 else "show"
				var prog := {"steps": [{"op": op, "target": {"ids": [target]}}]}
				sock.send_message([JSON.stringify({"type": "do", "id": i + 1, "program": prog})])
				while true:  # delta first, then the result
					var body: Variant = JSON.parse_string(
						(await _reply(paced))[0].get_string_from_utf8()
					)
					if body is Dictionary and body.get("type") == "result":
						break
		if i >= warmup:
			rtts.append(Time.get_ticks_usec() - t0)
	print("BENCH ", JSON.stringify({"mode": mode, "paced": paced, "rtt_us": rtts}))
	sock.close()
	quit(0)


func _reply(paced: int) -> Array:
	var since := Time.get_ticks_usec()
	while inbox.is_empty():
		sock.poll()
		if inbox.is_empty():
			if paced > 0:
				await process_frame
			else:
				OS.delay_usec(clampi((Time.get_ticks_usec() - since) / 8, 20, 500))
	return inbox.pop_front()
