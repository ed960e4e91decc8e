## The engine's end of the agent link ([code]pyagent/link/PROTOCOL.md[/code]).
##
## Add it to the scene tree: it connects to [code]python -m pyagent serve[/code], says hello,
## keeps the scene state in step ([signal welcome] with the full state, then numbered
## [signal delta]s; a gap in [code]seq[/code] triggers a resync), and sends what the user does:
## poses (at most one per physics frame, only when changed), utterances, selections and
## push-to-talk audio.
## Every coordinate it sends or receives is in the IFC frame: convert with [BimVoiceFrames].
## When the agent is not running it reports it once through [signal status_changed] and retries.
## Large messages (a delta touching thousands of elements) are parsed on a worker thread, so a
## frame only pays for applying them; messages are still handled strictly in arrival order.
class_name BimVoiceAgentLink
extends Node

## The agent sent the full scene state ([code]engine_state[/code]) and its model
## ({hash, name, size}).
signal welcome(state: Dictionary, model_info: Dictionary)
## The scene changed: [param changes] is an [code]engine_delta[/code] (apply props_removed first).
signal delta(seq: int, changes: Dictionary)
## The outcome of [method say], [method do_program] or an utterance: {ok, program, answer, value,
## error, transcript?, seq}. Always emitted exactly once per id, also when the link fails.
signal result(id: int, response: Dictionary)
## A partial transcript while the user speaks.
signal partial(id: int, text: String)
## The building's glb, as asked for with [method request_model].
signal model_bytes(hash: String, bytes: PackedByteArray)
## The rest of a building served as a first view: a glb of only the elements the model
## [param base] lacks; with them it is the model [param hash] ([code]model_part[/code]).
## [param info] is the message ({hash, base, name, size, elements}).
signal model_part(hash: String, base: String, bytes: PackedByteArray, info: Dictionary)
## A human-readable line about the link ("agent not running on ..., retrying", "agent ready").
signal status_changed(text: String)
## The agent refused a message ([param id] is -1 when the message had none).
signal agent_error(message: String, id: int)
## The link is up and in step with the agent (true) or lost (false).
signal link_state_changed(in_sync: bool)

const PROTOCOL_VERSION := 2
const POSE_EPSILON_M := 0.001
const POSE_EPSILON_DEG := 0.05
## Default of [member thread_parse_bytes].
const THREAD_PARSE_BYTES := 8192

## Where the agent listens, as [code]tcp://host:port[/code].
@export var endpoint := "tcp://127.0.0.1:5557"
## The shared secret for an agent started with [code]--token[/code] (empty for a local agent).
@export var token := ""
## Connect as soon as the node enters the tree.
@export var autostart := true
## Seconds between keep-alive pings (they also measure [member latency_ms]).
@export var ping_interval_s := 2.0
## Messages whose JSON frame has at least this many bytes are parsed on a worker thread.
@export var thread_parse_bytes := THREAD_PARSE_BYTES

## Called with the [code]changes[/code] of every delta as soon as it is parsed, on the parsing
## thread (a worker for large messages): it must be thread-safe. While [signal delta] is emitted
## for that delta, [member delta_prepared] holds what it returned (the runtime checks deltas
## this way off the main thread: [method BimVoiceChangeApplier.prepare_delta]).
var delta_preparer: Callable = Callable()
## See [member delta_preparer] (null outside a [signal delta] emission, or without a preparer).
var delta_prepared: Variant = null
## The latest status line (see [signal status_changed]).
var status_text := ""
## The last applied delta's [code]seq[/code]; -1 before the first welcome.
var last_seq := -1
## The model the agent serves ({hash, name, size}), from the last welcome.
var model_info: Dictionary = {}
## Round-trip time of the last ping, in milliseconds (-1 before the first pong).
var latency_ms := -1.0
## Counters, for tests and the HUD.
var stats := {"poses_sent": 0, "deltas": 0, "resyncs": 0, "messages": 0}

var _zmtp := BimVoiceZmtpSocket.new()
var _host := "127.0.0.1"
var _port := 5557
var _synced := false
var _next_id := 1
var _pending: Dictionary = {}
var _pose_wanted := false
var _pose: Dictionary = {}
var _sent_pose: Dictionary = {}
var _next_ping_ms := 0
var _ever_connected := false
# Messages received and not yet handled, oldest first.
var _inbox: Array[ParseJob] = []


