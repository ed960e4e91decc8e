@icon("res://addons/bimvoice/icons/hud_panel.svg")
class_name DesktopHud
extends CanvasLayer
## Desktop overlay: the [HudText] in a panel at the top left and a command line at the bottom
## (Enter sends the typed command).

## The user typed a command and pressed Enter.
signal command_entered(text: String)

## The command line.
var command_line: LineEdit
var _label: Label
var _text: HudText = null


func _init() -> void:
	layer = 10
	var panel: PanelContainer = PanelContainer.new()
	panel.name = "Panel"
	panel.position = Vector2(12, 12)
	panel.custom_minimum_size = Vector2(460, 0)
	panel.modulate = Color(1, 1, 1, 0.9)
	add_child(panel)
	_label = Label.new()
	_label.name = "Text"
	_label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	_label.custom_minimum_size = Vector2(440, 0)
	panel.add_child(_label)
	command_line = LineEdit.new()
	command_line.name = "Command"
	command_line.placeholder_text = "Type a command (Enter) - hold V to talk - right drag to look"
	command_line.anchor_left = 0.0
	command_line.anchor_right = 1.0
	command_line.anchor_top = 1.0
	command_line.anchor_bottom = 1.0
	command_line.offset_left = 12
	command_line.offset_right = -12
	command_line.offset_top = -44
	command_line.offset_bottom = -12
	command_line.text_submitted.connect(_on_submitted)
	add_child(command_line)


func _ready() -> void:
	if _text == null:
		var runtime: BimVoiceRuntime = BimVoiceRuntime.find_in(get_tree())
		if runtime != null:
			bind(runtime.hud)


## Shows [param text] from now on.
func bind(text: HudText) -> void:
	_text = HudText.rebind(_text, text, _refresh)


## What the panel shows now.
func shown_text() -> String:
	return _label.text


## Whether the command line has the keyboard (then movement keys type instead).
func is_typing() -> bool:
	return command_line.has_focus()


func _on_submitted(text: String) -> void:
	var command: String = text.strip_edges()
	command_line.clear()
	command_line.release_focus()
	if not command.is_empty():
		command_entered.emit(command)


func _refresh() -> void:
	_label.text = _text.render() if _text != null else ""
