"""Save the review's edits as a new IFC revision that other BIM tools open.

The source file is never touched: the revision is written next to it (or into a given folder) under a
new name. Edits become real IFC data:

- colours: an ``IfcSurfaceStyle`` on the element's own body geometry (shared type geometry is copied
  for that element first, so only it changes colour);
- moves and rotations: the element's ``ObjectPlacement`` (rotation about the element's centre, as the
  engine shows it); openings move with their wall, fillings stay where they were, like in the scene;
- deletions: the product and its relationships are removed (``root.remove_product``);
- props: ``IfcFurniture`` (``IfcFurnishingElement`` in IFC2X3) with box geometry from the prop
  library, contained in the room they stand in (or the storey);
- hidden elements: their body representations are put on a presentation layer that is switched off
  (``IfcPresentationLayerWithStyle.LayerOn = FALSE``), which is how IFC records visibility;
- an ``IfcOwnerHistory`` entry (user, application, time, ADDED/MODIFIED) for every touched element.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ifcopenshell
import ifcopenshell.api.context
import ifcopenshell.api.geometry
import ifcopenshell.api.owner
import ifcopenshell.api.owner.settings
import ifcopenshell.api.root
import ifcopenshell.api.spatial
import ifcopenshell.api.style
import ifcopenshell.util.element
import ifcopenshell.util.placement
import ifcopenshell.util.unit
import numpy as np

from pyagent import __version__ as PYAGENT_VERSION
from pyagent.ifcfile import IfcLoadError, file_sha256, open_ifc
from pyagent.journal import fsync_dir
from pyagent.model import NON_BODY_IDENTIFIERS, Building
from pyagent.props import PROPS

APPLICATION_ID = "pyagent"
APPLICATION_NAME = "BIM voice design-review agent"
HIDDEN_LAYER = "Hidden in design review"
MAX_RENUMBER = 1000  # revision names tried when others keep taking them
FURNITURE_TYPES = {"sofa": "SOFA", "armchair": "CHAIR", "chair": "CHAIR", "table": "TABLE", "desk": "DESK",
                   "bed": "BED", "shelf": "SHELF"}
REVISION_RE = re.compile(r"^(?P<stem>.*?)(\.rev\d+)?$")
IFC_GUID_RE = re.compile(r"^[0-9A-Za-z_$]{22}$")


class SaveError(Exception):
    """The revision cannot be written; the message says why, for a person."""


TEMP_RE = re.compile(r"^\.(?P<name>.+)\.(?P<pid>[0-9]+)\.tmp$")


def remove_stale_temps(folder: Path) -> list[Path]:
    """Remove the ``.<name>.<pid>.tmp`` files that writers killed mid-write left in ``folder`` (those of
    processes still alive are left alone). Returns what was removed."""
    removed: list[Path] = []
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return removed
    for path in entries:
        m = TEMP_RE.match(path.name)
        if m is None or not path.is_file() or path.is_symlink():
            continue
        pid = int(m.group("pid"))
        if pid == os.getpid() or _alive(pid):
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process, or not a pid we can ask about: leave its file alone
    return True


@dataclass
class SaveReport:
    path: Path
    moved: int = 0
    coloured: int = 0
    deleted: int = 0
    hidden: int = 0
    props: list[str] = field(default_factory=list)  # GlobalIds of the new furniture, in state order
    warnings: list[str] = field(default_factory=list)


# ---- naming ----------------------------------------------------------------------------------
def safe_stem(source: Path) -> str:
    """The source's name without ``.ifc`` and without an earlier ``.revN``, reduced to safe characters."""
    stem = source.name[:-4] if source.name.lower().endswith(".ifc") else source.name
    stem = REVISION_RE.match(stem).group("stem") or "model"  # type: ignore[union-attr]
    return re.sub(r"[^A-Za-z0-9._-]", "_", stem).strip(".") or "model"


def next_revision_path(folder: Path, stem: str, extra_suffixes: tuple[str, ...] = (".bcfzip",)) -> Path:
    """``<stem>.rev<N>.ifc`` in ``folder`` with the first N for which no such file (or sibling) exists."""
    n = 1
    while True:
        base = folder / f"{stem}.rev{n}"
        if not base.with_name(base.name + ".ifc").exists() and not any(
                base.with_name(base.name + s).exists() for s in extra_suffixes):
            return base.with_name(base.name + ".ifc")
        n += 1


