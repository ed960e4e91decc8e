@tool
extends EditorPlugin
## Editor side of the BimVoice addon: registers the `BimVoice` runtime autoload and the project
## settings the runtime reads, and removes the autoload again when the plugin is disabled.
## A project that lists the plugin as enabled (copied in, or enabled in a headless run) gets the
## autoload when the editor first loads the plugin; a runtime autoload under another name is kept.

const AUTOLOAD_NAME: String = "BimVoice"
const AUTOLOAD_PATH: String = "res://addons/bimvoice/runtime/bimvoice_runtime.gd"
const SETTINGS: Dictionary = {
	"bimvoice/apply/budget_usec": 2000,
	"bimvoice/link/endpoint": "tcp://127.0.0.1:5557",
	"bimvoice/link/token": "",
	"bimvoice/link/autoconnect": true,
	"bimvoice/spectator/window": false,
}


func _enter_tree() -> void:
	if not _has_runtime_autoload():
		_enable_plugin()


func _enable_plugin() -> void:
	if not _has_runtime_autoload():
		add_autoload_singleton(AUTOLOAD_NAME, AUTOLOAD_PATH)
	for key: String in SETTINGS:
		if not ProjectSettings.has_setting(key):
			ProjectSettings.set_setting(key, SETTINGS[key])
		ProjectSettings.set_initial_value(key, SETTINGS[key])
	ProjectSettings.save()


func _disable_plugin() -> void:
	remove_autoload_singleton(AUTOLOAD_NAME)


func _has_runtime_autoload() -> bool:
	for property: Dictionary in ProjectSettings.get_property_list():
		var key: String = property["name"]
		if key.begins_with("autoload/"):
			var path: String = str(ProjectSettings.get_setting(key)).trim_prefix("*")
			if path.begins_with("uid://"):
				path = ResourceUID.uid_to_path(path)
			if path == AUTOLOAD_PATH:
				return true
	return false
