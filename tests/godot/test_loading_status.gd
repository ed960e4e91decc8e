extends "res://tests/godot/scene_test.gd"
## While the agent loads a building the first time, the engine that connects hears how far it got:
## each status line the agent sends shows in the runtime's HUD text, on the desktop HUD and on the
## XR HUD panel, as it comes.
## -- --no-agent --agent tcp://127.0.0.1:PORT --expect PATH.json
## expect.json: {"first": line the agent sends on hello, "second": the line it sends next}

const TIMEOUT_S: float = 30.0


func run_test() -> void:
	var expect: Dictionary = read_json(args["expect"])
	var first: String = expect["first"]
	var second: String = expect["second"]
	var rt: BimVoiceRuntime = runtime()
	var desktop: BimVoiceDesktopHud = BimVoiceDesktopHud.new()
	root.add_child(desktop)
	desktop.bind(rt.hud)
	var panel: BimVoiceHudPanel3D = BimVoiceHudPanel3D.new()
	root.add_child(panel)
	panel.bind(rt.hud)
	var link: BimVoiceAgentLink = rt.connect_agent(args["agent"])
	check(await wait_for(func() -> bool: return rt.hud.status == first, "the first status line"),
		"HUD status shows the agent's first loading line: " + rt.hud.status)
	check(desktop.shown_text().contains(first), "desktop HUD shows it: " + desktop.shown_text())
	check(panel.shown_text().contains(first), "XR HUD panel shows it: " + panel.shown_text())
	check(await wait_for(func() -> bool: return rt.hud.status == second, "the next status line"),
		"HUD status follows the load: " + rt.hud.status)
	check(desktop.shown_text().contains(second), "desktop HUD follows: " + desktop.shown_text())
	check(panel.shown_text().contains(second), "XR HUD panel follows: " + panel.shown_text())
	check(not link.is_in_sync(), "no welcome while loading: not in sync")
	link.stop()
	desktop.queue_free()
	panel.queue_free()


func wait_for(condition: Callable, what: String) -> bool:
	var deadline: int = Time.get_ticks_msec() + int(TIMEOUT_S * 1000.0)
	while not condition.call():
		if Time.get_ticks_msec() > deadline:
			printerr("timed out waiting for " + what)
			return false
		await process_frame
	return true
