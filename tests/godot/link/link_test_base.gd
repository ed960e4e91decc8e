## Shared helpers for the link's GDScript tests: checks, a failure count that becomes the exit code,
## user arguments (after `--`) and a loop that polls until a condition holds or time runs out.
extends SceneTree

var failures := 0
var checks := 0
var args := {}


func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		var kv := arg.trim_prefix("--").split("=", true, 1)
		args[kv[0]] = kv[1] if kv.size() > 1 else "true"
	run_tests.call_deferred()


## Override: the test body (may await).
func run_tests() -> void:
	finish()


func check(cond: bool, what: String) -> void:
	checks += 1
	if not cond:
		failures += 1
		printerr("FAIL: ", what)


func check_eq(got: Variant, want: Variant, what: String) -> void:
	checks += 1
	if typeof(got) != typeof(want) or got != want:
		failures += 1
		printerr("FAIL: %s: got %s, want %s" % [what, str(got).left(300), str(want).left(300)])


func check_near(got: Variant, want: Variant, what: String, eps := 1e-4) -> void:
	checks += 1
	var ok := false
	if got is float and want is float:
		ok = absf(got - want) <= eps
	elif got is Vector3 and want is Vector3:
		ok = (got as Vector3).distance_to(want) <= eps
	elif got is Vector2 and want is Vector2:
		ok = (got as Vector2).distance_to(want) <= eps
	if not ok:
		failures += 1
		printerr("FAIL: %s: got %s, want %s" % [what, got, want])


## Poll `tick` each frame until `cond` is true or `timeout_s` passes; returns whether it held.
func wait_until(cond: Callable, timeout_s: float, tick: Callable = Callable()) -> bool:
	var deadline := Time.get_ticks_msec() + int(timeout_s * 1000)
	while Time.get_ticks_msec() < deadline:
		if tick.is_valid():
			tick.call()
		if cond.call():
			return true
		await process_frame
	return cond.call()


func arg_int(name: String, default := 0) -> int:
	return int(args.get(name, str(default)))


func finish() -> void:
	print("%d checks, %d failures" % [checks, failures])
	quit(1 if failures > 0 else 0)
