"""What a parse may ask about the live scene: a narrow, read-only protocol.

Some requests cannot become a program without a look at the scene: "show me the doors" hides nothing
away when no door is hidden (then it means *point them out*); "make it lighter" needs the colour it has
now; "this room", "upstairs" and "the floor above" depend on where the user stands; "these" means the
selection. The parser takes a ``SceneView`` as an explicit argument (``parser.ParseContext``) and
only asks; nothing it can reach changes the scene, so a parse is a function of its text, the
building's vocabulary, the dialogue and these answers. ``pyagent.session.SessionView`` answers from a
live session; ``StillScene`` answers from fixed values (tools, tests).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

Selector = Mapping[str, Any]


class SceneView(Protocol):
    """Read-only answers about the scene now. Ids are IFC GlobalIds (or placed props' ids)."""

    def selected(self) -> list[str]:
        """The user's selection, in order."""
        ...

    def it(self) -> list[str]:
        """What "it" / "them" refers to: the elements the last request was about."""
        ...

    def any_hidden(self) -> bool:
        """Is anything hidden at all? (A cheap test before ``peek``.)"""
        ...

    def is_hidden(self, ids: Collection[str]) -> bool:
        """Is any of ``ids`` hidden?"""
        ...

    def colour_of(self, ids: Collection[str]) -> list[float] | None:
        """The colour the first of ``ids`` that has one shows now (painted, else its own), RGBA."""
        ...

    def user_storey(self) -> str | None:
        """The id of the storey the user stands on, None when none can be told."""
        ...

    def user_room(self) -> str | None:
        """The id of the room (IfcSpace) the user stands in, or None."""
        ...

    def peek(self, selector: Selector) -> list[str]:
        """The elements ``selector`` (the schema's target) means now; [] when it means none."""
        ...


@dataclass(frozen=True)
class StillScene:
    """A ``SceneView`` of fixed answers: nothing selected or hidden, the user on ``storey`` (None: the
    parser takes the ground storey), ``peek`` finds nothing unless ``found`` says what it finds."""

    selection: tuple[str, ...] = ()
    referent: tuple[str, ...] = ()
    hidden: frozenset[str] = frozenset()
    colours: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    storey: str | None = None
    room: str | None = None
    found: tuple[str, ...] = ()

    def selected(self) -> list[str]:
        return list(self.selection)

    def it(self) -> list[str]:
        return list(self.referent)

    def any_hidden(self) -> bool:
        return bool(self.hidden)

    def is_hidden(self, ids: Collection[str]) -> bool:
        return any(g in self.hidden for g in ids)

    def colour_of(self, ids: Collection[str]) -> list[float] | None:
        return next((list(self.colours[g]) for g in ids if g in self.colours), None)

    def user_storey(self) -> str | None:
        return self.storey

    def user_room(self) -> str | None:
        return self.room

    def peek(self, selector: Selector) -> list[str]:
        return list(self.found)
