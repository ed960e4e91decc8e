"""Load a building: ingest + tessellation + glb, cached by the file's content hash."""

from __future__ import annotations

import ctypes
import gc
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import ifcopenshell

from pyagent import building_io
from pyagent.forked import Forked, ForkFailed, Sender, can_fork
from pyagent.glb import GlbPart, write_glb
from pyagent.ifcfile import IfcLoadError, file_sha256, open_ifc, unsound
from pyagent.ifcrepair import clear_misplaced_derived
from pyagent.ingest import Records, build_building, element_records
from pyagent.instancing import Repeats
from pyagent.model import Building
from pyagent.paths import cache_dir
from pyagent.placements import Placements
from pyagent.progress import Progress, no_progress
from pyagent.tessellate import MeshSet, Pass, UnsoundModel, concat, tessellate_passes

# 30: a covering of no stated type that its names call a floor or ceiling is one (its type_class);
# 29: a door's or window's area without a stored quantity is its width by height, not its body's faces;
# 28: a quantity set's volume many times its box is the mesh's; 27: a product typed as a specific class is
# of it; 26: a door's or window's rooms looked for beyond its wall's faces; 25: a room without a stored area gets
# its footprint, not its box; 24: a surface model with openings made in
# the first pass; 23: a boolean body's colour from its material set's materials; 22: boolean bodies without
# slivers, mapped items; 21: boolean bodies made with manifold3d in the first pass; 20: repeated shapes
# tessellated once; 19: a filler with no body of its own gets its opening's; 18: repeated geometry written
# once in the glb; 17: two tessellation passes
CACHE_VERSION = 31


@dataclass
class LoadedBuilding:
    building: Building
    meshes: MeshSet
    glb_path: Path
    cached: bool
    timings: dict[str, float] = field(default_factory=dict)
    #: GlobalIds of elements whose geometry is still being made (only in a first view, see ``load``).
    pending: list[str] = field(default_factory=list)

    @property
    def loaded_fraction(self) -> float:
        """Share of the elements with a body that have their geometry (1.0 once fully loaded)."""
        have = len(self.meshes.ids)
        return have / (have + len(self.pending)) if have + len(self.pending) else 1.0


#: Meshes smaller than this are not worth a collection between a load's stages (it costs some 20 ms).
GIVE_BACK_BYTES = 32 << 20


def _mesh_bytes(meshes: MeshSet) -> int:
    return int(meshes.verts.nbytes + meshes.faces.nbytes + meshes.face_material.nbytes)


def _give_back_memory(nbytes: int) -> None:
    """Collect garbage and hand freed heap pages back to the system (glibc's ``malloc_trim``; nothing
    elsewhere): the peak of a large load is reached in its later stages, on top of what earlier ones let go.
    Nothing when the load's meshes (``nbytes``) are small: its peak is small too."""
    if nbytes < GIVE_BACK_BYTES:
        return
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


#: What the hybrid kernel takes per element the first pass left out (the booleans it gets cost 0.03-0.06 s
#: each, revolved solids less) and what making a first view takes per element (building + glb: 0.3-0.5 ms on
#: MiniProject and Tekla CO-ST-01), measured on 2 cores.
REST_S_PER_PENDING = 0.03
FIRST_VIEW_S_PER_ELEMENT = 0.0005


def worth_a_first_view(made: int, pending: int) -> bool:
    """A first view is made only when the rest would take longer than making it: a few elements left
    (Tekla CO-ST-01's 50 revolved members of 5,781) come sooner with the whole building than a first view."""
    return pending * REST_S_PER_PENDING > (made + pending) * FIRST_VIEW_S_PER_ELEMENT


#: Called with the first view of a building (fast kernel only, ``pending`` not yet in) while the rest loads.
FirstView = Callable[[LoadedBuilding], None]


def _glb_parts(building: Building, meshes: MeshSet, only: Collection[str] | None = None) -> list[GlbPart]:
    return _labelled_parts({gid: (el.ifc_class, el.name) for gid, el in building.elements.items()}, meshes, only)


def _labelled_parts(labels: Mapping[str, tuple[str, str]], meshes: MeshSet,
                    only: Collection[str] | None = None) -> list[GlbPart]:
    """The glb's parts: each mesh of an element in ``labels`` (GlobalId -> class, name) but a room's."""
    parts = []
    for i, gid in enumerate(meshes.ids):
        label = labels.get(gid)
        if label is None or label[0] == "IfcSpace" or (only is not None and gid not in only):
            continue
        v, f, fm = meshes.element(i)
        parts.append(GlbPart(gid, v, f, fm, {"ifc_class": label[0], "name": label[1]}))
    return parts


