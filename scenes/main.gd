class_name BimVoiceMain
extends Node3D
## The main scene: starts XR when an OpenXR runtime is present (the interface initialises),
## the desktop rig otherwise (or with `--desktop`). With `--spectator` (or the project setting
## `bimvoice/spectator/window`) a second OS window shows the user from behind; it never takes
## the keyboard and never covers the HUD. Rendering quality follows the renderer
## ([BimVoiceRenderQuality], `--quality`). F12 saves a snapshot: what the user sees (and the
## spectator)
## as PNGs plus a JSON of the HUD and the view, under `--shots DIR` (default
## `user://snapshots`).

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
var rig: BimVoiceRig
## Whether XR started.
var xr_active: bool = false
## The spectator view, when shown.
var spectator: BimVoiceSpectatorView = null
## The spectator's window, when shown.
var spectator_window: Window = null
## Rendering quality (chosen by what the renderer can do).
var quality: BimVoiceRenderQuality

var _snapshots: int = 0

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
	var environment: BimVoiceEnvironment = BimVoiceEnvironment.new()
	add_child(environment)
	runtime.environment = environment
	environment.set_sun(runtime.applier.sun_state())
	quality = BimVoiceRenderQuality.new()
	quality.name = "BimVoiceRenderQuality"
	quality.sun = environment.sun
	quality.environment = environment.world_environment.environment
	add_child(quality)
	xr_active = not runtime.options.has("desktop") and start_xr()
	if xr_active:
		rig = BimVoiceXRRig.new()
	else:
		rig = BimVoiceDesktopRig.new()
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
	var old: BimVoiceRig = rig
	old.set_active(false)
	old.queue_free()
	var desktop: BimVoiceDesktopRig = BimVoiceDesktopRig.new()
	desktop.name = "BimVoiceDesktopRig"
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


## Opens the spectator view in its own OS window: beside the main window when the screen has
## room, else over the main window's top right corner (the HUD is top left, the command line at
## the bottom). The window never takes the keyboard.
func open_spectator() -> void:
	get_viewport().gui_embed_subwindows = false  # a real OS window, not an inset
	var window: Window = Window.new()
	window.name = "SpectatorWindow"
	window.title = "BimVoice - spectator"
	window.unfocusable = true
	window.transient = true
	var placed: Rect2i = spectator_rect(
		Rect2i(get_window().position, get_window().size),
		DisplayServer.screen_get_usable_rect(get_window().current_screen)
	)
	window.position = placed.position
	window.size = placed.size
	spectator = (
		(load("res://scenes/spectator.tscn") as PackedScene).instantiate() as BimVoiceSpectatorView
	)
	spectator.rig = rig
	window.add_child(spectator)
	window.window_input.connect(_on_spectator_input)
	add_child(window)
	spectator_window = window
	quality.add_viewport(window)


## Where the spectator window goes for a main window at [param main] on a screen area
## [param screen]: right of the main window when it fits there (at least 480 px wide), else
## inside the main window's top right corner at a third of its width, clear of the HUD panel.
static func spectator_rect(main: Rect2i, screen: Rect2i) -> Rect2i:
	var room: int = screen.end.x - main.end.x
	if room >= 480:
		var width: int = mini(room, 960)
		return Rect2i(Vector2i(main.end.x, main.position.y), Vector2i(width, width * 9 / 16))
	var inset: int = maxi(main.size.x / 3, 320)
	var size: Vector2i = Vector2i(inset, inset * 9 / 16)
	return Rect2i(Vector2i(main.end.x - size.x - 12, main.position.y + 12), size)


# Keys that reach the spectator window (a window manager may still give it the keyboard, or the
# pointer is over it) belong to the user's view.
func _on_spectator_input(event: InputEvent) -> void:
	if event is InputEventKey:
		get_viewport().push_input(event)


func _input(event: InputEvent) -> void:
	var key: InputEventKey = event as InputEventKey
	if key != null and key.pressed and not key.echo and key.keycode == KEY_F12:
		save_snapshot()
		get_viewport().set_input_as_handled()


## Saves `snapshot-NNN.png` (the main view), `snapshot-NNN-spectator.png` (when shown) and
## `snapshot-NNN.json` (HUD lines, command line, pose, selection, quality, window rectangles);
## the JSON is written last. Returns its path.
func save_snapshot() -> String:
	var dir: String = str(runtime.options.get("shots", "user://snapshots"))
	DirAccess.make_dir_recursive_absolute(dir)
	_snapshots += 1
	var base: String = "%s/snapshot-%03d" % [dir, _snapshots]
	get_viewport().get_texture().get_image().save_png(base + ".png")
	var hud: BimVoiceHudText = runtime.hud
	var info: Dictionary = {
		"hud": hud.render(),
		"lines":
		{
			"status": hud.status,
			"transcript": hud.transcript,
			"answer": hud.answer,
			"changes": hud.changes,
			"selection": hud.selection,
			"note": hud.note,
		},
		"pose": BimVoiceFrames.pose_from_transform(rig.head_transform()),
		"selected": Array(runtime.applier.selected_ids()),
		"quality": quality.describe(),
		"quality_level": quality.level,
		"fps": quality.fps,
		"window": _rect_json(Rect2i(get_window().position, get_window().size)),
	}
	var desktop: BimVoiceDesktopRig = rig as BimVoiceDesktopRig
	if desktop != null:
		info["typing"] = desktop.hud.is_typing()
		info["command"] = desktop.hud.command_line.text
		info["hud_panel"] = _rect_json(Rect2i(desktop.hud.panel_rect()))
	if spectator_window != null:
		spectator_window.get_texture().get_image().save_png(base + "-spectator.png")
		info["spectator_window"] = _rect_json(
			Rect2i(spectator_window.position, spectator_window.size)
		)
		info["spectator_embedded"] = spectator_window.is_embedded()
	var file: FileAccess = FileAccess.open(base + ".json.part", FileAccess.WRITE)
	file.store_string(JSON.stringify(info, " "))
	file.close()
	DirAccess.rename_absolute(base + ".json.part", base + ".json")
	print("BimVoice: snapshot ", ProjectSettings.globalize_path(base + ".json"))
	return base + ".json"


static func _rect_json(rect: Rect2i) -> Array:
	return [rect.position.x, rect.position.y, rect.size.x, rect.size.y]


func _on_building_loaded(_count: int) -> void:
	quality.start_measuring()
	var desktop: BimVoiceDesktopRig = rig as BimVoiceDesktopRig
	if desktop == null or not runtime.applier.pose().is_empty():
		return
	var view: Array[Vector3] = BimVoiceEnvironment.three_quarter_view(
		runtime.building.world_aabb(), desktop.camera().fov, OVERVIEW_FROM
	)
	desktop.look_from(view[0], view[1])
