extends Node3D
## The main scene: starts XR when an OpenXR runtime is present (the interface initialises),
## the desktop rig otherwise (or with `--desktop`). With `--spectator` (or the project setting
## `bimvoice/spectator/window`) a second window shows the user from behind.

## Emitted when the OpenXR runtime went away mid-session and the app fell back to the desktop rig.
signal xr_lost(reason: String)

## View direction (Godot frame, from the building towards the eye) for the first desktop view.
const OVERVIEW_FROM: Vector3 = Vector3(1.0, 0.75, 1.2)
## Seconds the runtime's predicted display time may stand still in a running session before the
## runtime counts as lost (a killed runtime sends no event: its calls just fail).
const RUNTIME_STALL_S: float = 1.5

## The runtime (the `BimVoice` autoload).
var runtime: BimVoiceRuntime
## The active rig.
var rig: BimRig
## Whether XR started.
var xr_active: bool = false
## The spectator view, when shown.
var spectator: SpectatorView = null

var _xr: OpenXRInterface = null
var _xr_api: OpenXRAPIExtension = null
var _last_frame_time: int = 0
var _stalled_s: float = 0.0


func _ready() -> void:
	runtime = BimVoiceRuntime.find_in(get_tree())
	if runtime == null:
		runtime = BimVoiceRuntime.new()
		runtime.name = "BimVoice"
		add_child(runtime)
	add_child(BimEnvironment.new())
	xr_active = not runtime.options.has("desktop") and start_xr()
	if xr_active:
		rig = XRRig.new()
	else:
		rig = DesktopRig.new()
	rig.name = "Rig"
	print("BimVoice: %s mode" % ("XR" if xr_active else "desktop"))
	rig.runtime = runtime
	add_child(rig)
	rig.set_active(true)
	runtime.rig = rig
	if not xr_active:
		runtime.building_loaded.connect(_on_building_loaded)
		if runtime.building.is_loaded():
			_on_building_loaded(runtime.building.elements.size())
	var want_spectator: bool = ProjectSettings.get_setting("bimvoice/spectator/window", false)
	if runtime.options.has("spectator") or want_spectator:
		open_spectator()


## Initialises OpenXR; returns whether the headset is in use.
func start_xr() -> bool:
	var xr: XRInterface = XRServer.find_interface("OpenXR")
	if xr == null:
		return false
	if not xr.is_initialized() and not xr.initialize():
		return false
	get_viewport().use_xr = true
	DisplayServer.window_set_vsync_mode(DisplayServer.VSYNC_DISABLED)
	_xr = xr as OpenXRInterface
	if _xr != null:
		_xr.session_loss_pending.connect(_on_xr_lost.bind("session loss pending"))
		_xr.instance_exiting.connect(_on_xr_lost.bind("runtime exiting"))
		_xr_api = OpenXRAPIExtension.new()
	return true


func _process(delta: float) -> void:
	if not xr_active or _xr_api == null:
		return
	# A running session whose predicted display time stands still: the runtime stopped answering.
	var now: int = _xr_api.get_next_frame_time()
	var running: bool = _xr.get_session_state() >= OpenXRInterface.SESSION_STATE_SYNCHRONIZED
	if now != _last_frame_time or not running or now == 0:
		_last_frame_time = now
		_stalled_s = 0.0
		return
	_stalled_s += delta
	if _stalled_s >= RUNTIME_STALL_S:
		_on_xr_lost("no frames from the runtime for %.1f s" % _stalled_s)


## Leaves XR after the runtime was lost: the desktop rig takes over at the headset's last pose,
## the HUD says what happened, the agent link stays.
func _on_xr_lost(reason: String) -> void:
	if not xr_active:
		return
	xr_active = false
	print("BimVoice: XR runtime lost (%s), desktop mode" % reason)
	var last_pose: Transform3D = rig.head_transform()
	get_viewport().use_xr = false
	if _xr != null and _xr.is_initialized():
		_xr.uninitialize()
	_xr_api = null
	var old: BimRig = rig
	old.set_active(false)
	old.queue_free()
	var desktop: DesktopRig = DesktopRig.new()
	desktop.name = "DesktopRig"
	desktop.runtime = runtime
	add_child(desktop)
	desktop.set_active(true)
	desktop.look_from(last_pose.origin, last_pose.origin - last_pose.basis.z)
	rig = desktop
	runtime.rig = desktop
	runtime.hud.set_line("note", "headset runtime lost: desktop view")
	if spectator != null:
		spectator.rig = desktop
	xr_lost.emit(reason)


## Opens the spectator view in a second window.
func open_spectator() -> void:
	var window: Window = Window.new()
	window.name = "SpectatorWindow"
	window.title = "BimVoice - spectator"
	window.size = Vector2i(960, 540)
	spectator = (load("res://scenes/spectator.tscn") as PackedScene).instantiate() as SpectatorView
	spectator.rig = rig
	window.add_child(spectator)
	add_child(window)


func _on_building_loaded(_count: int) -> void:
	var desktop: DesktopRig = rig as DesktopRig
	if desktop == null or not runtime.applier.pose().is_empty():
		return
	var view: Array[Vector3] = BimEnvironment.three_quarter_view(
		runtime.building.world_aabb(), desktop.camera().fov, OVERVIEW_FROM
	)
	desktop.look_from(view[0], view[1])
