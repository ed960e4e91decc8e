"""``describe``: what an element is: its type, room, storey, size and materials (value: the sentence)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.language.wording import plain_material

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"])
    parts = []
    for g in ids[:5]:
        el = ex.building.elements.get(g)
        if el is None:
            parts.append(f"{ex.label(g)} is a prop you placed (not yet saved to the IFC file).")
            continue
        storey = ex.building.storey(el.storey)
        room = ex.building.elements.get(el.room) if el.room else None
        dims = ", ".join(f"{k} {v:.2f} m" for k, v in el.dims.items() if k in ("width", "height", "depth"))
        bits = [f"{el.label()} is a {el.type_name or el.ifc_class.removeprefix('Ifc')}"]
        if room:
            bits.append(f"in {room.label()}")
        if storey:
            bits.append(f"on {storey.name}")
        text = " ".join(bits)
        if dims:
            text += f" ({dims})"
        if el.materials:
            text += f", made of {', '.join(plain_material(m) for m in el.materials[:3])}"
        parts.append(text + ".")
    return " ".join(parts), " ".join(parts), ids