def writable_folder(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


# ---- owner history ---------------------------------------------------------------------------
class _Owner:
    """The review's user and application, and owner-history entries stamped with them."""

    def __init__(self, model: ifcopenshell.file, author: str) -> None:
        self.model = model
        apps = [a for a in model.by_type("IfcApplication") if a.ApplicationIdentifier == APPLICATION_ID]
        if apps:
            self.app = apps[0]
            org = self.app.ApplicationDeveloper
        else:
            org = ifcopenshell.api.owner.add_organisation(model, identification=APPLICATION_ID, name="BIM voice")
            self.app = ifcopenshell.api.owner.add_application(
                model, application_developer=org, version=PYAGENT_VERSION, application_full_name=APPLICATION_NAME,
                application_identifier=APPLICATION_ID)
        person = ifcopenshell.api.owner.add_person(model, identification=author[:64] or "reviewer",
                                                   family_name=author[:64] or "reviewer", given_name="")
        self.user = ifcopenshell.api.owner.add_person_and_organisation(model, person=person, organisation=org)
        self.now = int(time.time())
        self._added: Any = None
        self._modified: dict[int, Any] = {}

    @contextlib.contextmanager
    def as_current_user(self) -> Iterator[None]:
        """ifcopenshell.api stamps what it creates with this user while inside the block."""
        settings = ifcopenshell.api.owner.settings
        old_user, old_app = settings.get_user, settings.get_application
        settings.get_user = lambda _f: self.user  # type: ignore[assignment]  # ours never returns None
        settings.get_application = lambda _f: self.app  # type: ignore[assignment]
        try:
            yield
        finally:
            settings.get_user, settings.get_application = old_user, old_app

    def _history(self, action: str, like: Any = None) -> Any:
        return self.model.create_entity(
            "IfcOwnerHistory", OwningUser=like.OwningUser if like is not None else self.user,
            OwningApplication=like.OwningApplication if like is not None else self.app,
            State=getattr(like, "State", None) or "READWRITE", ChangeAction=action,
            LastModifiedDate=self.now, LastModifyingUser=self.user, LastModifyingApplication=self.app,
            CreationDate=like.CreationDate if like is not None else self.now)

    def stamp(self, product: Any, action: str) -> None:
        """Give ``product`` an owner history saying this review ADDED or MODIFIED it."""
        old = product.OwnerHistory
        if action == "ADDED":
            if self._added is None:
                self._added = self._history("ADDED")
            new = self._added
        else:
            key = old.id() if old is not None else 0
            if key not in self._modified:
                self._modified[key] = self._history("MODIFIED", old)
            new = self._modified[key]
        if old is not None and old != new:
            product.OwnerHistory = new
            if self.model.get_total_inverses(old) == 0 and old.id() not in self._modified:
                self.model.remove(old)
        else:
            product.OwnerHistory = new


# ---- geometry helpers ------------------------------------------------------------------------
def _rotation(rx: float, ry: float, rz: float) -> np.ndarray:
    """Rz @ Ry @ Rx (degrees about X, then Y, then Z), as the engine applies it."""
    a, b, c = (math.radians(v) for v in (rx, ry, rz))
    mx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    my = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    mz = np.array([[math.cos(c), -math.sin(c), 0], [math.sin(c), math.cos(c), 0], [0, 0, 1]])
    return mz @ my @ mx


def edit_matrix(centre: np.ndarray, transform: dict[str, list[float]]) -> np.ndarray:
    """The world 4x4 that takes the element as loaded to where the state has it (about its centre)."""
    t = np.asarray(transform["translation"], float)
    r = _rotation(*[float(v) for v in transform["rotation_deg"]])
    m = np.eye(4)
    m[:3, :3] = r
    m[:3, 3] = centre + t - r @ centre
    return m


def _world_placement(product: Any, scale: float) -> np.ndarray | None:
    placement = getattr(product, "ObjectPlacement", None)
    if placement is None or not placement.is_a("IfcLocalPlacement"):
        return None
    m = np.asarray(ifcopenshell.util.placement.get_local_placement(placement), dtype=float)
    m[:3, 3] *= scale
    return m


def _body_representations(product: Any) -> list[Any]:
    shape = getattr(product, "Representation", None)
    if shape is None:
        return []
    return [r for r in shape.Representations or ()
            if r.is_a("IfcShapeRepresentation") and (r.RepresentationIdentifier or "Body") not in NON_BODY_IDENTIFIERS]


_KEEP_SHARED = ("IfcRepresentationContext", "IfcPresentationLayerAssignment", "IfcOwnerHistory")


def _make_body_private(model: ifcopenshell.file, product: Any) -> list[Any]:
    """The product's body representations, copied where they are shared with other products (type
    geometry reached through ``IfcMappedItem``), so that styling them changes only this product."""
    out = []
    shape = product.Representation
    reps = list(shape.Representations)
    for i, rep in enumerate(reps):
        if rep not in _body_representations(product):
            continue
        users = [x for x in model.get_inverse(rep)
                 if x.is_a("IfcProductRepresentation") or x.is_a("IfcRepresentationMap")]
        if len(users) > 1:
            rep = ifcopenshell.util.element.copy_deep(model, rep, exclude=_KEEP_SHARED)
            reps[i] = rep
            shape.Representations = reps
        items = list(rep.Items)
        changed = False
        for j, item in enumerate(items):
            if item.is_a("IfcMappedItem"):
                source = ifcopenshell.util.element.copy_deep(model, item.MappingSource, exclude=_KEEP_SHARED)
                items[j] = model.create_entity("IfcMappedItem", MappingSource=source, MappingTarget=item.MappingTarget)
                changed = True
        if changed:
            old_items = rep.Items
            rep.Items = items
            for old in old_items:
                if old not in items and old.is_a("IfcMappedItem") and model.get_total_inverses(old) == 0:
                    model.remove(old)
        out.append(rep)
    for rep in out:
        for shape_model in model.traverse(rep):
            if shape_model.is_a("IfcShapeModel"):
                _make_items_private(model, shape_model)
    return out


def _make_items_private(model: ifcopenshell.file, rep: Any) -> None:
    """Items used by other representations are copied for this one, and their existing styles (which
    may share one style assignment with many other elements) are dropped, so new styles touch only them."""
    items = list(rep.Items)
    for j, item in enumerate(items):
        users = [x for x in model.get_inverse(item) if x.is_a("IfcRepresentation") or x.is_a("IfcRepresentationItem")]
        if any(u != rep and not u.is_a("IfcStyledItem") for u in users):
            items[j] = ifcopenshell.util.element.copy_deep(model, item, exclude=_KEEP_SHARED)
    if items != list(rep.Items):
        rep.Items = items
    for item in items:
        for styled in list(getattr(item, "StyledByItem", None) or ()):
            assignments = [x for x in styled.Styles or () if x.is_a("IfcPresentationStyleAssignment")]
            model.remove(styled)
            for a in assignments:
                if model.get_total_inverses(a) == 0:
                    model.remove(a)


def _own_openings(product: Any) -> list[Any]:
    """The openings ``product`` fills and nothing else fills."""
    out = []
    for rel in getattr(product, "FillsVoids", None) or ():
        opening = rel.RelatingOpeningElement
        fillers = [r.RelatedBuildingElement for r in getattr(opening, "HasFillings", None) or ()]
        if opening is not None and all(f == product for f in fillers):
            out.append(opening)
    return out


def _private_body_items(model: ifcopenshell.file, product: Any) -> list[Any]:
    """The items of the product's body representations, made its own where they are shared with other
    products (a shared representation or item is copied; styles stay as they were), so that putting them
    on a layer touches only this product. Geometry reached through an ``IfcMappedItem`` stays shared:
    the mapped item itself is this product's."""
    shape = product.Representation
    if shape is None:
        return []
    reps = list(shape.Representations)
    items: list[Any] = []
    for i, rep in enumerate(reps):
        if rep not in _body_representations(product):
            continue
        users = [x for x in model.get_inverse(rep)
                 if x.is_a("IfcProductRepresentation") or x.is_a("IfcRepresentationMap")]
        if len(users) > 1:
            rep = _copy_styled(model, rep)
            reps[i] = rep
            shape.Representations = reps
        own = list(rep.Items)
        for j, item in enumerate(own):
            others = [x for x in model.get_inverse(item)
                      if (x.is_a("IfcRepresentation") or x.is_a("IfcRepresentationItem")) and x != rep
                      and not x.is_a("IfcStyledItem")]
            if others:
                own[j] = _copy_styled(model, item)
        if own != list(rep.Items):
            rep.Items = own
        items.extend(own)
    return items


def _copy_styled(model: ifcopenshell.file, entity: Any) -> Any:
    """A deep copy of a representation or item that keeps the styles of its items."""
    copy = ifcopenshell.util.element.copy_deep(model, entity, exclude=_KEEP_SHARED)
    pairs = zip(entity.Items, copy.Items, strict=True) if entity.is_a("IfcRepresentation") else [(entity, copy)]
    for old, new in pairs:
        for styled in getattr(old, "StyledByItem", None) or ():
            model.create_entity("IfcStyledItem", Item=new, Styles=styled.Styles, Name=styled.Name)
    return copy


def _surface_style(model: ifcopenshell.file, rgba: list[float], cache: dict[tuple[float, ...], Any]) -> Any:
    key = tuple(round(float(c), 4) for c in rgba)
    if key not in cache:
        r, g, b, a = key
        style = ifcopenshell.api.style.add_style(model, name=f"Review colour {r:.2f} {g:.2f} {b:.2f} {a:.2f}")
        colour = {"Name": None, "Red": r, "Green": g, "Blue": b}
        if model.schema == "IFC2X3":  # IFC2X3 shading has no transparency; rendering does
            ifcopenshell.api.style.add_surface_style(
                model, style=style, ifc_class="IfcSurfaceStyleRendering",
                attributes={"SurfaceColour": colour, "Transparency": 1.0 - a, "ReflectanceMethod": "NOTDEFINED"})
        else:
            ifcopenshell.api.style.add_surface_style(model, style=style, ifc_class="IfcSurfaceStyleShading",
                                                     attributes={"SurfaceColour": colour, "Transparency": 1.0 - a})
        cache[key] = style
    return cache[key]


def _body_context(model: ifcopenshell.file) -> Any:
    contexts = model.by_type("IfcGeometricRepresentationContext")
    for ctx in contexts:
        if ctx.is_a("IfcGeometricRepresentationSubContext") and ctx.ContextType == "Model" \
                and ctx.ContextIdentifier == "Body":
            return ctx
    for ctx in contexts:
        if not ctx.is_a("IfcGeometricRepresentationSubContext") and ctx.ContextType == "Model":
            return ctx
    model_ctx = ifcopenshell.api.context.add_context(model, context_type="Model")
    return ifcopenshell.api.context.add_context(model, context_type="Model", context_identifier="Body",
                                                target_view="MODEL_VIEW", parent=model_ctx)


def _prop_representation(model: ifcopenshell.file, asset: str, scale: float) -> Any:
    """Box geometry of a library prop as swept solids (IFC2X3 and IFC4), in project units."""
    spec = PROPS[asset]
    items = []
    for cx, cy, cz, sx, sy, sz in spec.boxes:
        profile = model.create_entity(
            "IfcRectangleProfileDef", ProfileType="AREA",
            Position=model.create_entity("IfcAxis2Placement2D",
                                         Location=model.create_entity("IfcCartesianPoint", (0.0, 0.0))),
            XDim=sx / scale, YDim=sy / scale)
        position = model.create_entity(
            "IfcAxis2Placement3D",
            Location=model.create_entity("IfcCartesianPoint", (cx / scale, cy / scale, (cz - sz / 2) / scale)))
        items.append(model.create_entity("IfcExtrudedAreaSolid", SweptArea=profile, Position=position,
                                         ExtrudedDirection=model.create_entity("IfcDirection", (0.0, 0.0, 1.0)),
                                         Depth=sz / scale))
    return model.create_entity("IfcShapeRepresentation", ContextOfItems=_body_context(model),
                               RepresentationIdentifier="Body", RepresentationType="SweptSolid", Items=items)


def _axis_placement(model: ifcopenshell.file, m: np.ndarray) -> Any:
    return model.create_entity(
        "IfcAxis2Placement3D", Location=model.create_entity("IfcCartesianPoint", [float(v) for v in m[:3, 3]]),
        Axis=model.create_entity("IfcDirection", [float(v) for v in m[:3, 2]]),
        RefDirection=model.create_entity("IfcDirection", [float(v) for v in m[:3, 0]]))


def _reparent_children(model: ifcopenshell.file, doomed: Any) -> set[int]:
    """Before ``doomed`` (and the openings that go with it) is removed: placements of other objects
    that are relative to theirs are made relative to the next placement up, keeping their world
    position, so that no placement is left that places nothing."""
    going = {doomed.id()}
    for rel in getattr(doomed, "HasOpenings", None) or ():
        going.add(rel.RelatedOpeningElement.id())
    going_placements = set()
    for pid in going:
        placement = getattr(model.by_id(pid), "ObjectPlacement", None)
        if placement is not None and placement.is_a("IfcLocalPlacement"):
            going_placements.add(placement.id())
    for pl_id in going_placements:
        placement = model.by_id(pl_id)
        parent = placement.PlacementRelTo
        while parent is not None and parent.id() in going_placements:
            parent = parent.PlacementRelTo
        parent_world = np.asarray(ifcopenshell.util.placement.get_local_placement(parent), float) \
            if parent is not None else np.eye(4)
        for child in list(placement.ReferencedByPlacements or ()):
            if child.id() in going_placements or not child.is_a("IfcLocalPlacement"):
                continue
            world = np.asarray(ifcopenshell.util.placement.get_local_placement(child), float)
            child.RelativePlacement = _axis_placement(model, np.linalg.inv(parent_world) @ world)
            child.PlacementRelTo = parent
    return going_placements


def _remove_unused(model: ifcopenshell.file, ids: set[int]) -> None:
    """Remove those of ``ids`` (placements) that nothing refers to any more, children first."""
    remaining = set(ids)
    while remaining:
        removed = set()
        for i in remaining:
            try:
                entity = model.by_id(i)
            except RuntimeError:
                removed.add(i)
                continue
            if model.get_total_inverses(entity) == 0:
                ifcopenshell.util.element.remove_deep2(model, entity)
                removed.add(i)
        if not removed:
            return
        remaining -= removed


def _storey_for(building: Building, z: float) -> str | None:
    below = [s for s in building.storeys if s.elevation <= z + 0.3]
    if below:
        return below[-1].id
    return building.storeys[0].id if building.storeys else None


# ---- the save --------------------------------------------------------------------------------
def save_revision(source: Path, out_path: Path, building: Building, state: dict[str, Any],
                  room_at: Callable[[np.ndarray], str | None] | None = None, author: str = "reviewer",
                  renumber: Callable[[Path], Path] | None = None) -> SaveReport:
    """Write ``state`` (DESIGN.md's scene state) applied to ``source`` as a new IFC file ``out_path``.

    ``renumber`` gives the next free name when ``out_path`` is taken (another save into the same folder
    got there first); the report's ``path`` is where the revision went. Raises ``SaveError`` (nothing
    written) when the source is gone, changed since it was loaded, or the target exists (and there is
    no ``renumber``) or is the source itself.
    """
    source, out_path = Path(source), Path(out_path)
    if out_path.resolve() == source.resolve():
        raise SaveError(f"{out_path} is the source file; a revision never overwrites a file")
    if out_path.exists():
        if renumber is None:
            raise SaveError(f"{out_path} already exists; a revision never overwrites a file")
        out_path = renumber(out_path)
    try:
        if building.file_hash and file_sha256(source) != building.file_hash:
            raise SaveError(f"{source} changed on disk since it was loaded; reload it before saving a revision")
        model = open_ifc(source)
    except (OSError, IfcLoadError) as exc:
        raise SaveError(f"cannot read the source file: {exc}") from exc
    report = SaveReport(out_path)
    scale = float(ifcopenshell.util.unit.calculate_unit_scale(model))
    owner = _Owner(model, author)
    deleted = set(state.get("deleted", ()))
    prop_ids = {p["id"] for p in state.get("props", ())}

    def product(gid: str) -> Any | None:
        try:
            return model.by_guid(gid)
        except RuntimeError:
            report.warnings.append(f"{gid} is not in the source file")
            return None

    with owner.as_current_user():
        # Moves and rotations: world targets from the placements as loaded, then applied; children that
        # are not features keep their world position, so the order does not matter.
        targets: list[tuple[Any, np.ndarray]] = []
        openings: list[tuple[Any, np.ndarray]] = []
        for gid, transform in sorted(state.get("transforms", {}).items()):
            if gid in deleted:
                continue
            p, el = product(gid), building.elements.get(gid)
            if p is None or el is None:
                continue
            world = _world_placement(p, scale)
            if world is None:
                report.warnings.append(f"{el.label()} has no local placement, so its move was not saved")
                continue
            edit = edit_matrix(el.centre + np.asarray(building.origin), transform)  # in the file's frame
            # The opening a door or window fills goes with it, or the wall keeps the old hole.
            for opening in _own_openings(p):
                opening_world = _world_placement(opening, scale)
                if opening_world is not None:
                    openings.append((opening, edit @ opening_world))
            targets.append((p, edit @ world))
        # Openings first: a filling is usually placed relative to its opening, and is then put where it
        # belongs relative to the opening's new placement.
        for p, target in openings:
            ifcopenshell.api.geometry.edit_object_placement(model, product=p, matrix=target, is_si=True)
        for p, target in targets:
            ifcopenshell.api.geometry.edit_object_placement(model, product=p, matrix=target, is_si=True)
            owner.stamp(p, "MODIFIED")
            report.moved += 1

        styles: dict[tuple[float, ...], Any] = {}
        for gid, rgba in sorted(state.get("colors", {}).items()):
            if gid in deleted or gid in prop_ids:
                continue
            p = product(gid)
            if p is None or p.Representation is None:
                continue
            reps = _make_body_private(model, p)
            if not reps:
                report.warnings.append(f"{gid} has no body geometry to colour")
                continue
            style = _surface_style(model, rgba, styles)
            for rep in reps:
                ifcopenshell.api.style.assign_representation_styles(model, shape_representation=rep, styles=[style])
            owner.stamp(p, "MODIFIED")
            report.coloured += 1

        # Hidden: the body items go on a presentation layer that is switched off (IFC4 allows only
        # representation items on a layer with style). The layer of an earlier revision is rebuilt, so
        # what was shown again in this review is visible in this revision.
        for layer in [x for x in model.by_type("IfcPresentationLayerWithStyle") if x.Name == HIDDEN_LAYER]:
            model.remove(layer)
        hidden_items: list[Any] = []
        for gid in sorted(set(state.get("hidden", ())) - deleted - prop_ids):
            p = product(gid)
            if p is None:
                continue
            items = _private_body_items(model, p)
            if items:
                hidden_items.extend(items)
                owner.stamp(p, "MODIFIED")
                report.hidden += 1

        for gid in sorted(deleted):
            p = product(gid)
            if p is None:
                continue
            leftovers = _reparent_children(model, p)
            ifcopenshell.api.root.remove_product(model, product=p)
            _remove_unused(model, leftovers)
            report.deleted += 1

        for prop in state.get("props", ()):
            element = _add_prop(model, building, prop, state.get("colors", {}).get(prop["id"]), scale, room_at,
                                owner, styles, report)
            report.props.append(str(element.GlobalId))
            if prop["id"] in state.get("hidden", ()):
                hidden_items.extend(item for rep in _body_representations(element) for item in rep.Items)
                report.hidden += 1
        if hidden_items:
            model.create_entity("IfcPresentationLayerWithStyle", Name=HIDDEN_LAYER,
                                Description="Elements hidden during the design review",
                                AssignedItems=list(dict.fromkeys(hidden_items)),
                                LayerOn=False, LayerFrozen=False, LayerBlocked=False, LayerStyles=())

        project = model.by_type("IfcProject")[0]
        owner.stamp(project, "MODIFIED")

    header = model.header.file_name
    header.name = out_path.name
    header.time_stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(owner.now))
    header.author = (author,)
    header.preprocessor_version = f"IfcOpenShell {ifcopenshell.version}"
    header.originating_system = f"{APPLICATION_NAME} {PYAGENT_VERSION}"
    header.authorization = author
    report.path = _write_new(model, out_path, renumber, source)
    return report