## One received message: its JSON frame, parsed on this thread or on a worker
## ([member task] >= 0), and its binary frames.
class ParseJob:
	extends RefCounted
	var text: PackedByteArray
	var extra: Array
	var parsed: Variant = null
	var task: int = -1
	var preparer: Callable
	var prepared: Variant = null

	func _init(frames: Array, delta_preparer: Callable) -> void:
		text = frames[0]
		extra = frames.slice(1)
		preparer = delta_preparer

	## Parses the text, and prepares a delta's changes (on whichever thread calls it).
	func run() -> void:
		parsed = JSON.parse_string(text.get_string_from_utf8())
		text = PackedByteArray()
		if preparer.is_valid() and parsed is Dictionary and parsed.get("type") == "delta":
			var changes: Variant = parsed.get("changes")
			if changes is Dictionary:
				prepared = preparer.call(changes)

	## Whether [member parsed] is ready; [param wait] blocks until it is.
	func finish(wait: bool) -> bool:
		if task >= 0:
			if not wait and not WorkerThreadPool.is_task_completed(task):
				return false
			WorkerThreadPool.wait_for_task_completion(task)
			task = -1
		return true


func _init() -> void:
	_zmtp.connected.connect(_on_connected)
	_zmtp.disconnected.connect(_on_disconnected)
	_zmtp.connect_failed.connect(_on_connect_failed)
	_zmtp.message_received.connect(_on_message)


func _ready() -> void:
	if autostart:
		start()


func _exit_tree() -> void:
	stop()


func _process(_delta: float) -> void:
	poll()


func _physics_process(_delta: float) -> void:
	flush_pose()


## Start (or restart) connecting to [member endpoint].
func start() -> void:
	var parsed := parse_endpoint(endpoint)
	if parsed.is_empty():
		_set_status("bad agent endpoint %s (expected tcp://host:port)" % endpoint)
		return
	_host = parsed[0]
	_port = parsed[1]
	_set_status("connecting to the agent on %s" % _where())
	_zmtp.connect_to(_host, _port)


## Close the link for good (messages not yet handled are dropped).
func stop() -> void:
	_zmtp.close()
	for job: ParseJob in _inbox:
		job.finish(true)
	_inbox.clear()


## Do the link's work for this frame (called from [code]_process[/code]; call it yourself when the
## node is not processing, e.g. from a test's loop).
func poll() -> void:
	_zmtp.poll()
	_handle_inbox(false)
	if _synced and ping_interval_s > 0 and Time.get_ticks_msec() >= _next_ping_ms:
		_next_ping_ms = Time.get_ticks_msec() + int(ping_interval_s * 1000)
		_send({"type": "ping", "t": Time.get_ticks_usec() / 1e6})


## True when connected and in step with the agent's state.
func is_in_sync() -> bool:
	return _synced and _zmtp.is_ready()


## The underlying ZMTP socket (for tests and diagnostics).
func get_socket() -> BimVoiceZmtpSocket:
	return _zmtp


## Set the user's pose (IFC frame: position in metres, yaw degrees CCW from +X, pitch degrees up).
## It is sent on the next physics frame, and only if it changed.
func send_pose(position_ifc: Vector3, yaw_deg: float, pitch_deg: float) -> void:
	_pose = {
		"position": [position_ifc.x, position_ifc.y, position_ifc.z],
		"yaw": yaw_deg,
		"pitch": pitch_deg
	}
	_pose_wanted = true


## Set the user's pose from a Godot camera/head transform (converted with [BimVoiceFrames]).
func send_pose_from_transform(xform: Transform3D) -> void:
	var pose := BimVoiceFrames.pose_from_transform(xform)
	var p: Array = pose["position"]
	send_pose(Vector3(p[0], p[1], p[2]), pose["yaw"], pose["pitch"])


## Send the pending pose now if it changed since the last one sent (normally done each physics
## frame). Returns whether a pose message went out.
func flush_pose() -> bool:
	if not _pose_wanted or not is_in_sync():
		return false
	_pose_wanted = false
	if not _sent_pose.is_empty() and not _pose_changed(_sent_pose, _pose):
		return false
	if _send({"type": "pose", "pose": _pose}):
		_sent_pose = _pose
		stats["poses_sent"] += 1
		return true
	return false


