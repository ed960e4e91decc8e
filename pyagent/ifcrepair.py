"""Repairs applied to a model right after it is opened, for defects some authoring tools write.

``*`` (a derived value) in an attribute the schema declares explicit: some exporters write it for
optional names and tags (``IFCDOOR('…',#5,*,*,*,#7,#8,*,2500.,3000.)``). ifcopenshell reads such a value
as None, but its geometry kernel refuses the whole element ("Requested type <string> does not match
actual type <derived>"), so doors, windows and slabs would vanish from the building. The value carries
no information, so it is cleared to ``$`` (unset), which is what the exporter meant.

Files in IFC2X or IFC2X2 (old Allplan and ArchiCAD exports), schemas ifcopenshell does not have, are
read as IFC2X3 (``read_as_ifc2x3``, called by ``ifcfile.open_ifc``); see the section below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import ifcopenshell

#: ``get_attribute_category``'s value for an attribute the entity declares explicitly (not derived).
_EXPLICIT = 1


@dataclass
class RepairReport:
    """What was repaired: attributes cleared, on how many instances."""

    cleared: int = 0
    instances: int = 0


def top_level_arguments(spf: str) -> list[str]:
    """The top-level argument tokens of one instance's STEP text (``#1=IFCX('a,b',(1,2),*)`` →
    ``["'a,b'", "(1,2)", "*"]``); strings may hold commas, parentheses and doubled quotes."""
    start = spf.find("(")
    if start < 0:
        return []
    args: list[str] = []
    depth, in_string, begin = 0, False, start + 1
    i = start + 1
    end = len(spf)
    while i < end:
        ch = spf[i]
        if in_string:
            if ch == "'":
                if i + 1 < end and spf[i + 1] == "'":
                    i += 2
                    continue
                in_string = False
        elif ch == "'":
            in_string = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                args.append(spf[begin:i].strip())
                break
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(spf[begin:i].strip())
            begin = i + 1
        i += 1
    return args


def clear_misplaced_derived(model: ifcopenshell.file) -> RepairReport:
    """Unset explicit attributes written as ``*`` on the model's products and types (what the geometry
    kernel reads; other instances are read through ifcopenshell's Python layer, which takes ``*`` as None)."""
    report = RepairReport()
    for inst in (*model.by_type("IfcProduct"), *model.by_type("IfcTypeObject")):
        spf = inst.to_string() or ""
        if ",*" not in spf and "(*" not in spf:
            continue
        names = inst.get_attribute_names()
        hit = False
        for i, token in enumerate(top_level_arguments(spf)):
            if token == "*" and i < len(names) and inst.get_attribute_category(names[i]) == _EXPLICIT:
                inst.unset_attribute_value(i)
                report.cleared += 1
                hit = True
        report.instances += hit
    return report


# --- Files in schemas older than IFC2X3 -------------------------------------------------------------
#
# ifcopenshell has no IFC2X or IFC2X2 schema, and IFC2X3 is a near superset of both: the same entities
# with a few added at the end of an entity's attributes. Such a file is read as IFC2X3 (the header's
# schema name rewritten in memory; the user's file is never touched). What the IFC2X3 reader does with
# the differences: attributes IFC2X3 added at the end come as unset, enumeration values it dropped read as
# unset, and entities it does not know are left out (counted here, by name, for the warning). Of the
# changes to what an existing attribute holds, the one the geometry kernel reads (colours) is repaired:
# ``IfcStyledItem.Styles`` held the styles themselves up to IFC2X2 and holds them grouped in an
# ``IfcPresentationStyleAssignment`` from IFC2X3 on (without the repair the element is drawn grey).

#: FILE_SCHEMA names read as IFC2X3.
LEGACY_SCHEMAS = frozenset({"IFC2X", "IFC2X_FINAL", "IFC2X2", "IFC2X2_FINAL"})
_FILE_SCHEMA = re.compile(rb"FILE_SCHEMA\s*\(\s*\(\s*'([^']*)'", re.IGNORECASE)
_INSTANCE_NAME = re.compile(rb"^\s*#\d+\s*=\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(", re.MULTILINE)


def header_schema(head: bytes) -> tuple[str, int, int] | None:
    """The first FILE_SCHEMA name in the start of a file and its byte span, or None when there is none
    (before the DATA section: a name in the data is not the header's)."""
    data = head.find(b"DATA;")
    m = _FILE_SCHEMA.search(head, 0, data if data >= 0 else len(head))
    return (m.group(1).decode("ascii", "replace").upper(), m.start(1), m.end(1)) if m else None


@dataclass
class LegacyRead:
    """A file in an older schema, read as IFC2X3, and the warning that says so."""

    model: ifcopenshell.file
    warning: str


def _decode(data: bytes) -> str:
    """SPF is ASCII with escapes; some exporters write raw bytes, kept as UTF-8 when they are that."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def unknown_entities(data: bytes, schema: str = "IFC2X3") -> dict[str, int]:
    """Instances in the file whose entity ``schema`` does not declare, counted by name."""
    decl = ifcopenshell.ifcopenshell_wrapper.schema_by_name(schema)
    names: dict[bytes, int] = {}
    for raw in _INSTANCE_NAME.findall(data):
        names[raw] = names.get(raw, 0) + 1
    unknown: dict[str, int] = {}
    for raw, count in names.items():
        name = raw.decode("ascii")
        try:
            decl.declaration_by_name(name)
        except (RuntimeError, IndexError):
            unknown[name] = count
    return unknown


def group_presentation_styles(model: ifcopenshell.file) -> int:
    """Wrap styles an ``IfcStyledItem`` lists directly (IFC2X2) in an ``IfcPresentationStyleAssignment``
    (IFC2X3); how many styled items were changed."""
    changed = 0
    for item in model.by_type("IfcStyledItem"):
        styles = list(item.Styles or ())
        loose = [s for s in styles if not s.is_a("IfcPresentationStyleAssignment")]
        if not loose:
            continue
        kept = [s for s in styles if s.is_a("IfcPresentationStyleAssignment")]
        item.Styles = [*kept, model.create_entity("IfcPresentationStyleAssignment", loose)]
        changed += 1
    return changed


def read_as_ifc2x3(data: bytes, schema: str, start: int, end: int) -> LegacyRead:
    """Read ``data``, a file whose header names the legacy ``schema`` at ``data[start:end]``, as IFC2X3.
    ifcopenshell's errors pass through to the caller."""
    model = ifcopenshell.file.from_string(_decode(data[:start] + b"IFC2X3" + data[end:]))
    parts = [f"read as IFC2X3: the file is {schema}, an older schema that IFC2X3 extends"]
    unknown = unknown_entities(data)
    if unknown:
        listed = ", ".join(f"{n} ({c})" for n, c in sorted(unknown.items(), key=lambda kv: -kv[1])[:5])
        parts.append(f"{sum(unknown.values())} instances of entities IFC2X3 does not have were left out: {listed}")
    grouped = group_presentation_styles(model)
    if grouped:
        parts.append(f"the styles of {grouped} styled items were grouped as IFC2X3 wants")
    return LegacyRead(model, "; ".join(parts))
