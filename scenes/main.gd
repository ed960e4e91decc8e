extends Node3D
## The main scene: starts XR when an OpenXR runtime is present (the interface initialises),
## the desktop rig otherwise (or with `--desktop`). With `--spectator` (or the project setting
## `bimvoice/spectator/window`) a second window shows the user from behind.

## View direction (Godot frame, from the building towards the eye) for the first desktop view.
const OVERVIEW_FROM: Vector3 = Vector3(1.0, 0.75, 1.2)

## The runtime (the `BimVoice` autoload).
var runtime: BimVoiceRuntime
## The active rig.
var rig: BimRig
## Whether XR started.
var xr_active: bool = false
## The spectator view, when shown.
var spectator: SpectatorView = null


func _ready() -> void:
	runtime = get_node_or_null(^"/root/BimVoice") as BimVoiceRuntime
	if runtime == null:
		runtime = BimVoiceRuntime.new()
		runtime.name = "BimVoice"
		add_child(runtime)
	var environment: BimEnvironment = BimEnvironment.new()
	add_child(environment)
	runtime.environment = environment
	environment.set_sun(runtime.applier.sun_state())
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
	return true


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