## Send an utterance; returns its id ([signal result] comes with the same id).
func say(text: String) -> int:
	return _request({"type": "say", "text": text})


## Send an action program (a Dictionary following action.schema.json); returns its id.
func do_program(program: Dictionary) -> int:
	return _request({"type": "do", "program": program})


## Tell the agent what the user points at ("this", "that").
func send_select(ids: PackedStringArray) -> bool:
	return _send({"type": "select", "ids": Array(ids)})


## Push-to-talk pressed: returns the utterance id for [method audio_chunk] and [method audio_end].
func audio_start(sample_rate: int) -> int:
	return _request({"type": "audio_start", "sample_rate": sample_rate})


## A chunk of speech: PCM16 mono little-endian samples at the utterance's sample rate.
func audio_chunk(id: int, pcm16: PackedByteArray) -> bool:
	if not is_in_sync():
		return false
	return _zmtp.send_message([JSON.stringify({"type": "audio", "id": id}), pcm16])


## Push-to-talk released: the agent recognises the utterance and answers with [signal result].
func audio_end(id: int) -> bool:
	return _send({"type": "audio_end", "id": id})


## Ask for the building's glb ([signal model_bytes] answers).
func request_model(hash: String) -> bool:
	return _send({"type": "get_model", "hash": hash})


## [code]tcp://host:port[/code] -> [host, port]; empty when malformed.
static func parse_endpoint(text: String) -> Array:
	if not text.begins_with("tcp://"):
		return []
	var rest := text.substr(6)
	var colon := rest.rfind(":")
	if colon <= 0:
		return []
	var host := rest.substr(0, colon).trim_prefix("[").trim_suffix("]")
	var port_text := rest.substr(colon + 1)
	if not port_text.is_valid_int() or int(port_text) <= 0 or int(port_text) > 65535:
		return []
	if host == "*" or host == "localhost":
		host = "127.0.0.1"
	return [host, int(port_text)]


func _where() -> String:
	return "%s:%d" % [_host, _port]


func _set_status(text: String) -> void:
	if text == status_text:
		return
	status_text = text
	print("[BimVoiceAgentLink] ", text)
	status_changed.emit(text)


func _send(body: Dictionary) -> bool:
	if not _zmtp.is_ready():
		return false
	return _zmtp.send_message([JSON.stringify(body)])


func _request(body: Dictionary) -> int:
	var id := _next_id
	_next_id += 1
	body["id"] = id
	if is_in_sync() and _send(body):
		_pending[id] = body["type"]
	else:
		var why := "agent not running on %s" % _where()
		if _zmtp.is_ready():
			why = "the agent link is resynchronising"
		_fail_later(id, why)
	return id


func _fail_later(id: int, error: String) -> void:
	var response := {
		"ok": false,
		"program": null,
		"answer": error,
		"value": null,
		"error": error,
		"seq": last_seq
	}
	# Deferred, so the caller can connect to the signal with the id it got back.
	result.emit.call_deferred(id, response)


func _pose_changed(a: Dictionary, b: Dictionary) -> bool:
	for i in 3:
		if absf(float(a["position"][i]) - float(b["position"][i])) > POSE_EPSILON_M:
			return true
	return (
		absf(BimVoiceFrames.wrap_degrees(float(a["yaw"]) - float(b["yaw"]))) > POSE_EPSILON_DEG
		or absf(float(a["pitch"]) - float(b["pitch"])) > POSE_EPSILON_DEG
	)


func _hello() -> void:
	var body := {"type": "hello", "protocol": PROTOCOL_VERSION}
	if not token.is_empty():
		body["token"] = token
	_send(body)


func _on_connected() -> void:
	_ever_connected = true
	_set_status("connected to the agent on %s" % _where())
	_hello()


func _on_disconnected(reason: String) -> void:
	_handle_inbox(true)  # what arrived before the loss still counts (results first)
	var was_synced := _synced
	_synced = false
	_fail_pending("the link to the agent was lost (%s)" % reason)
	_set_status("lost the agent on %s (%s), retrying" % [_where(), reason])
	if was_synced:
		link_state_changed.emit(false)


func _on_connect_failed(_reason: String) -> void:
	if _ever_connected:
		_set_status("agent on %s went away, retrying" % _where())
	else:
		_set_status("agent not running on %s, retrying" % _where())


