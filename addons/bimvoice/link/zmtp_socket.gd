## A ZeroMQ DEALER socket speaking ZMTP 3.0/3.1 (NULL mechanism) over [StreamPeerTCP].
##
## Fully non-blocking: call [method poll] once per frame (from [code]_process[/code]); each poll
## does a bounded amount of work ([member max_read_per_poll] bytes read,
## [member max_messages_per_poll] messages delivered), buffers partial reads, and writes without
## ever waiting on the socket.
## When the peer goes away (or is not there yet) it reconnects with exponential backoff.
## Messages are [Array]s of [PackedByteArray] frames, as with any ZeroMQ multipart message.
class_name BimVoiceZmtpSocket
extends RefCounted

## The handshake completed; messages can be sent.
signal connected
## A ready connection ended (the socket will reconnect unless [method close] was called).
signal disconnected(reason: String)
## A connection attempt failed before the handshake completed (it will be retried).
signal connect_failed(reason: String)
## A complete multipart message arrived; [param frames] holds one [PackedByteArray] per frame.
signal message_received(frames: Array)

enum State { IDLE, CONNECTING, GREETING, HANDSHAKE, READY, WAITING }

const FLAG_MORE := 0x01
const FLAG_LONG := 0x02
const FLAG_COMMAND := 0x04
const GREETING_SIZE := 64
const OUR_MAJOR := 3
const OUR_MINOR := 1
const SOCKET_TYPE := "DEALER"
const COMPATIBLE_PEERS := ["ROUTER", "DEALER"]

## Bytes read from the TCP socket in one [method poll] at most.
var max_read_per_poll: int = 4 << 20
## Complete messages delivered by one [method poll] at most (the rest wait for the next poll).
var max_messages_per_poll: int = 64
## A frame larger than this closes the connection (protects memory against a broken peer).
var max_frame_size: int = 512 << 20
## Bytes waiting to be written at most; [method send_message] refuses beyond this.
var max_send_queue: int = 64 << 20
## Time allowed for TCP connect plus ZMTP handshake.
var handshake_timeout_ms: int = 5000
## First and largest delay between reconnection attempts.
var reconnect_min_ms: int = 250
var reconnect_max_ms: int = 5000
## The peer's ZMTP version once the greeting arrived (3.0 or 3.1).
var peer_version := Vector2i.ZERO
## The peer's READY metadata (property name -> String value).
var peer_metadata: Dictionary = {}

var _state: State = State.IDLE
var _tcp: StreamPeerTCP
var _host := ""
var _port := 0
var _rx := PackedByteArray()
var _rx_pos := 0
var _tx := PackedByteArray()
var _tx_pos := 0
var _parts: Array = []
var _deadline_ms := 0
var _retry_at_ms := 0
var _backoff_ms := 250
var _generation := 0


## Start connecting to [param host]:[param port] (an IP address or a host name); returns at once.
func connect_to(host: String, port: int) -> void:
	close()
	_host = host
	_port = port
	_backoff_ms = reconnect_min_ms
	_open()


## Stop for good (no reconnection). Emits [signal disconnected] if a connection was ready.
func close() -> void:
	var was_ready := _state == State.READY
	_drop()
	_state = State.IDLE
	if was_ready:
		disconnected.emit("closed")


## True once the handshake completed: messages sent now reach the peer.
func is_ready() -> bool:
	return _state == State.READY


## The current [enum State].
func get_state() -> State:
	return _state


## Bytes queued for writing and not yet accepted by the operating system.
func pending_bytes() -> int:
	return _tx.size() - _tx_pos


## Queue a multipart message (each item a [PackedByteArray] or a [String], sent as UTF-8) and start
## writing it. Returns false (and sends nothing) when not connected or the send queue is full.
func send_message(frames: Array) -> bool:
	if _state != State.READY or frames.is_empty():
		return false
	var out := PackedByteArray()
	for i in frames.size():
		var item: Variant = frames[i]
		var body: PackedByteArray
		if item is PackedByteArray:
			body = item
		elif item is String:
			body = (item as String).to_utf8_buffer()
		else:
			push_error(
				"BimVoiceZmtpSocket.send_message: frame %d is neither PackedByteArray nor String" % i
			)
			return false
		out.append_array(_frame_header(FLAG_MORE if i < frames.size() - 1 else 0, body.size()))
		out.append_array(body)
	if pending_bytes() + out.size() > max_send_queue:
		return false
	_tx.append_array(out)
	_flush()
	return _state == State.READY


