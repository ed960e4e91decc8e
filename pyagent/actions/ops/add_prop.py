"""``add_prop``: place a piece of furniture from the prop library on a room's floor: in front of the user, beside
or in front of an element, or at a position.
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Any

import ifcopenshell.guid
import numpy as np

from pyagent.actions import places
from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say
from pyagent.props import PROPS
from pyagent.spatial import EYE_HEIGHT, wrap_deg

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    asset = step["asset"]
    spec = PROPS[asset]
    placement = step.get("placement", "next_to" if "anchor" in step else "at_user")
    yaw = float(step.get("yaw", ctx.pose.yaw + 180.0))
    if "position" in step:
        pos = np.asarray(step["position"], float)
    elif "anchor" in step:
        anchor = ex.targets(ctx, step["anchor"], need_one=True)[0]
        pos, yaw = places.place_by(ex, ctx, anchor, spec.depth, spec.width, placement, step.get("yaw"))
    else:
        f = places.direction_vector(ex, ctx, "forward")
        pos = ctx.pose.position + f * (1.0 + spec.depth / 2)
        storey = ctx.user_storey()
        pos[2] = storey.elevation if storey else pos[2] - EYE_HEIGHT
    probe = pos.copy()
    probe[2] += 0.5
    floor = places.floor_z(ex, probe)
    if floor is None:
        raise StepError(say("prop_no_floor", asset=asset))
    pos[2] = floor
    # Props are elements to be: they get a GlobalId now, derived from the state and the request so
    # that replaying a journal gives the same ids.
    seed = json.dumps([ex.building.file_hash, ctx.state.edits(), asset, [round(float(c), 3) for c in pos]],
                      sort_keys=True)
    pid = ifcopenshell.guid.compress(uuid.uuid5(uuid.NAMESPACE_URL, seed).hex)
    ctx.state.props.append({"id": pid, "asset": asset, "position": [round(float(c), 4) for c in pos],
                            "yaw": round(float(wrap_deg(yaw)), 3)})
    room = ex.graph.room_at(probe)
    where = say("prop_in_room", room=ex.label(room)) if room else ""
    article = "an" if asset[:1] in "aeiou" else "a"
    return [pid], say("prop_placed", article=article, asset=asset, where=where), [pid]
