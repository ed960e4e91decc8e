class_name BimVoiceMicCapture
extends Node
## Push-to-talk microphone capture: an [AudioStreamMicrophone] plays into a muted "Mic" bus
## whose [AudioEffectCapture] is drained every frame, resampled to 16 kHz mono PCM16 and handed
## out in chunks through [signal chunk_ready].
##
## Needs `audio/driver/enable_input=true` in the project settings (set in project.godot) and a
## working audio input; [method start] says why not otherwise.

## A chunk of speech: PCM16 mono little-endian at [member sample_rate].
signal chunk_ready(pcm: PackedByteArray)
## Capture started (true) or stopped (false).
signal capturing_changed(capturing: bool)

## Name of the audio bus the microphone plays into.
const BUS_NAME: String = "Mic"

## Output sample rate (Hz).
@export var sample_rate: int = 16000
## Seconds of audio per chunk.
@export var chunk_seconds: float = 0.1

var _player: AudioStreamPlayer = null
var _capture: AudioEffectCapture = null
var _resampler: BimVoicePcmResampler = null
var _buffer: PackedByteArray = PackedByteArray()
var _capturing: bool = false


func _ready() -> void:
	_ensure_bus()


## Whether capture is on.
func is_capturing() -> bool:
	return _capturing


## Starts capturing. Returns "" or why capture cannot start.
func start() -> String:
	if _capturing:
		return ""
	if not ProjectSettings.get_setting("audio/driver/enable_input", false):
		return "microphone input is disabled (audio/driver/enable_input)"
	_ensure_bus()
	_resampler = BimVoicePcmResampler.new(AudioServer.get_mix_rate(), float(sample_rate))
	_buffer.clear()
	_capture.clear_buffer()
	_player.play()
	_capturing = true
	capturing_changed.emit(true)
	return ""


## Stops capturing and hands out the last chunk.
func stop() -> void:
	if not _capturing:
		return
	_drain()
	_player.stop()
	_buffer.append_array(_resampler.flush())
	_emit_buffer()
	_capturing = false
	capturing_changed.emit(false)


## Feeds stereo frames as if they came from the microphone (used by tests and by [method _process]).
func feed(frames: PackedVector2Array) -> void:
	if not _capturing:
		return
	_buffer.append_array(_resampler.push_stereo(frames))
	if _buffer.size() >= int(chunk_seconds * float(sample_rate)) * 2:
		_emit_buffer()


func _process(_delta: float) -> void:
	if _capturing:
		_drain()


func _drain() -> void:
	var available: int = _capture.get_frames_available()
	if available > 0:
		feed(_capture.get_buffer(available))


func _emit_buffer() -> void:
	if _buffer.is_empty():
		return
	var out: PackedByteArray = _buffer
	_buffer = PackedByteArray()
	chunk_ready.emit(out)


func _ensure_bus() -> void:
	var bus: int = AudioServer.get_bus_index(BUS_NAME)
	if bus < 0:
		AudioServer.add_bus()
		bus = AudioServer.bus_count - 1
		AudioServer.set_bus_name(bus, BUS_NAME)
	AudioServer.set_bus_mute(bus, true)
	_capture = null
	for i: int in AudioServer.get_bus_effect_count(bus):
		var effect: AudioEffect = AudioServer.get_bus_effect(bus, i)
		if effect is AudioEffectCapture:
			_capture = effect
	if _capture == null:
		_capture = AudioEffectCapture.new()
		_capture.buffer_length = 1.0
		AudioServer.add_bus_effect(bus, _capture)
	if _player == null:
		_player = AudioStreamPlayer.new()
		_player.name = "MicPlayer"
		_player.stream = AudioStreamMicrophone.new()
		_player.bus = BUS_NAME
		add_child(_player)