## Do one bounded step of work: connect, handshake, write what is queued, read and deliver messages.
func poll() -> void:
	match _state:
		State.IDLE:
			return
		State.WAITING:
			if Time.get_ticks_msec() >= _retry_at_ms:
				_open()
			return
		State.CONNECTING:
			_tcp.poll()
			var status := _tcp.get_status()
			if status == StreamPeerTCP.STATUS_CONNECTED:
				_tcp.set_no_delay(true)
				_state = State.GREETING
				_tx.append_array(_greeting())
			elif status != StreamPeerTCP.STATUS_CONNECTING:
				_fail("connection refused")
				return
			elif Time.get_ticks_msec() > _deadline_ms:
				_fail("connection timed out")
				return
	if _state in [State.GREETING, State.HANDSHAKE, State.READY]:
		_tcp.poll()
		if _tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			_fail("connection closed by the peer")
			return
		_flush()
		if not _read():
			return
		_parse()
		if _state in [State.GREETING, State.HANDSHAKE] and Time.get_ticks_msec() > _deadline_ms:
			_fail("ZMTP handshake timed out")


func _open() -> void:
	_drop()
	_tcp = StreamPeerTCP.new()
	_deadline_ms = Time.get_ticks_msec() + handshake_timeout_ms
	var err := _tcp.connect_to_host(_host, _port)
	if err != OK:
		_fail("cannot connect to %s:%d (%s)" % [_host, _port, error_string(err)])
		return
	_state = State.CONNECTING


func _drop() -> void:
	_generation += 1
	if _tcp != null:
		_tcp.disconnect_from_host()
		_tcp = null
	_rx = PackedByteArray()
	_rx_pos = 0
	_tx = PackedByteArray()
	_tx_pos = 0
	_parts.clear()
	peer_version = Vector2i.ZERO
	peer_metadata = {}


func _fail(reason: String) -> void:
	var was_ready := _state == State.READY
	_drop()
	_state = State.WAITING
	_retry_at_ms = Time.get_ticks_msec() + _backoff_ms
	if was_ready:
		_backoff_ms = reconnect_min_ms
		_retry_at_ms = Time.get_ticks_msec() + _backoff_ms
		disconnected.emit(reason)
	else:
		_backoff_ms = mini(_backoff_ms * 2, reconnect_max_ms)
		connect_failed.emit(reason)


func _flush() -> void:
	while _tx_pos < _tx.size():
		var chunk := _tx.slice(_tx_pos, mini(_tx.size(), _tx_pos + (1 << 20)))
		var res: Array = _tcp.put_partial_data(chunk)
		if res[0] != OK:
			_fail("write failed (%s)" % error_string(res[0]))
			return
		_tx_pos += int(res[1])
		if int(res[1]) < chunk.size():
			break  # the OS buffer is full: the rest goes out on a later poll
	if _tx_pos >= _tx.size():
		_tx.clear()
		_tx_pos = 0
	elif _tx_pos > (1 << 20):
		_tx = _tx.slice(_tx_pos)
		_tx_pos = 0


func _read() -> bool:
	var budget := max_read_per_poll
	while budget > 0:
		var available := _tcp.get_available_bytes()
		if available <= 0:
			break
		var res: Array = _tcp.get_partial_data(mini(available, budget))
		if res[0] != OK:
			_fail("read failed (%s)" % error_string(res[0]))
			return false
		var data: PackedByteArray = res[1]
		if data.is_empty():
			break
		_rx.append_array(data)
		budget -= data.size()
	return true


func _parse() -> void:
	var generation := _generation
	var delivered := 0
	while _generation == generation:
		var avail := _rx.size() - _rx_pos
		if _state == State.GREETING:
			if avail < GREETING_SIZE:
				break
			if not _on_greeting(_rx.slice(_rx_pos, _rx_pos + GREETING_SIZE)):
				return
			_rx_pos += GREETING_SIZE
			continue
		if delivered >= max_messages_per_poll or avail < 2:
			break
		var flags := _rx[_rx_pos]
		var header := 9 if flags & FLAG_LONG else 2
		if avail < header:
			break
		var size := 0
		if flags & FLAG_LONG:
			for i in range(1, 9):
				size = (size << 8) | _rx[_rx_pos + i]
		else:
			size = _rx[_rx_pos + 1]
		if size < 0 or size > max_frame_size:
			_fail("frame of %d bytes exceeds the limit of %d" % [size, max_frame_size])
			return
		if avail < header + size:
			break
		var body := _rx.slice(_rx_pos + header, _rx_pos + header + size)
		_rx_pos += header + size
		if flags & FLAG_COMMAND:
			if not _on_command(body):
				return
		elif _state != State.READY:
			_fail("the peer sent a message before READY")
			return
		else:
			_parts.append(body)
			if (flags & FLAG_MORE) == 0:
				var message := _parts
				_parts = []
				delivered += 1
				message_received.emit(message)
	if _generation != generation:
		return  # a handler closed or reset the socket; its buffers are gone
	if _rx_pos >= _rx.size():
		_rx.clear()
		_rx_pos = 0
	elif _rx_pos > (1 << 16):
		_rx = _rx.slice(_rx_pos)
		_rx_pos = 0


