@tool
extends EditorPlugin
## Editor side of the BimVoice addon: registers the `BimVoice` runtime autoload and the project
## settings the runtime reads, and removes the autoload again when the plugin is disabled.

const AUTOLOAD_NAME: String = "BimVoice"
const AUTOLOAD_PATH: String = "res://addons/bimvoice/runtime/bimvoice_runtime.gd"
const SETTINGS: Dictionary = {
	"bimvoice/apply/budget_usec": 2000,
	"bimvoice/link/endpoint": "tcp://127.0.0.1:5557",
	"bimvoice/link/autoconnect": true,
	"bimvoice/spectator/window": false,
}


func _enable_plugin() -> void:
	add_autoload_singleton(AUTOLOAD_NAME, AUTOLOAD_PATH)
	for key: String in SETTINGS:
		if not ProjectSettings.has_setting(key):
			ProjectSettings.set_setting(key, SETTINGS[key])
		ProjectSettings.set_initial_value(key, SETTINGS[key])
	ProjectSettings.save()


func _disable_plugin() -> void:
	remove_autoload_singleton(AUTOLOAD_NAME)
