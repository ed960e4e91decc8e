class_name BimVoicePcmResampler
extends RefCounted
## Turns the engine's stereo float audio (at the mix rate) into mono PCM16 little-endian at
## [member target_rate] (16 kHz for speech recognition), chunk by chunk.
##
## Each output sample is the mean of the input samples within one output period around it (a
## box filter, so downsampling does not alias much); the fractional position is carried from
## chunk to chunk, so chunked input gives the same samples as one long input.

## Input sample rate (Hz).
var source_rate: float
## Output sample rate (Hz).
var target_rate: float

var _step: float
var _pending: PackedFloat32Array = PackedFloat32Array()
var _pos: float = 0.0


## A resampler from [param from_rate] to [param to_rate] Hz.
func _init(from_rate: float, to_rate: float = 16000.0) -> void:
	source_rate = from_rate
	target_rate = to_rate
	_step = from_rate / to_rate


## Forgets buffered input (call between utterances).
func reset() -> void:
	_pending.clear()
	_pos = 0.0


## Feeds stereo frames; returns the PCM16 bytes that are complete so far.
func push_stereo(frames: PackedVector2Array) -> PackedByteArray:
	var start: int = _pending.size()
	_pending.resize(start + frames.size())
	for i: int in frames.size():
		var f: Vector2 = frames[i]
		_pending[start + i] = (f.x + f.y) * 0.5
	return _drain(false)


## Feeds mono samples in -1..1; returns the PCM16 bytes that are complete so far.
func push_mono(samples: PackedFloat32Array) -> PackedByteArray:
	_pending.append_array(samples)
	return _drain(false)


## Returns what is left (the last partial window, averaged over what there is).
func flush() -> PackedByteArray:
	var out: PackedByteArray = _drain(true)
	reset()
	return out


func _drain(final: bool) -> PackedByteArray:
	var half: float = _step * 0.5
	var n: int = _pending.size()
	var values: PackedFloat32Array = PackedFloat32Array()
	while true:
		var hi: int = int(floor(_pos + half))
		if hi >= n and not (final and int(ceil(_pos - half)) < n):
			break
		var lo: int = maxi(int(ceil(_pos - half)), 0)
		hi = mini(hi, n - 1)
		var total: float = 0.0
		for i: int in range(lo, hi + 1):
			total += _pending[i]
		values.append(total / float(hi - lo + 1) if hi >= lo else 0.0)
		_pos += _step
		if final and int(ceil(_pos - half)) >= n:
			break
	var drop: int = clampi(int(ceil(_pos - half)), 0, n)
	if drop > 0:
		_pending = _pending.slice(drop)
		_pos -= float(drop)
	return to_pcm16(values)


## Mono float samples (-1..1, clipped) as PCM16 little-endian bytes.
static func to_pcm16(values: PackedFloat32Array) -> PackedByteArray:
	var out: PackedByteArray = PackedByteArray()
	out.resize(values.size() * 2)
	for i: int in values.size():
		out.encode_s16(i * 2, clampi(roundi(values[i] * 32767.0), -32768, 32767))
	return out