def _known_for(parts: list[GlbPart], names: list[str], repeats: Repeats | None) -> Repeats | None:
    """The first view's repeats where its parts (``names``) come first in ``parts``, in the same order."""
    return repeats if names and [p.name for p in parts[:len(names)]] == names else None


#: From this many meshes on, a first load's glb is written by a forked child (``pyagent.forked``) while this
#: process builds the building from the same meshes: below it, forking costs more than it saves.
GLB_BESIDE_FROM = 50


def _glb_beside(records: Records, meshes: MeshSet, glb: Path, known: Repeats | None,
                names: list[str]) -> Forked | None:
    """A forked child writing the glb of ``meshes`` (labelled by ``records``, as the building will label
    them) to ``glb``; None where none can be made (then the caller writes it)."""
    if len(meshes.ids) < GLB_BESIDE_FROM or not can_fork():
        return None

    def work(send: Sender) -> None:  # the parts are made in the child: this process goes on at once
        labels = {gid: (r.element.ifc_class, r.element.name) for gid, r in records.by_id.items()}
        parts = _labelled_parts(labels, meshes)
        write_glb(parts, meshes.materials, glb, known=_known_for(parts, names, known), copies=meshes.copy_of)
        send(None)

    try:
        return Forked(work)
    except ForkFailed:
        return None


def _refused_as_unsound(passes: Iterator[Pass], src: Path) -> Iterator[Pass]:
    """``passes``, with a model the kernel must not be given refused as a file that cannot be loaded."""
    try:
        yield from passes
    except UnsoundModel as exc:
        raise IfcLoadError(f"{src}: {exc}") from None


def _cache_folder(digest: str, cache: Path | None) -> Path:
    return (cache or cache_dir()) / "buildings" / f"{digest[:24]}-v{CACHE_VERSION}"


def is_cached(path: str | Path, cache: Path | None = None) -> bool:
    """Whether ``load`` would find ``path`` in the cache (then it has no first view)."""
    src = Path(path)
    if not src.is_file():
        return False
    folder = _cache_folder(file_sha256(src), cache)
    return all((folder / n).is_file() for n in ("building.json", "meshes.npz", "model.glb"))


def _first_view(model: ifcopenshell.file, step: Pass, src: Path, digest: str, folder: Path, first_view: FirstView,
                timings: dict[str, float], t0: float, placements: Placements,
                records: Records | None) -> tuple[list[str], Repeats | None]:
    """Make the first view of the first pass and hand it to ``first_view``; the names of its glb's
    parts and their repeats (see ``load``)."""
    first = build_building(model, step.meshes, str(src), digest, [], pending=set(step.pending), placements=placements,
                           records=records)
    folder.mkdir(parents=True, exist_ok=True)
    first_parts = _glb_parts(first, step.meshes)
    stats = write_glb(first_parts, step.meshes.materials, folder / "first.glb", copies=step.meshes.copy_of)
    timings["first_view"] = time.perf_counter() - t0
    first_view(LoadedBuilding(first, step.meshes, folder / "first.glb", False, dict(timings), list(step.pending)))
    names = [p.name for p in first_parts]
    del first, first_parts
    _give_back_memory(_mesh_bytes(step.meshes))
    return names, stats.repeats


def save_cache(loaded: LoadedBuilding) -> None:
    """Write what a later ``load`` of the same file reads beside a first load's glb: the meshes, then the
    building (a load trusts the folder only once both are there)."""
    folder = loaded.glb_path.parent
    loaded.meshes.save(folder / "meshes.npz")
    building_io.save_building(loaded.building, folder / "building.json")