def _add_prop(model: ifcopenshell.file, building: Building, prop: dict[str, Any], rgba: list[float] | None,
              scale: float, room_at: Callable[[np.ndarray], str | None] | None, owner: _Owner,
              styles: dict[tuple[float, ...], Any], report: SaveReport) -> Any:
    """The prop as a furnishing element; it keeps the GlobalId the session gave it."""
    asset = prop["asset"]
    spec = PROPS[asset]
    local = np.asarray(prop["position"], float)
    pos = local + np.asarray(building.origin)  # the file's frame
    ifc_class = "IfcFurnishingElement" if model.schema == "IFC2X3" else "IfcFurniture"
    kwargs: dict[str, Any] = {"ifc_class": ifc_class, "name": asset.capitalize()}
    if ifc_class == "IfcFurniture":
        kwargs["predefined_type"] = FURNITURE_TYPES.get(asset, "USERDEFINED")
    element = ifcopenshell.api.root.create_entity(model, **kwargs)
    gid = str(prop["id"])
    if IFC_GUID_RE.match(gid) and not _has_guid(model, gid):
        element.GlobalId = gid
    else:
        report.warnings.append(f"the prop {gid} got the new GlobalId {element.GlobalId}")
    element.ObjectType = asset
    element.Tag = gid[:255]
    element.Description = "Placed in the design review"
    room = room_at(local + np.array([0.0, 0.0, 0.5])) if room_at else None
    container_id = room if room and room in building.elements else _storey_for(building, float(local[2]))
    container = None
    if container_id:
        with contextlib.suppress(RuntimeError):
            container = model.by_guid(container_id)
    if container is not None:
        ifcopenshell.api.spatial.assign_container(model, products=[element], relating_structure=container)
    yaw = math.radians(float(prop.get("yaw", 0.0)))
    m = np.eye(4)
    m[:3, :3] = _rotation(0.0, 0.0, math.degrees(yaw))
    m[:3, 3] = pos
    ifcopenshell.api.geometry.edit_object_placement(model, product=element, matrix=m, is_si=True)
    rep = _prop_representation(model, asset, scale)
    ifcopenshell.api.geometry.assign_representation(model, product=element, representation=rep)
    ifcopenshell.api.style.assign_representation_styles(
        model, shape_representation=rep, styles=[_surface_style(model, list(rgba or spec.rgba), styles)])
    owner.stamp(element, "ADDED")
    return element


