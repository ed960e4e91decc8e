class_name BimVoiceApplyReport
extends RefCounted
## What one [method BimVoiceChangeApplier.apply_delta] or [method BimVoiceChangeApplier.apply_state]
## did.

## False when the input was refused (then nothing changed and [member error] says why).
var ok: bool = true
## Why the input was refused.
var error: String = ""
## Elements whose override state was set.
var elements: int = 0
## Elements newly hidden.
var hidden: int = 0
## Elements shown again.
var shown: int = 0
## Elements newly deleted.
var deleted: int = 0
## Deleted elements brought back.
var restored: int = 0
## Elements painted (colour or transparency set or changed).
var colored: int = 0
## Elements whose colour override was removed.
var uncolored: int = 0
## Elements moved or rotated (or put back).
var moved: int = 0
## Props placed.
var props_added: int = 0
## Props removed.
var props_removed: int = 0
## Props shown as boxes because their asset is missing.
var fallback_assets: PackedStringArray = PackedStringArray()
## GlobalIds the delta named that the loaded building does not have (kept in the mirror).
var unknown: PackedStringArray = PackedStringArray()
## Whether the selection changed.
var selection_changed: bool = false
## Whether the pose changed.
var pose_changed: bool = false
## Whether the section, the sun study or the scale-model view changed.
var review_changed: bool = false


## A refused input.
static func refused(message: String) -> BimVoiceApplyReport:
	var report: BimVoiceApplyReport = BimVoiceApplyReport.new()
	report.ok = false
	report.error = message
	return report


## Whether the building or its props changed (not only the selection or the view).
func has_edits() -> bool:
	return (
		hidden + shown + deleted + restored + colored + uncolored + moved + props_added
		+ props_removed > 0
		or review_changed
	)


## A short human summary for the HUD, e.g. "2 hidden, 1 painted".
func summary() -> String:
	if not ok:
		return "refused: " + error
	var parts: PackedStringArray = PackedStringArray()
	_part(parts, hidden, "hidden")
	_part(parts, shown, "shown")
	_part(parts, deleted, "deleted")
	_part(parts, restored, "restored")
	_part(parts, colored, "painted")
	_part(parts, uncolored, "colour reset")
	_part(parts, moved, "moved")
	_part(parts, props_added, "of furniture placed", "piece")
	_part(parts, props_removed, "of furniture removed", "piece")
	if selection_changed:
		parts.append("selection")
	if pose_changed:
		parts.append("view")
	if review_changed:
		parts.append("review view")
	for asset: String in fallback_assets:
		parts.append("%s.glb missing: shown as a box" % asset)
	if parts.is_empty():
		return "no change"
	return ", ".join(parts)


func _part(parts: PackedStringArray, count: int, label: String, noun: String = "") -> void:
	if count > 0 and noun.is_empty():
		parts.append("%d %s" % [count, label])
	elif count > 0:
		parts.append("%d %s%s %s" % [count, noun, "s" if count > 1 else "", label])
