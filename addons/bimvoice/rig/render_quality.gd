class_name BimVoiceRenderQuality
extends Node
## Chooses rendering quality by what the renderer can do, so the desktop view stays usable on a
## software rasteriser (Mesa llvmpipe under Xvfb or a VM) as well as on a GPU.
##
## Levels, from best to cheapest: [constant HIGH] (MSAA 2x, sun shadows, full resolution),
## [constant MEDIUM] (no MSAA), [constant LOW] (no MSAA, no shadows, a plain sky colour instead of
## the sky shader), [constant LOWEST] (also the 3D view rendered at [constant LOWEST_SCALE] of the
## window and scaled up). In `auto` mode a
## software renderer starts at [constant LOW], a GPU at [constant HIGH]; then, once a building is
## shown, every [member window_s] seconds the measured frame rate is compared with
## [member min_fps] and the quality steps down while it is lower (never back up: a level that
## was too slow once would be again).
##
## The mode comes from the command line (`--quality auto|high|medium|low|lowest|fixed`) or the
## project setting `bimvoice/render/quality` (default `auto`); `fixed` is the old behaviour
## (the project's MSAA, shadows on, full resolution, never changed), kept for comparison.
## `--fps-log` prints the frame rate of every measuring window (for benchmarks).

## The quality level changed (see [method describe]).
signal level_changed(level: int, reason: String)

## MSAA 2x, shadows, full resolution.
const HIGH: int = 3
## No MSAA, shadows, full resolution.
const MEDIUM: int = 2
## No MSAA, no shadows, full resolution.
const LOW: int = 1
## No MSAA, no shadows, 3D at [constant LOWEST_SCALE] of the window.
const LOWEST: int = 0
## 3D resolution scale at [constant LOWEST].
const LOWEST_SCALE: float = 0.6
## Level names, by level.
const NAMES: PackedStringArray = ["lowest", "low", "medium", "high"]
## Words in a renderer's name that mean it rasterises on the CPU.
const SOFTWARE_RENDERERS: PackedStringArray = [
	"llvmpipe", "softpipe", "swiftshader", "lavapipe", "software rasterizer", "swrast"
]

## BimVoiceFrames per second below which `auto` lowers the quality.
@export var min_fps: float = 20.0
## Seconds of frames measured before each decision.
@export var window_s: float = 2.0

## "auto", a level name, or "fixed".
var mode: String = "auto"
## The level in use.
var level: int = HIGH
## Whether the renderer rasterises on the CPU.
var software: bool = false
## The renderer's name (GPU or software rasteriser).
var adapter: String = ""
## The sun whose shadows are switched (may be null).
var sun: DirectionalLight3D = null
## The environment whose sky is drawn as a plain colour at [constant LOW] and below (may be null).
var environment: Environment = null
## Viewports whose MSAA and 3D scale follow the level (the main window's is added on ready).
var viewports: Array[Viewport] = []
## BimVoiceFrames per second over the last measuring window (0 before the first).
var fps: float = 0.0
## Whether measurements may lower the level now (see [method start_measuring]).
var measuring: bool = false
## Print the frame rate of every measuring window.
var log_fps: bool = false

var _frames: int = 0
var _skip_windows: int = 0
var _window_start_usec: int = 0


func _ready() -> void:
	adapter = "%s / %s" % [
		RenderingServer.get_video_adapter_vendor(), RenderingServer.get_video_adapter_name()
	]
	software = is_software_renderer(adapter)
	if viewports.is_empty():
		viewports.append(get_viewport())
	var wanted: String = str(ProjectSettings.get_setting("bimvoice/render/quality", "auto"))
	var runtime: BimVoiceRuntime = get_node_or_null(^"/root/BimVoice") as BimVoiceRuntime
	if runtime != null and runtime.options.has("quality"):
		wanted = str(runtime.options["quality"])
	log_fps = runtime != null and runtime.options.has("fps-log")
	set_mode(wanted)


## Uses [param wanted] ("auto", "fixed" or a level name; anything else is "auto").
func set_mode(wanted: String) -> void:
	mode = wanted if (wanted == "fixed" or NAMES.has(wanted)) else "auto"
	if mode == "auto":
		set_level(LOW if software else HIGH, "software renderer" if software else "GPU renderer")
	elif mode == "fixed":
		set_level(HIGH, "fixed settings")
	else:
		set_level(NAMES.find(mode), "asked for")


## Applies [param new_level] to the sun and the viewports.
func set_level(new_level: int, reason: String) -> void:
	level = clampi(new_level, LOWEST, HIGH)
	var msaa: Viewport.MSAA = Viewport.MSAA_DISABLED
	if level == HIGH:
		msaa = ProjectSettings.get_setting("rendering/anti_aliasing/quality/msaa_3d", 1)
	for viewport: Viewport in viewports:
		if not is_instance_valid(viewport):
			continue
		viewport.msaa_3d = msaa
		viewport.scaling_3d_scale = LOWEST_SCALE if level == LOWEST else 1.0
	if sun != null:
		sun.shadow_enabled = level >= MEDIUM
	if environment != null:
		environment.background_mode = Environment.BG_SKY if level >= MEDIUM else Environment.BG_COLOR
	_restart_window()
	print("BimVoice: render quality %s (%s; %s)" % [NAMES[level], reason, adapter])
	level_changed.emit(level, reason)


## Lets measurements lower the level from now on (called once a building is shown); the first
## window is not judged (shaders compile and colliders are built then).
func start_measuring() -> void:
	measuring = true
	_skip_windows = 1
	_restart_window()


## Also applies the quality to [param viewport] (a spectator window).
func add_viewport(viewport: Viewport) -> void:
	viewports.append(viewport)
	set_level(level, "new view")


## A line for the HUD or a log: "low (software renderer, 14 fps)".
func describe() -> String:
	var parts: PackedStringArray = [NAMES[level]]
	if software:
		parts.append("software renderer")
	if fps > 0.0:
		parts.append("%d fps" % roundi(fps))
	return "%s (%s)" % [parts[0], ", ".join(parts.slice(1))] if parts.size() > 1 else parts[0]


## Whether a renderer name (vendor / adapter) is a CPU rasteriser.
static func is_software_renderer(name: String) -> bool:
	var lower: String = name.to_lower()
	for word: String in SOFTWARE_RENDERERS:
		if lower.contains(word):
			return true
	return false


func _process(_delta: float) -> void:
	_frames += 1
	var now: int = Time.get_ticks_usec()
	var seconds: float = (now - _window_start_usec) / 1e6
	if seconds < window_s:
		return
	fps = _frames / seconds
	_frames = 0
	_window_start_usec = now
	if log_fps:
		print("BimVoice: fps %.2f at %s" % [fps, NAMES[level]])
	if _skip_windows > 0:
		_skip_windows -= 1
		return
	if mode == "auto" and measuring and fps < min_fps and level > LOWEST:
		set_level(level - 1, "%.1f fps < %d" % [fps, roundi(min_fps)])


func _restart_window() -> void:
	_frames = 0
	_window_start_usec = Time.get_ticks_usec()