def load(path: str | Path, cache: Path | None = None, use_cache: bool = True,
         threads: int | None = None, progress: Progress = no_progress,
         first_view: FirstView | None = None, write_cache: bool = True) -> LoadedBuilding:
    """The building in ``path``; raises ``IfcLoadError`` with a clear message for bad files.
    ``progress(stage, done, total)`` hears about a first load's stages (a cached load has none).
    ``first_view``, on a first load whose fast pass left elements out, is called with the building as
    the fast pass has it (every element, the ``pending`` ones without geometry; its own glb) before the
    rest is made; the returned building is the full one. A cached load never calls it.
    Without ``write_cache`` a first load writes only its glb and the caller calls ``save_cache`` when the
    building has been handed on (``serve``'s loading process does, after the link has it)."""
    src = Path(path)
    if not src.is_file():
        raise IfcLoadError(f"{src}: no such file")
    t0 = time.perf_counter()
    digest = file_sha256(src)
    folder = _cache_folder(digest, cache)
    b_json, m_npz, glb = folder / "building.json", folder / "meshes.npz", folder / "model.glb"
    if use_cache and b_json.is_file() and m_npz.is_file() and glb.is_file():
        building = building_io.load_building(b_json)
        building.path = str(src)
        meshes = MeshSet.load(m_npz)
        return LoadedBuilding(building, meshes, glb, True, {"total": time.perf_counter() - t0})
    timings: dict[str, float] = {}
    progress("open", 0, 1)
    opened: list[str] = []  # what reading the file had to assume (an older schema read as IFC2X3)
    model = open_ifc(src, opened, check=False)  # checked by the tessellation (``sound``), beside the reading
    repaired = clear_misplaced_derived(model)
    progress("open", 1, 1)
    timings["parse"] = time.perf_counter() - t0
    t = time.perf_counter()
    parts: list[MeshSet] = []
    warnings: list[str] = []
    first_glb: tuple[list[str], Repeats | None] = ([], None)
    placements = Placements()  # worked out once, for the shape sharing and the ingest
    read: list[Records] = []  # what the ingest needs no mesh for, read while a forked child tessellates

    def meanwhile(opened: ifcopenshell.file = model) -> None:  # bound now: `model` is let go below
        read.append(element_records(opened, placements, axes=False))  # the child works out the placements

    passes = tessellate_passes(model, threads, progress, placements=placements, meanwhile=meanwhile,
                               sound=partial(unsound, model))
    for step in _refused_as_unsound(passes, src):
        parts.append(step.meshes)
        warnings = step.warnings
        if step.pending and first_view is not None and len(parts) == 1 \
                and worth_a_first_view(len(step.meshes.ids), len(step.pending)):
            timings["tessellate_fast"] = time.perf_counter() - t
            first_glb = _first_view(model, step, src, digest, folder, first_view, timings, t0, placements,
                                    read[0] if read else None)
    del step  # the passes' meshes are let go once joined (unless the first view's caller keeps them)
    _give_back_memory(sum(_mesh_bytes(p) for p in parts))
    if repaired.cleared:
        warnings = [f"{repaired.cleared} names or tags on {repaired.instances} elements were written as '*' "
                    "(a derived value) and were read as empty", *warnings]
    warnings = [*opened, *warnings]
    meshes = concat(parts)
    parts.clear()
    timings["tessellate"] = time.perf_counter() - t
    t = time.perf_counter()
    progress("ingest", 0, 1)
    folder.mkdir(parents=True, exist_ok=True)
    names, repeats = first_glb
    # the glb is written beside the ingest where the records are read already (their names and classes are
    # the building's)
    writer = _glb_beside(read[0], meshes, glb, repeats, names) if read else None
    try:
        building = build_building(model, meshes, str(src), digest, warnings, placements=placements,
                                  records=read[0] if read else None)
    except BaseException:
        if writer is not None:
            writer.abandon()  # no child left behind
        raise
    read.clear()  # its records hold the file's entities too
    del model  # the file's entities are not needed to write (a large file's take tens of megabytes)
    _give_back_memory(_mesh_bytes(meshes))
    progress("ingest", 1, 1)
    timings["ingest"] = time.perf_counter() - t
    t = time.perf_counter()
    progress("write", 0, 1)
    written = False
    if writer is not None:
        try:
            written = list(writer.results()) == [None]
        except ForkFailed:  # written here instead
            written = False
    if not written:
        glb_parts = _glb_parts(building, meshes)
        write_glb(glb_parts, meshes.materials, glb, known=_known_for(glb_parts, names, repeats), copies=meshes.copy_of)
    loaded = LoadedBuilding(building, meshes, glb, False, timings)
    if write_cache:
        save_cache(loaded)
    progress("write", 1, 1)
    timings["write"] = time.perf_counter() - t
    timings["total"] = time.perf_counter() - t0
    return loaded
