"""Repairs applied to a model right after it is opened, for defects some authoring tools write.

``*`` (a derived value) in an attribute the schema declares explicit: some exporters write it for
optional names and tags (``IFCDOOR('…',#5,*,*,*,#7,#8,*,2500.,3000.)``). ifcopenshell reads such a value
as None, but its geometry kernel refuses the whole element ("Requested type <string> does not match
actual type <derived>"), so doors, windows and slabs would vanish from the building. The value carries
no information, so it is cleared to ``$`` (unset), which is what the exporter meant.
"""

from __future__ import annotations

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