def _has_guid(model: ifcopenshell.file, gid: str) -> bool:
    try:
        model.by_guid(gid)
    except RuntimeError:
        return False
    return True


def _write_new(model: ifcopenshell.file, out_path: Path, renumber: Callable[[Path], Path] | None = None,
               source: Path | None = None) -> Path:
    """Write to a temporary file in the same folder, flush it to disk, then link it into place without
    ever replacing an existing file (with ``renumber``, a name taken meanwhile makes it take the next).
    Returns the path written."""
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(f".{out_path.name}.{os.getpid()}.tmp")
    try:
        model.write(str(tmp))
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        for _ in range(MAX_RENUMBER):
            try:
                os.link(tmp, out_path)  # fails if out_path exists: never overwrites
                break
            except FileExistsError:
                pass
            except OSError:  # a file system without hard links
                if not out_path.exists():
                    os.replace(tmp, out_path)
                    break
            if renumber is None:
                raise SaveError(f"{out_path} already exists; a revision never overwrites a file")
            out_path = renumber(out_path)
            if source is not None and out_path.resolve() == source.resolve():
                raise SaveError(f"{out_path} is the source file; a revision never overwrites a file")
        else:
            raise SaveError(f"no free revision name next to {out_path}")
        fsync_dir(out_path.parent)
    except OSError as exc:
        raise SaveError(f"cannot write {out_path}: {exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return out_path

