extends SceneTree
## Base of the headless scene tests. A test script extends this file and implements
## `run_test()` (it may await frames); the process exits 0 when every check passed, else 1.
##
## godot --headless --xr-mode off --path . -s tests/godot/test_x.gd -- --no-agent [--key value ...]
## (`--no-agent` keeps the BimVoice autoload from connecting to an agent.)

## Command-line options after `--` (see [method BimVoiceRuntime.parse_args]).
var args: Dictionary = {}
## Number of checks run.
var checks: int = 0
## Failed checks.
var failures: PackedStringArray = PackedStringArray()


func _initialize() -> void:
	args = BimVoiceRuntime.parse_args(OS.get_cmdline_user_args())
	_main.call_deferred()


## Override: the test body.
func run_test() -> void:
	pass


## Records a check.
func check(condition: bool, what: String) -> bool:
	checks += 1
	if not condition:
		failures.append(what)
		printerr("FAIL: " + what)
	return condition


## Records an equality check.
func check_eq(actual: Variant, expected: Variant, what: String) -> bool:
	return check(actual == expected, "%s: got %s, expected %s" % [what, str(actual), str(expected)])


## Records a closeness check for floats or vectors.
func check_near(actual: Variant, expected: Variant, tolerance: float, what: String) -> bool:
	var close: bool
	if actual is float or actual is int:
		close = absf(float(actual) - float(expected)) <= tolerance
	elif actual is Vector3:
		close = (actual as Vector3).distance_to(expected) <= tolerance
	elif actual is Color:
		var a: Color = actual
		var b: Color = expected
		var d: Vector4 = Vector4(a.r - b.r, a.g - b.g, a.b - b.b, a.a - b.a).abs()
		close = maxf(maxf(d.x, d.y), maxf(d.z, d.w)) <= tolerance
	else:
		close = false
	return check(
		close, "%s: got %s, expected %s (+-%s)" % [what, str(actual), str(expected), tolerance]
	)


## Waits [param count] process frames.
func frames(count: int) -> void:
	for _i: int in count:
		await process_frame


## Waits physics frames.
func physics_frames(count: int) -> void:
	for _i: int in count:
		await physics_frame


## Reads a JSON file given on the command line.
func read_json(path: String) -> Variant:
	var text: String = FileAccess.get_file_as_string(path)
	return JSON.parse_string(text)


## The runtime autoload.
func runtime() -> BimVoiceRuntime:
	return BimVoiceRuntime.find_in(self)


func _main() -> void:
	await run_test()
	print("%d checks, %d failed" % [checks, failures.size()])
	quit(0 if failures.is_empty() and checks > 0 else 1)
