"""``group``: the selected elements counted per storey or per room, and the group(s) with the most or the
fewest of them (value: the GlobalIds of those groups, every tied one; without ``pick``: {group name: count}).

An element counts for its storey, or for its room; a door or window in a wall counts for the rooms on both
its sides (as "the doors of the kitchen" does). Parts of a bodiless whole of another class count once, as
``count`` counts them. Every candidate group takes part, those with none included, so "the fewest" can be
none at all; ``among`` limits the candidates (the rooms of one storey). Without ``among``, rooms are those of
the storey the target names, if it names one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import join_distinct, join_names, say
from pyagent.actions.ops.count import _counted
from pyagent.actions.selectors import noun_for, resolve_storey

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"

GROUP_CLASS = {"storey": "IfcBuildingStorey", "room": "IfcSpace"}


def _candidates(ex: Executor, ctx: Context, step: dict[str, Any]) -> list[str]:
    b, by = ex.building, step["by"]
    if "among" in step:
        among = ex.targets(ctx, step["among"], allow_empty=True)
        groups = [g for g in among if g in b.elements and b.elements[g].ifc_class == GROUP_CLASS[by]]
        if not groups:
            raise StepError(say("group_no_groups", groups=noun_for({"class": [GROUP_CLASS[by]]}, 2)))
        return groups
    if by == "storey":
        return [st.id for st in b.storeys]
    rooms = [sp for sp in b.spaces() if sp.id not in ctx.state.deleted]
    if step["target"].get("storey"):
        st = resolve_storey(b, ctx, step["target"]["storey"])
        rooms = [sp for sp in rooms if sp.storey == st.id]
    return [sp.id for sp in sorted(rooms, key=lambda sp: sp.label())]


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    b, by = ex.building, step["by"]
    groups = _candidates(ex, ctx, step)
    if not groups:
        raise StepError(say("group_none_here", groups="storeys" if by == "storey" else "rooms"))
    ids = [g for g in ex.targets(ctx, step["target"], allow_empty=True) if g in b.elements]
    members: dict[str, list[str]] = {g: [] for g in groups}
    for gid in ids:
        el = b.elements[gid]
        homes = {el.storey} if by == "storey" else {el.room, *el.sides}
        for home in homes:
            if home in members:
                members[home].append(gid)
    counts = {g: _counted(ex, m, step["target"]) for g, m in members.items()}
    noun_many = noun_for(step["target"], 2)
    if "pick" not in step:
        shown = [say("group_part", group=ex.label(g), n=k) for g, k in counts.items()]
        per = "storey" if by == "storey" else "room"
        return ({ex.label(g): k for g, k in counts.items()},
                say("group_each", noun=noun_many.capitalize(), per=per, parts=join_names(shown, limit=12)), ids)
    pick = step["pick"]
    best = max(counts.values()) if pick == "most" else min(counts.values())
    if max(counts.values()) == 0:
        raise StepError(say("group_nothing", noun=noun_many))
    winners = [g for g, k in counts.items() if k == best]
    amount = str(best) if best else "none"
    if len(winners) == len(groups) and len(groups) > 1:
        return winners, say("group_all_same", n=len(groups), amount=amount, noun=noun_many), winners
    others = sorted((k for g, k in counts.items() if g not in winners), reverse=pick == "most")
    nxt = say("group_next", n=others[0]) if others else ""
    names = join_distinct([ex.label(g) for g in winners])
    key = "group_pick_one" if len(winners) == 1 else "group_pick_tied"
    word = "most" if pick == "most" else "fewest"
    return winners, say(key, groups=names, word=word, noun=noun_many, amount=amount, next=nxt), winners
