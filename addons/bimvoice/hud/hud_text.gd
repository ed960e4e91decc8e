class_name BimVoiceHudText
extends RefCounted
## What the HUD shows: the link status, the last transcript, the last answer and what changed.
## Both HUDs ([BimVoiceHudPanel3D] in XR, [BimVoiceDesktopHud] on the desktop) render this text.

## Emitted when any line changed.
signal changed

## Link / agent status ("connected", "agent not running on ...").
var status: String = "starting"
## What the user said (partial while speaking).
var transcript: String = ""
## The agent's answer (or error).
var answer: String = ""
## What the last change did ("2 hidden, 1 painted"); cleared when the next command is sent.
var changes: String = ""
## What is selected now ("" when nothing is).
var selection: String = ""
## A transient note (push-to-talk state, missing prop assets, load errors).
var note: String = ""


## Moves a view from [param previous] (null: none) to [param next]: [param refresh] runs now and
## on every change of [param next] only. Returns [param next] (for the view to keep).
static func rebind(
	previous: BimVoiceHudText, next: BimVoiceHudText, refresh: Callable
) -> BimVoiceHudText:
	if previous != null and previous.changed.is_connected(refresh):
		previous.changed.disconnect(refresh)
	next.changed.connect(refresh)
	refresh.call()
	return next


## Sets one line by name ("status", "transcript", "answer", "changes", "selection", "note").
func set_line(line: String, text: String) -> void:
	if get(line) == text:
		return
	set(line, text)
	changed.emit()


## The HUD as lines of text.
func render() -> String:
	var lines: PackedStringArray = PackedStringArray()
	lines.append("Agent: " + status)
	if not transcript.is_empty():
		lines.append("You: " + transcript)
	if not answer.is_empty():
		lines.append("Answer: " + answer)
	if not changes.is_empty():
		lines.append("Changed: " + changes)
	if not selection.is_empty():
		lines.append("Selected: " + selection)
	if not note.is_empty():
		lines.append(note)
	return "\n".join(lines)