func _fail_pending(error: String) -> void:
	var ids := _pending.keys()
	_pending.clear()
	for id: int in ids:
		_fail_later(id, error)


func _on_message(frames: Array) -> void:
	stats["messages"] += 1
	var job := ParseJob.new(frames, delta_preparer)
	if job.text.size() >= thread_parse_bytes:
		job.task = WorkerThreadPool.add_task(job.run, false, "BimVoice: parse agent message")
	else:
		job.run()
	_inbox.append(job)
	if _inbox.size() == 1:
		_handle_inbox(false)


# Handles received messages in order, up to the first one still being parsed (all of them
# when [param wait]).
func _handle_inbox(wait: bool) -> void:
	while not _inbox.is_empty():
		var job: ParseJob = _inbox[0]
		if not job.finish(wait):
			return
		_inbox.pop_front()
		_handle(job)


func _handle(job: ParseJob) -> void:
	var parsed: Variant = job.parsed
	if not parsed is Dictionary:
		push_warning("BimVoiceAgentLink: the agent sent a message that is not a JSON object")
		return
	var msg: Dictionary = parsed
	match String(msg.get("type", "")):
		"welcome":
			_on_welcome(msg)
		"delta":
			_on_delta(msg, job.prepared)
		"result":
			var id := int(msg.get("id", -1))
			_pending.erase(id)
			var response := msg.duplicate()
			response.erase("type")
			result.emit(id, response)
		"partial":
			partial.emit(int(msg.get("id", -1)), String(msg.get("text", "")))
		"model":
			var data: PackedByteArray = job.extra[0] if not job.extra.is_empty() else PackedByteArray()
			model_bytes.emit(String(msg.get("hash", "")), data)
		"model_part":
			var part: PackedByteArray = job.extra[0] if not job.extra.is_empty() else PackedByteArray()
			model_part.emit(String(msg.get("hash", "")), String(msg.get("base", "")), part, msg)
		"status":
			_set_status(String(msg.get("text", "")))
		"pong":
			latency_ms = (Time.get_ticks_usec() / 1e6 - float(msg.get("t", 0.0))) * 1000.0
		"error":
			_on_agent_error(msg)
		_:
			pass  # a newer agent's message type: ignore


func _on_welcome(msg: Dictionary) -> void:
	if int(msg.get("protocol", -1)) != PROTOCOL_VERSION:
		var theirs: Variant = msg.get("protocol")
		_set_status("the agent speaks protocol %s, this engine %d" % [theirs, PROTOCOL_VERSION])
		return
	var was_synced := _synced
	_synced = true
	last_seq = int(msg.get("seq", 0))
	model_info = msg.get("model", {})
	_sent_pose = {}  # the agent may have restarted: send the pose again
	_pose_wanted = not _pose.is_empty()
	_next_ping_ms = Time.get_ticks_msec() + int(ping_interval_s * 1000)
	_set_status("agent ready on %s: %s" % [_where(), model_info.get("name", "")])
	welcome.emit(msg.get("state", {}), model_info)
	if not was_synced:
		link_state_changed.emit(true)


func _on_delta(msg: Dictionary, prepared: Variant) -> void:
	if not _synced:
		return  # a welcome with the full state is on its way
	var seq := int(msg.get("seq", -1))
	if seq <= last_seq:
		return  # already covered by the state we have
	if seq != last_seq + 1:
		# A gap: we missed a change. Ask for the full state again.
		stats["resyncs"] += 1
		_synced = false
		_set_status("missed changes %d..%d, resynchronising" % [last_seq + 1, seq - 1])
		_hello()
		return
	last_seq = seq
	stats["deltas"] += 1
	delta_prepared = prepared
	delta.emit(seq, msg.get("changes", {}))
	delta_prepared = null


func _on_agent_error(msg: Dictionary) -> void:
	var text := String(msg.get("message", ""))
	var id := int(msg.get("id", -1))
	if text.begins_with("not authorised"):
		_synced = false
		_set_status("the agent on %s refused this engine: %s" % [_where(), text])
	if _pending.has(id):
		_pending.erase(id)
		var response := {
			"ok": false,
			"program": null,
			"answer": text,
			"value": null,
			"error": text,
			"seq": last_seq
		}
		result.emit(id, response)
	agent_error.emit(text, id)
