extends RefCounted
## Client of Monado's remote driver (the `remote` builder): sets the simulated headset's and
## controllers' poses, buttons and thumbsticks, which reach the app as OpenXR poses and actions.
##
## Wire format: `struct r_remote_data` of Monado 25 ("mndrmt3", 376 bytes, little endian):
## header (8), head: two views (96) + centre pose (28) + valid flag (4), then the left and the right
## controller (120 bytes each: pose 28, velocities 24, hand curls 20, trigger 4, squeeze 8,
## thumbstick 8, trackpad 12, flags 16). The service sends its current packet on connect.

## The packet header of this protocol version.
const HEADER: String = "mndrmt3"
## Packet size (bytes).
const SIZE: int = 376
## Offset of the head's centre pose.
const HEAD_POSE: int = 8 + 96
## Offsets of the left and right controller records.
const HAND: Array[int] = [8 + 128, 8 + 128 + 120]
## Flag offsets inside a controller record.
const FLAGS: Dictionary = {
	"active": 105, "system_click": 106, "a_click": 108, "b_click": 110, "trigger_click": 112,
	"thumbstick_click": 114,
}

var _peer: StreamPeerTCP = StreamPeerTCP.new()
var _packet: PackedByteArray = PackedByteArray()


## Connects to the driver on [param port] and reads its current packet; returns "" or a problem.
func connect_to(tree: SceneTree, port: int, timeout_s: float = 10.0) -> String:
	if _peer.connect_to_host("127.0.0.1", port) != OK:
		return "cannot connect to 127.0.0.1:%d" % port
	var deadline: int = Time.get_ticks_msec() + int(timeout_s * 1000.0)
	while Time.get_ticks_msec() < deadline:
		_peer.poll()
		if _peer.get_status() == StreamPeerTCP.STATUS_CONNECTED and _peer.get_available_bytes() >= SIZE:
			_packet = _peer.get_data(SIZE)[1]
			var header: String = _packet.slice(0, 7).get_string_from_ascii()
			return "" if header == HEADER else "unexpected packet header '%s'" % header
		await tree.process_frame
	return "no packet from the remote driver within %.0f s" % timeout_s


## Sets the headset's pose (tracking space: Y up, -Z forward, metres).
func head(pose: Transform3D) -> void:
	_put_pose(HEAD_POSE, pose)


## Sets a controller's pose (tracking space) and marks it active.
func hand_pose(right: bool, pose: Transform3D) -> void:
	_put_pose(HAND[int(right)], pose)
	_packet[HAND[int(right)] + FLAGS["active"]] = 1


## Sets a controller's thumbstick (x right, y forward; -1..1).
func thumbstick(right: bool, value: Vector2) -> void:
	_packet.encode_float(HAND[int(right)] + 84, value.x)
	_packet.encode_float(HAND[int(right)] + 88, value.y)


## Presses or releases a button ("a_click", "trigger_click", ...; the trigger value follows).
func button(right: bool, name: String, pressed: bool) -> void:
	_packet[HAND[int(right)] + int(FLAGS[name])] = int(pressed)
	if name == "trigger_click":
		_packet.encode_float(HAND[int(right)] + 72, 1.0 if pressed else 0.0)


## Sends the packet.
func send() -> void:
	_peer.poll()
	_peer.put_data(_packet)


## Closes the connection.
func close() -> void:
	_peer.disconnect_from_host()


func _put_pose(offset: int, pose: Transform3D) -> void:
	var q: Quaternion = pose.basis.get_rotation_quaternion()
	var values: Array[float] = [q.x, q.y, q.z, q.w, pose.origin.x, pose.origin.y, pose.origin.z]
	for i: int in values.size():
		_packet.encode_float(offset + 4 * i, values[i])
