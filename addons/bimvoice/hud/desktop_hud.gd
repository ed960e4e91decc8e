@icon("res://addons/bimvoice/icons/hud_panel.svg")
class_name BimVoiceDesktopHud
extends CanvasLayer
## Desktop overlay: the [BimVoiceHudText] in a panel at the top left and a command line at the
## bottom.
## The command line takes the keyboard on Enter or on a printable key that is not a movement
## key (see [method start_typing]); Enter sends the typed command, Escape leaves the line.

## The user typed a command and pressed Enter.
signal command_entered(text: String)

## The command line.
var command_line: LineEdit
var _panel: PanelContainer
var _label: Label
var _text: BimVoiceHudText = null


func _init() -> void:
	layer = 10
	var panel: PanelContainer = PanelContainer.new()
	panel.name = "Panel"
	panel.position = Vector2(12, 12)
	panel.custom_minimum_size = Vector2(460, 0)
	panel.modulate = Color(1, 1, 1, 0.9)
	add_child(panel)
	_panel = panel
	_label = Label.new()
	_label.name = "Text"
	_label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	_label.custom_minimum_size = Vector2(440, 0)
	panel.add_child(_label)
	command_line = LineEdit.new()
	command_line.name = "Command"
	command_line.placeholder_text = (
		"Press Enter and type a command - hold V to talk - WASD/QE move - right drag to look"
	)
	command_line.anchor_left = 0.0
	command_line.anchor_right = 1.0
	command_line.anchor_top = 1.0
	command_line.anchor_bottom = 1.0
	command_line.offset_left = 12
	command_line.offset_right = -12
	command_line.offset_top = -44
	command_line.offset_bottom = -12
	command_line.text_submitted.connect(_on_submitted)
	command_line.gui_input.connect(_on_command_input)
	add_child(command_line)


func _ready() -> void:
	if _text == null:
		var runtime: BimVoiceRuntime = BimVoiceRuntime.find_in(get_tree())
		if runtime != null:
			bind(runtime.hud)


## Shows [param text] from now on.
func bind(text: BimVoiceHudText) -> void:
	_text = BimVoiceHudText.rebind(_text, text, _refresh)


## What the panel shows now.
func shown_text() -> String:
	return _label.text


## The HUD panel's rectangle in the window (pixels).
func panel_rect() -> Rect2:
	return _panel.get_global_rect()


## Whether the command line has the keyboard (then movement keys type instead).
func is_typing() -> bool:
	return command_line.has_focus()


## Gives the command line the keyboard, with [param first] typed into it (may be "").
func start_typing(first: String = "") -> void:
	command_line.grab_focus()
	if not first.is_empty():
		command_line.insert_text_at_caret(first)


## Takes the keyboard from the command line (what was typed stays).
func stop_typing() -> void:
	command_line.release_focus()


func _on_command_input(event: InputEvent) -> void:
	var key: InputEventKey = event as InputEventKey
	if key != null and key.pressed and key.keycode == KEY_ESCAPE:
		stop_typing()
		command_line.accept_event()


func _on_submitted(text: String) -> void:
	var command: String = text.strip_edges()
	command_line.clear()
	command_line.release_focus()
	if not command.is_empty():
		command_entered.emit(command)


func _refresh() -> void:
	_label.text = _text.render() if _text != null else ""
