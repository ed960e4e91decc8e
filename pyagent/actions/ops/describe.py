"""``describe``: what an element is: its type, room, storey, size and materials (value: the sentence)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say
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
            parts.append(say("describe_prop", what=ex.label(g)))
            continue
        storey = ex.building.storey(el.storey)
        room = ex.building.elements.get(el.room) if el.room else None
        dims = ", ".join(f"{k} {v:.2f} m" for k, v in el.dims.items() if k in ("width", "height", "depth"))
        bits = [say("describe_what", what=el.label(), kind=el.type_name or el.ifc_class.removeprefix("Ifc"))]
        if room:
            bits.append(say("describe_room", room=room.label()))
        if storey:
            bits.append(say("describe_storey", storey=storey.name))
        text = " ".join(bits)
        if dims:
            text += say("describe_dims", dims=dims)
        if el.materials:
            text += say("describe_materials", materials=", ".join(plain_material(m) for m in el.materials[:3]))
        parts.append(text + ".")
    return " ".join(parts), " ".join(parts), ids