func _greeting() -> PackedByteArray:
	var g := PackedByteArray()
	g.resize(GREETING_SIZE)
	g.fill(0)
	g[0] = 0xFF
	g[9] = 0x7F
	g[10] = OUR_MAJOR
	g[11] = OUR_MINOR
	var mech := "NULL".to_ascii_buffer()
	for i in mech.size():
		g[12 + i] = mech[i]
	g[32] = 0  # as-server: we are the client
	return g


func _on_greeting(g: PackedByteArray) -> bool:
	if g[0] != 0xFF or (g[9] & 0x01) != 0x01:
		_fail("the peer is not a ZeroMQ socket (bad greeting signature)")
		return false
	if g[10] < 3:
		_fail("the peer speaks ZMTP %d.x; 3.0 or later is needed" % g[10])
		return false
	peer_version = Vector2i(g[10], g[11])
	var mechanism := g.slice(12, 32).get_string_from_ascii()
	if mechanism != "NULL":
		_fail("the peer wants security mechanism %s; only NULL is supported" % mechanism)
		return false
	_state = State.HANDSHAKE
	var ready := _command("READY", _metadata({"Socket-Type": SOCKET_TYPE, "Identity": ""}))
	_tx.append_array(ready)
	_flush()
	return _state == State.HANDSHAKE


func _on_command(body: PackedByteArray) -> bool:
	if body.is_empty() or body.size() < 1 + body[0]:
		_fail("malformed ZMTP command")
		return false
	var name := body.slice(1, 1 + body[0]).get_string_from_ascii()
	var data := body.slice(1 + body[0])
	match name:
		"READY":
			return _on_ready(data)
		"ERROR":
			var reason := (
				data.slice(1, 1 + data[0]).get_string_from_utf8() if data.size() > 0 else ""
			)
			_fail("the peer refused the connection: %s" % reason)
		"PING":
			# ZMTP 3.1 heartbeat: answer PONG with the ping's context (after the 2-byte TTL).
			var context := data.slice(2) if data.size() > 2 else PackedByteArray()
			_tx.append_array(_command("PONG", context))
			_flush()
		_:
			pass  # PONG, SUBSCRIBE, ... mean nothing to a DEALER; ignore them
	return _state in [State.HANDSHAKE, State.READY]


func _on_ready(data: PackedByteArray) -> bool:
	var meta: Variant = _parse_metadata(data) if _state == State.HANDSHAKE else null
	if meta == null:
		_fail("unexpected or malformed READY command")
		return false
	peer_metadata = meta
	var peer_type := String(peer_metadata.get("Socket-Type", ""))
	if not peer_type.to_upper() in COMPATIBLE_PEERS:
		_fail("a DEALER cannot talk to a %s socket" % peer_type)
		return false
	_state = State.READY
	_backoff_ms = reconnect_min_ms
	connected.emit()
	return true


func _frame_header(flags: int, size: int) -> PackedByteArray:
	var h := PackedByteArray()
	if size <= 255:
		h.resize(2)
		h[0] = flags
		h[1] = size
	else:
		h.resize(9)
		h[0] = flags | FLAG_LONG
		for i in 8:
			h[8 - i] = (size >> (8 * i)) & 0xFF
	return h


func _command(name: String, data: PackedByteArray) -> PackedByteArray:
	var body := PackedByteArray([name.length()])
	body.append_array(name.to_ascii_buffer())
	body.append_array(data)
	var out := _frame_header(FLAG_COMMAND, body.size())
	out.append_array(body)
	return out


func _metadata(props: Dictionary) -> PackedByteArray:
	var out := PackedByteArray()
	for key: String in props:
		var value: PackedByteArray = String(props[key]).to_utf8_buffer()
		out.append(key.length())
		out.append_array(key.to_ascii_buffer())
		for i in 4:
			out.append((value.size() >> (8 * (3 - i))) & 0xFF)
		out.append_array(value)
	return out


func _parse_metadata(data: PackedByteArray) -> Variant:
	var meta := {}
	var pos := 0
	while pos < data.size():
		var name_len := data[pos]
		if pos + 1 + name_len + 4 > data.size():
			return null
		var name := data.slice(pos + 1, pos + 1 + name_len).get_string_from_ascii()
		pos += 1 + name_len
		var value_len := 0
		for i in 4:
			value_len = (value_len << 8) | data[pos + i]
		pos += 4
		if pos + value_len > data.size():
			return null
		meta[name] = data.slice(pos, pos + value_len).get_string_from_utf8()
		pos += value_len
	return meta
