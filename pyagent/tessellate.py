"""Multi-core tessellation of IFC products into world-frame triangle meshes (IFC frame, metres)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

import ifcopenshell
import ifcopenshell.geom
import numpy as np

from pyagent.csg import DEFAULT_RGBA, CsgBodies, NotBuilt, style_rgba
from pyagent.forked import Forked, ForkFailed, Send, Sender, Shares, can_fork
from pyagent.placements import Placements
from pyagent.progress import Progress, no_progress
from pyagent.shapekeys import Copies, group_by_shape

# Classes that never get a body in the scene: voids, annotations, helpers.
# The hybrid kernel tries the fast CGAL booleans first and falls back to OpenCASCADE: about 4x
# faster than OpenCASCADE alone on the shipped house, with the same coverage.
Kernel = Literal["cgal-simple", "hybrid-cgal-simple-opencascade"]
GEOMETRY_LIBRARY: Final[Kernel] = "hybrid-cgal-simple-opencascade"
# The first pass: CGAL without OpenCASCADE, several times faster, but it leaves out some elements
# (about one in twenty on the shipped files), which the second pass does with the hybrid kernel.
FAST_LIBRARY: Final[Kernel] = "cgal-simple"
SKIPPED_CLASSES = ("IfcOpeningElement", "IfcAnnotation", "IfcVirtualElement", "IfcGrid", "IfcPort")
# Beyond this distance from the file's origin (in plan) the geometry is moved to a local origin:
# float32 keeps 0.06 mm at 1 km but only 0.5 m at 4.5 million metres.
FAR_FROM_ORIGIN_M = 1000.0
# A window standing in as the opening it fills (it has no body of its own) looks like glass.
STAND_IN_RGBA: Final[dict[str, tuple[float, float, float, float]]] = {"IfcWindow": (0.62, 0.76, 0.86, 0.45)}


def local_origin(verts: np.ndarray) -> np.ndarray:
    """The local origin for these world vertices (float64): (0, 0, 0) when the building lies within
    ``FAR_FROM_ORIGIN_M`` of the file's origin, else the centre of their extent in plan rounded to the
    metre, height kept (levels stay as the file gives them)."""
    origin = np.zeros(3, np.float64)
    if len(verts) and float(np.abs(verts[:, :2]).max()) > FAR_FROM_ORIGIN_M:
        origin[:2] = np.round((verts[:, :2].min(axis=0) + verts[:, :2].max(axis=0)) / 2.0)
    return origin


@dataclass
class MeshSet:
    """All element meshes, packed: element i owns verts[vo[i]:vo[i+1]] and faces[fo[i]:fo[i+1]]."""

    ids: list[str] = field(default_factory=list)
    vert_offsets: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    face_offsets: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    verts: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    faces: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.int32))  # local to the element
    face_material: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    materials: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    # The local origin (IFC frame, metres) subtracted from every vertex in float64 before they became
    # float32: zero for a building near the file's origin, the rounded centre of one at map
    # coordinates (a UTM northing of 4.5 million keeps millimetres only this way).
    origin: np.ndarray = field(default_factory=lambda: np.zeros(3, np.float64))
    # Elements placed from another's mesh by a quarter turn (``quarter_turn``): GlobalId -> (the other's
    # GlobalId, the 3x3 rotation in the IFC frame); the glb writer shares their mesh without a search.
    # Not cached (a cached load writes no glb).
    copy_of: dict[str, tuple[str, np.ndarray]] = field(default_factory=dict)

    def index(self) -> dict[str, int]:
        return {gid: i for i, gid in enumerate(self.ids)}

    def element(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(verts, faces, face material index) of element i."""
        v = self.verts[self.vert_offsets[i]:self.vert_offsets[i + 1]]
        fs = slice(self.face_offsets[i], self.face_offsets[i + 1])
        return v, self.faces[fs], self.face_material[fs]

    def triangles(self, i: int) -> np.ndarray:
        """World triangles of element i, shape (F, 3, 3)."""
        v, f, _ = self.element(i)
        return v[f]

    def save(self, path: Path) -> None:
        np.savez(
            path, ids=np.array(self.ids, dtype="U22"), vert_offsets=self.vert_offsets,
            face_offsets=self.face_offsets, verts=self.verts, faces=self.faces,
            face_material=self.face_material, materials=self.materials, origin=self.origin,
        )

    @classmethod
    def load(cls, path: Path) -> MeshSet:
        with np.load(path, allow_pickle=False) as z:
            return cls(
                ids=[str(s) for s in z["ids"]], vert_offsets=z["vert_offsets"], face_offsets=z["face_offsets"],
                verts=z["verts"], faces=z["faces"], face_material=z["face_material"], materials=z["materials"],
                origin=z["origin"] if "origin" in z.files else np.zeros(3),
            )


def quarter_turn(r: np.ndarray, tol: float = 1e-6) -> np.ndarray | None:
    """``r`` rounded to the rotation by quarter turns it is (a signed permutation, determinant 1), or None."""
    q = np.round(r)
    if np.abs(r - q).max() > tol or not np.array_equal(np.abs(q).sum(axis=0), np.ones(3)) \
            or not np.array_equal(np.abs(q).sum(axis=1), np.ones(3)) or round(float(np.linalg.det(q))) != 1:
        return None
    return q


def _settings() -> ifcopenshell.geom.settings:
    s = ifcopenshell.geom.settings()
    s.set("use-world-coords", True)
    s.set("weld-vertices", True)
    return s


class _Collector:
    """Meshes as they come out of the iterator, with one material table shared by every pass."""

    def __init__(self) -> None:
        self.material_index: dict[tuple[float, ...], int] = {}
        # An opening's GlobalId -> the fillers (GlobalId, material or None) its body stands in for.
        self.stand_in: dict[str, list[tuple[str, int | None]]] = {}
        self.opening_of: dict[str, str] = {}  # a filler's GlobalId -> the opening standing in for it
        self.stood_in: set[str] = set()  # the fillers given their opening's body so far
        self._reset()

    def _reset(self) -> None:
        self.copy_of: dict[str, tuple[str, np.ndarray]] = {}
        self.ids: list[str] = []  # every mesh's, in order: this process's and the blocks'
        self.verts: list[np.ndarray] = []  # this process's meshes
        self.faces: list[np.ndarray] = []
        self.mats: list[np.ndarray] = []
        #: meshes made elsewhere, still packed (``_packed``), each after the first ``n`` of this process's
        self.blocks: list[tuple[int, Piece]] = []

    def add_block(self, piece: Piece) -> None:
        """Add meshes made by another process, packed (``_packed``; their materials this table's already)."""
        self.ids.extend(piece[0])
        self.blocks.append((len(self.verts), piece))

    def _default(self) -> int:
        return self.material_index.setdefault(DEFAULT_RGBA, len(self.material_index))

    def add(self, shape: object, copies: Sequence[tuple[str, np.ndarray]] = ()) -> None:
        """Add a shape from the iterator and its ``copies`` (GlobalId, the matrix that moves its world
        mesh there); nothing when the shape has no mesh."""
        geom = shape.geometry  # type: ignore[attr-defined]
        v = np.asarray(geom.verts, dtype=np.float64).reshape(-1, 3)
        f = np.asarray(geom.faces, dtype=np.int32).reshape(-1, 3)
        if not (len(v) and len(f) and np.all(np.isfinite(v))):
            return
        styles = [self.material_index.setdefault(style_rgba(m), len(self.material_index)) for m in geom.materials]
        mids = np.asarray(geom.material_ids, dtype=np.int64)
        if styles and len(mids) == len(f):
            lookup = np.asarray(styles, dtype=np.int32)
            fm = np.where(mids >= 0, lookup[np.clip(mids, 0, len(lookup) - 1)], self._default())
        else:
            fm = np.full(len(f), self._default(), np.int32)
        fm = fm.astype(np.int32)
        guid: str = shape.guid  # type: ignore[attr-defined]
        for gid, material in self.stand_in.get(guid) or ((guid, None),):
            if gid != guid:  # a stand-in: once, however often its opening comes
                if gid in self.stood_in:
                    continue
                self.stood_in.add(gid)
            self.ids.append(gid)
            self.verts.append(v)
            self.faces.append(f)
            self.mats.append(fm if material is None else np.full(len(f), material, np.int32))
        for gid, m in copies:
            moved = v @ m[:3, :3].T + m[:3, 3]
            if not np.all(np.isfinite(moved)):  # placed out of range: left to the kernel on its own
                continue
            self.ids.append(gid)
            self.verts.append(moved)
            self.faces.append(f)
            self.mats.append(fm)
            self.note_copy(gid, guid, m)

    def note_copy(self, gid: str, first: str, m: np.ndarray) -> None:
        """Remember that ``gid`` was placed from ``first``'s mesh by ``m``, when that turns it a quarter turn."""
        turn = quarter_turn(m[:3, :3])
        if turn is not None:
            self.copy_of[gid] = (first, turn)

    def add_mesh(self, gid: str, verts: np.ndarray, faces: np.ndarray,
                 rgba: tuple[float, float, float, float] | None) -> None:
        """Add a mesh made outside the iterator (world metres), drawn in one colour (None: the default)."""
        material = self._default() if rgba is None else self.material_index.setdefault(rgba, len(self.material_index))
        self.ids.append(gid)
        self.verts.append(np.asarray(verts, dtype=np.float64))
        self.faces.append(np.asarray(faces, dtype=np.int32))
        self.mats.append(np.full(len(faces), material, np.int32))

    def stand_in_for(self, fills: list[tuple[ifcopenshell.entity_instance, ifcopenshell.entity_instance]]
                     ) -> list[ifcopenshell.entity_instance]:
        """Let each opening's body stand in for the (filler, opening) pairs' fillers (a filler of several
        openings, for its first); the openings to tessellate for them, each once."""
        openings: dict[str, ifcopenshell.entity_instance] = {}
        for filler, opening in fills:
            gid = filler.GlobalId
            if self.opening_of.setdefault(gid, opening.GlobalId) != opening.GlobalId:
                continue
            taken = self.stand_in.setdefault(opening.GlobalId, [])
            if all(g != gid for g, _ in taken):
                rgba = STAND_IN_RGBA.get(filler.is_a())
                taken.append((gid, None if rgba is None else
                              self.material_index.setdefault(rgba, len(self.material_index))))
            openings[opening.GlobalId] = opening
        return list(openings.values())

    def _segments(self) -> list[tuple[int, int, Piece | None]]:
        """This process's meshes (a range of them, None) and the blocks, in the order they came."""
        out: list[tuple[int, int, Piece | None]] = []
        at = 0
        for before, piece in self.blocks:
            if before > at:
                out.append((at, before, None))
                at = before
            out.append((0, 0, piece))
        if at < len(self.verts):
            out.append((at, len(self.verts), None))
        return out

    def take(self, origin: np.ndarray | None) -> MeshSet:
        """What was collected since the last take, packed, relative to ``origin`` (None: this part's own
        local origin); the material table is the whole table so far."""
        segments = self._segments()
        counts_v: list[np.ndarray] = []
        counts_f: list[np.ndarray] = []
        for a, b, piece in segments:
            counts_v.append(piece[2] if piece is not None else np.array([len(v) for v in self.verts[a:b]], np.int64))
            counts_f.append(piece[4] if piece is not None else np.array([len(f) for f in self.faces[a:b]], np.int64))
        vo = np.zeros(len(self.ids) + 1, np.int64)
        fo = np.zeros(len(self.ids) + 1, np.int64)
        vo[1:] = np.cumsum(np.concatenate(counts_v)) if counts_v else []
        fo[1:] = np.cumsum(np.concatenate(counts_f)) if counts_f else []
        mats = np.array(sorted(self.material_index, key=self.material_index.__getitem__),
                        dtype=np.float32).reshape(-1, 4)
        if origin is None:  # from the elements' extents (their corners give the same origin as every vertex)
            ends = [np.stack([v.min(axis=0), v.max(axis=0)]) for v in self.verts if len(v)]
            ends += [np.stack([p[1].min(axis=0), p[1].max(axis=0)])
                     for _, _, p in segments if p is not None and len(p[1])]
            at = local_origin(np.concatenate(ends) if ends else np.zeros((0, 3)))
        else:
            at = origin
        # each element made relative to the origin in float64 and stored in float32, one at a time: the
        # float64 vertices are never joined (a large building's would be the load's largest array)
        packed = np.empty((int(vo[-1]), 3), np.float32)
        faces: list[np.ndarray] = []
        face_mats: list[np.ndarray] = []
        k = 0
        for a, b, piece in segments:
            if piece is not None:
                packed[vo[k]:vo[k] + len(piece[1])] = piece[1] - at
                faces.append(piece[3])
                face_mats.append(piece[5])
                k += len(piece[0])
                continue
            for v in self.verts[a:b]:
                packed[vo[k]:vo[k + 1]] = v - at
                k += 1
            faces += self.faces[a:b]
            face_mats += self.mats[a:b]
        part = MeshSet(
            ids=self.ids, vert_offsets=vo, face_offsets=fo, origin=at,
            verts=packed,
            faces=np.concatenate(faces) if faces else np.zeros((0, 3), np.int32),
            face_material=np.concatenate(face_mats) if face_mats else np.zeros(0, np.int32),
            materials=mats, copy_of=self.copy_of,
        )
        self._reset()
        return part


def concat(parts: list[MeshSet]) -> MeshSet:
    """One MeshSet of parts sharing an origin and a growing material table (the last part's)."""
    if not parts:
        return MeshSet()
    if len(parts) == 1:
        return parts[0]
    vo = [np.zeros(1, np.int64)]
    fo = [np.zeros(1, np.int64)]
    v_base = f_base = 0
    for p in parts:
        vo.append(p.vert_offsets[1:] + v_base)
        fo.append(p.face_offsets[1:] + f_base)
        v_base += int(p.vert_offsets[-1])
        f_base += int(p.face_offsets[-1])
    return MeshSet(
        ids=[gid for p in parts for gid in p.ids], vert_offsets=np.concatenate(vo), face_offsets=np.concatenate(fo),
        verts=np.concatenate([p.verts for p in parts]), faces=np.concatenate([p.faces for p in parts]),
        face_material=np.concatenate([p.face_material for p in parts]), materials=parts[-1].materials,
        origin=parts[0].origin, copy_of={k: v for p in parts for k, v in p.copy_of.items()},
    )


@dataclass
class Pass:
    """One pass of the tessellation: its meshes and the products still without one after it."""

    kernel: Kernel
    meshes: MeshSet
    pending: list[str]
    warnings: list[str] = field(default_factory=list)


def _products(model: ifcopenshell.file) -> list[ifcopenshell.entity_instance]:
    skipped: dict[str, bool] = {}  # by class: a file has a few dozen classes and thousands of products
    out = []
    for p in model.by_type("IfcProduct"):
        cls = p.is_a()
        skip = skipped.get(cls)
        if skip is None:
            skip = skipped[cls] = any(p.is_a(c) for c in SKIPPED_CLASSES)
        if not skip and p.Representation is not None:
            out.append(p)
    return out


def _fills(model: ifcopenshell.file) -> list[tuple[ifcopenshell.entity_instance, ifcopenshell.entity_instance]]:
    """(filler, opening) for every element that fills an opening with a representation of its own."""
    pairs = []
    for rel in model.by_type("IfcRelFillsElement"):
        filler, opening = rel.RelatedBuildingElement, rel.RelatingOpeningElement
        if filler is None or opening is None or opening.Representation is None:
            continue
        if not any(filler.is_a(c) for c in SKIPPED_CLASSES):
            pairs.append((filler, opening))
    return pairs


def _stand_in_warning(fills: list[tuple[ifcopenshell.entity_instance, ifcopenshell.entity_instance]],
                      got: set[str]) -> list[str]:
    """A warning naming the fillers drawn as their openings, by class."""
    classes = {f.GlobalId: f.is_a() for f, _ in fills if f.GlobalId in got}
    counts: dict[str, int] = {}
    for cls in classes.values():
        counts[cls] = counts.get(cls, 0) + 1
    if not counts:
        return []
    named = ", ".join(f"{n} {cls}" for cls, n in sorted(counts.items()))
    return [f"{named} with no body of their own are drawn as the openings they fill"]


def _rising(progress: Progress) -> Progress:
    """``progress`` told no smaller count of a stage than it was told before."""
    most: dict[str, int] = {}

    def told(stage: str, done: int, total: int) -> None:
        most[stage] = max(most.get(stage, done), done)
        progress(stage, most[stage], total)

    return told


def default_threads() -> int:
    """Iterator threads when the caller names none: one core fewer than the machine has (at least one).
    The consumer of the iterator's results needs a core of its own: on two cores, two iterator threads
    cost twice the CPU time of one and finish later (measured on the shipped files and Tekla)."""
    return max(1, (os.cpu_count() or 1) - 1)


def _start(model: ifcopenshell.file, products: list[ifcopenshell.entity_instance], kernel: Kernel,
           threads: int) -> ifcopenshell.geom.iterator | None:
    """An iterator over ``products``, started: with two or more threads it goes on making meshes on
    threads of its own (without the interpreter's lock) until they are taken (``_drain``); with one it
    makes each when asked. None when it has nothing to do."""
    iterator = ifcopenshell.geom.iterator(_settings(), model, threads, include=products, geometry_library=kernel)
    return iterator if iterator.initialize() else None


def _drain(iterator: ifcopenshell.geom.iterator | None, collector: _Collector, copies: Copies,
           progress: Progress, done0: int, total: int) -> None:
    if iterator is None:
        return
    seen = done0
    while True:
        shape = iterator.get()
        mine = copies.copies.get(shape.guid, [])
        seen += 1 + len(mine)
        if seen // 25 != (seen - 1 - len(mine)) // 25:
            progress("tessellate", min(seen, total), total)
        collector.add(shape, mine)
        if not iterator.next():
            break


def _booleans(model: ifcopenshell.file, copies: Copies, collector: _Collector, progress: Progress,
              total: int, among: Sequence[ifcopenshell.entity_instance], placements: Placements | None) -> None:
    """Bodies that are boolean trees, for the shapes of ``among`` that the fast kernel left out
    (``pyagent.csg``), with their copies; what that cannot make stays for the hybrid kernel."""
    have = set(collector.ids)
    bodies = CsgBodies(model, placements)
    done = len(have)
    for product in among:
        if product.GlobalId in have:
            continue
        try:
            mesh = bodies.mesh(product)
        except NotBuilt:
            continue
        collector.add_mesh(product.GlobalId, mesh.verts, mesh.faces, mesh.rgba)
        for gid, m in copies.copies.get(product.GlobalId, []):
            moved = mesh.verts @ m[:3, :3].T + m[:3, 3]
            if np.all(np.isfinite(moved)):
                collector.add_mesh(gid, moved, mesh.faces, mesh.rgba)
                collector.note_copy(gid, product.GlobalId, m)
        done += 1 + len(copies.copies.get(product.GlobalId, []))
        if done % 25 == 0:
            progress("tessellate", min(done, total), total)


def _fast_part(model: ifcopenshell.file, items: Sequence[ifcopenshell.entity_instance], copies: Copies,
               collector: _Collector, booleans: bool, threads: int, progress: Progress, total: int,
               placements: Placements | None = None) -> None:
    """The fast kernel over ``items`` (shapes and openings standing in), then the boolean bodies among them."""
    _drain(_start(model, list(items), FAST_LIBRARY, threads), collector, copies, progress, len(collector.ids), total)
    if booleans:
        wanted = {item.id() for item in items}
        _booleans(model, copies, collector, progress, total, [p for p in copies.first if p.id() in wanted], placements)


#: The first pass is split with a forked child (``pyagent.forked``) from this many products and openings on:
#: below it, forking costs more than half the pass (a few milliseconds).
SPLIT_FROM = 200
#: The child's meshes come back in pieces of about this many bytes (the parent holds one piece's pickle
#: at a time on top of the meshes).
_PIECE_BYTES = 2 << 20


#: After its first run, each side of a split pass takes half of the shapes left, at least this many (each
#: run starts an iterator of its own: a few milliseconds).
_SHARE_RUN_MIN = 16


def _half_left(left: int, _childs: int = 0) -> int:
    """A run after the first: half of the ``left`` shapes nobody has taken (at least ``_SHARE_RUN_MIN``)."""
    return max(_SHARE_RUN_MIN, (left + 1) // 2)


class _SendingCollector(_Collector):
    """A forked child's collector: its meshes go to the parent in pieces of about ``_PIECE_BYTES`` as they
    are made (the child keeps only their GlobalIds, which the boolean bodies' pass asks after); it tells
    ``shares`` how many shapes it has done."""

    def __init__(self, send: Send, shares: Shares) -> None:
        super().__init__()
        self._send = send
        self._sent = 0
        self._bytes = 0
        self._shares = shares
        self._done = 0  # shapes of the runs finished
        self._in_run = 0  # shapes of the run in hand that the fast kernel has made

    def runs_done(self, n: int) -> None:
        """A run of ``n`` shapes is finished (its boolean bodies too)."""
        self._done += n
        self._in_run = 0
        self._shares.done(self._done)

    def send_piece(self) -> None:
        """Send what was made since the last piece, packed (``_packed``), and let go of it."""
        n = len(self.ids)
        self._send(_packed(self.ids[self._sent:n], self.verts[self._sent:n], self.faces[self._sent:n],
                           self.mats[self._sent:n]))
        empty_v, empty_f, empty_m = np.zeros((0, 3)), np.zeros((0, 3), np.int32), np.zeros(0, np.int32)
        for i in range(self._sent, n):
            self.verts[i], self.faces[i], self.mats[i] = empty_v, empty_f, empty_m
        self._sent, self._bytes = n, 0

    def add(self, shape: object, copies: Sequence[tuple[str, np.ndarray]] = ()) -> None:
        before = len(self.ids)
        super().add(shape, copies)
        self._count_from(before)
        self._in_run += 1
        self._shares.done(self._done + self._in_run)

    def add_mesh(self, gid: str, verts: np.ndarray, faces: np.ndarray,
                 rgba: tuple[float, float, float, float] | None) -> None:
        before = len(self.ids)
        super().add_mesh(gid, verts, faces, rgba)
        self._count_from(before)

    def _count_from(self, before: int) -> None:
        for v, f, m in zip(self.verts[before:], self.faces[before:], self.mats[before:], strict=True):
            self._bytes += v.nbytes + f.nbytes + m.nbytes
        if self._bytes >= _PIECE_BYTES:
            self.send_piece()


Told = tuple[list[int], list[tuple[str, list[str]]], np.ndarray]


Piece = tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _packed(ids: list[str], verts: list[np.ndarray], faces: list[np.ndarray], mats: list[np.ndarray]) -> Piece:
    """Meshes as a few large arrays and their counts (thousands of small arrays take many times longer to pickle
    and unpickle); the parent's collector keeps them so (``_Collector.add_block``)."""
    nv = np.array([len(v) for v in verts], np.int64)
    nf = np.array([len(f) for f in faces], np.int64)
    cat_v = np.concatenate(verts) if verts else np.zeros((0, 3))
    cat_f = np.concatenate(faces) if faces else np.zeros((0, 3), np.int32)
    cat_m = np.concatenate(mats) if mats else np.zeros(0, np.int32)
    return ids, cat_v, nv, cat_f, nf, cat_m


def _sendable(copies: Copies) -> Told:
    """The grouping as the child tells it: the firsts' ids, each first's copies' GlobalIds, and their
    matrices stacked in one array (thousands of small arrays take many times longer to pickle)."""
    names = [(first, [gid for gid, _ in placed]) for first, placed in copies.copies.items()]
    stacked = [m for placed in copies.copies.values() for _, m in placed]
    return [p.id() for p in copies.first], names, np.array(stacked, np.float64).reshape(-1, 4, 4)


def _received(model: ifcopenshell.file, told: Told) -> Copies:
    first, names, matrices = told
    placed: dict[str, list[tuple[str, np.ndarray]]] = {}
    k = 0
    for gid, gids in names:
        placed[gid] = [(g, matrices[k + j]) for j, g in enumerate(gids)]
        k += len(gids)
    return Copies(first=[model.by_id(i) for i in first], copies=placed)


class UnsoundModel(ValueError):
    """The model must not be given to the geometry kernel (``tessellate_passes``' ``sound`` said why)."""


Sound = Callable[[], "str | None"]


def _check(sound: Sound | None) -> None:
    problem = sound() if sound is not None else None
    if problem is not None:
        raise UnsoundModel(problem)


def _first_pass(model: ifcopenshell.file, products: list[ifcopenshell.entity_instance],
                group: Callable[[], Copies], openings: list[ifcopenshell.entity_instance],
                collector: _Collector, booleans: bool, threads: int, progress: Progress, total: int,
                bodiless: list[tuple[ifcopenshell.entity_instance, ifcopenshell.entity_instance]],
                meanwhile: Callable[[], None] | None = None, placements: Placements | None = None,
                sound: Sound | None = None) -> Copies:
    """The fast pass over the shapes ``group()`` finds among ``products``, and ``openings``; returns that
    grouping. On a machine with two cores or more a forked child (``pyagent.forked``) groups the shapes
    while this process does ``meanwhile``, tells it the groups, and the two share the shapes out as each gets
    free (``Shares``: the child takes from the front, this process from the back, in a few runs each); the
    child's meshes are added after this one's. Without a child (a small pass, one core, no fork) all of it
    here and ``meanwhile`` is not called; a child that fails leaves its part, or all of it, to this process."""
    def fast(items: Sequence[ifcopenshell.entity_instance], copies: Copies, into: _Collector = collector,
             told: Progress = progress) -> None:
        _fast_part(model, items, copies, into, booleans, threads, told, total, placements)

    def alone() -> Copies:  # all of it in this process
        _check(sound)
        copies = group()
        fast(copies.first + openings, copies)
        return copies

    if len(products) + len(openings) < SPLIT_FROM or not can_fork():
        return alone()

    def work(send: Sender) -> None:
        problem = sound() if sound is not None else None
        if problem is not None:  # told instead of the groups: the parent refuses the file
            send.tell(problem)
            return
        copies = group()
        placed = None
        if placements is not None:  # the ingest's too, which this process would otherwise work out meanwhile
            placements.work_out(model.by_type("IfcProduct"))
            placed = placements.packed()
        items = copies.first + openings
        shares.begin(len(items))
        send.tell((_sendable(copies), placed))
        own = _SendingCollector(send, shares)
        own.stand_in_for(bodiless)  # the same openings stand in for the same fillers
        # first a run that is surely the child's (this process reads the elements meanwhile), then half of
        # what is left each time
        run = shares.front(lambda left, _childs: left // 2 - left // 8)
        while run:
            fast([items[i] for i in run], copies, own, no_progress)
            own.runs_done(len(run))
            run = shares.front(_half_left)
        own.send_piece()
        colours = sorted(own.material_index, key=own.material_index.__getitem__)
        send((colours, own.copy_of, own.stood_in))

    shares = Shares()
    try:
        try:
            child = Forked(work)
        except ForkFailed:
            return alone()
        try:
            if meanwhile is not None:
                meanwhile()
            word = child.told()
        except ForkFailed:  # the child ended before it had grouped the shapes: all of it here
            child.abandon()
            return alone()
        except BaseException:
            child.abandon()
            raise
        if isinstance(word, str):  # the file cannot be used: the child made nothing
            child.abandon()
            raise UnsoundModel(word)
        try:
            told, placed = word
            copies = _received(model, told)
            if placed is not None and placements is not None:
                placements.add_packed(placed)
            items = copies.first + openings
            # half of what would leave the child's runs and this process's equal (the child's run in hand
            # counted): shapes differ in cost, and a later run evens out what this one misjudged
            run = shares.back(lambda left, childs: (left + childs + 3) // 4)
            while run:
                fast([items[i] for i in run], copies)
                run = shares.back(_half_left)
        except BaseException:
            child.abandon()
            raise
        try:
            got = list(child.results())
        except ForkFailed:
            got = []
        if not got or not isinstance(got[-1], tuple):  # the child failed: what it took is made here
            fast([items[i] for i in shares.taken_by_child()], copies)
            return copies
    finally:
        shares.close()
    *pieces, (colours, copy_of, stood_in) = got
    lookup = np.array([collector.material_index.setdefault(tuple(c), len(collector.material_index))
                       for c in colours], np.int32)
    for ids, cat_v, nv, cat_f, nf, cat_m in pieces:  # a filler stands in under one opening only: none comes twice
        collector.add_block((ids, cat_v, nv, cat_f, nf, lookup[cat_m] if len(lookup) else cat_m))
    collector.copy_of.update(copy_of)
    collector.stood_in |= stood_in
    progress("tessellate", min(len(collector.ids), total), total)
    return copies


#: Set to 0 to leave boolean bodies and bodies with openings to the second pass (the hybrid kernel), as
#: before ``pyagent.csg``: every shipped file then streams (duplex's 33 such bodies come second), which the
#: tests of the progressive load use.
BOOLEANS_ENV = "PYAGENT_FIRST_PASS_BOOLEANS"


def booleans_in_first_pass() -> bool:
    """Whether the first pass makes boolean bodies (``BOOLEANS_ENV`` unset or anything but 0)."""
    return os.environ.get(BOOLEANS_ENV, "1").strip() != "0"


def tessellate_passes(model: ifcopenshell.file, threads: int | None = None,
                      progress: Progress = no_progress, share: bool = True,
                      booleans: bool | None = None, placements: Placements | None = None,
                      meanwhile: Callable[[], None] | None = None, sound: Sound | None = None) -> Iterator[Pass]:
    """Tessellate every product with a body in two passes: first the fast kernel (``FAST_LIBRARY``)
    over all of them, then the hybrid kernel (``GEOMETRY_LIBRARY``) over only those the first could
    not do. Yields each pass as it ends; the second shares the first's origin and material table, and
    is left out when nothing was pending. ``progress("tessellate", done, total)`` throughout.
    A door, window or other element that fills an opening but has no body of its own (no
    representation, or one neither kernel makes a mesh of) gets the body of the opening it fills,
    under its own GlobalId: with no representation from the first pass on, else after the second.
    With ``booleans``, the first pass also makes the bodies that are boolean trees, which the fast kernel
    cannot combine, with ``pyagent.csg`` (several times faster than the hybrid kernel); the second pass
    gets only what that cannot make.
    With ``share``, products that draw the same shape (``pyagent.shapekeys``) are tessellated once and
    the others placed from that mesh, right after it (one that its placement would put out of range is
    left to the second pass on its own). ``booleans`` None: ``booleans_in_first_pass()``. ``placements``:
    a memo of world placements for this model that the sharing fills in (for the ingest to go on with).
    ``meanwhile``: the caller's own work, done during the first pass while a forked child makes part of it
    (``pyagent.forked``); not called when the pass is made in this process alone. ``sound``: for a model not
    checked yet, what says why the kernel must not be given it (None when it may): called before any
    geometry is made, by that child where there is one; ``UnsoundModel`` is raised with what it said."""
    if booleans is None:
        booleans = booleans_in_first_pass()
    products = _products(model)
    fills = _fills(model)
    collector = _Collector()
    bodiless = [(f, o) for f, o in fills if f.Representation is None]
    openings = collector.stand_in_for(bodiless)
    if not products and not openings:
        yield Pass(FAST_LIBRARY, MeshSet(), [])
        return
    threads = threads or default_threads()
    total = len(products) + len(openings)
    progress = _rising(progress)  # the split pass's runs count from where each began: never told going back
    progress("tessellate", 0, total)
    def group() -> Copies:
        return group_by_shape(model, products, placements) if share else Copies(first=products)

    copies = _first_pass(model, products, group, openings, collector, booleans, threads, progress, total, bodiless,
                         meanwhile, placements, sound)
    first = collector.take(None)
    got = set(first.ids)
    pending = [p for p in products if p.GlobalId not in got]
    late = [(f, o) for f, o in bodiless if f.GlobalId not in got]
    if not pending and not late:
        progress("tessellate", total, total)
        yield Pass(FAST_LIBRARY, first, [], _stand_in_warning(bodiless, got))
        return
    # the second pass makes the shapes still pending with their copies, and on its own any copy that
    # could not be placed from its first's mesh; and the openings standing in for fillers it could not make
    first_of = {gid: f for f, placed in copies.copies.items() for gid, _ in placed}
    again = [p for p in pending if first_of.get(p.GlobalId, "") in got or p.GlobalId not in first_of]
    again += collector.stand_in_for(late)
    # the second pass starts before the first is handed over: with two or more threads (a machine with
    # three cores or more) its kernel works while the caller makes a first view of the first
    second_pass = _start(model, again, GEOMETRY_LIBRARY, threads)
    yield Pass(FAST_LIBRARY, first, [p.GlobalId for p in pending] + [f.GlobalId for f, _ in late])
    _drain(second_pass, collector, copies, progress, len(got), total)
    # copies of a shape the kernel could not make at all are tried on their own, as without sharing
    done = got | set(collector.ids)
    alone = [p for p in pending if p.GlobalId not in done and p.GlobalId in first_of]
    if alone:
        _drain(_start(model, alone, GEOMETRY_LIBRARY, threads), collector, Copies(), progress, len(done), total)
    done |= set(collector.ids)
    # Fillers with a representation that neither kernel made a mesh of: their openings' bodies.
    failed = [(f, o) for f, o in fills if f.Representation is not None and f.GlobalId not in done]
    if failed:
        _drain(_start(model, collector.stand_in_for(failed), GEOMETRY_LIBRARY, threads), collector, Copies(),
               progress, len(done), total)
    second = collector.take(first.origin)
    got |= set(second.ids)
    missing = [p.GlobalId for p in pending if p.GlobalId not in got]
    progress("tessellate", total, total)
    warnings = _stand_in_warning(bodiless + failed, got)
    if missing:
        example = model.by_guid(missing[0])
        warnings.append(f"{len(missing)} products have a representation that could not be tessellated "
                        f"(e.g. {example.is_a()} {example.GlobalId})")
    yield Pass(GEOMETRY_LIBRARY, second, missing + [f.GlobalId for f, _ in late if f.GlobalId not in got], warnings)


def tessellate(model: ifcopenshell.file, threads: int | None = None,
               progress: Progress = no_progress, share: bool = True,
               booleans: bool | None = None) -> tuple[MeshSet, list[str]]:
    """Tessellate every product with a body (both passes of ``tessellate_passes``). Returns the meshes
    and warnings for what failed."""
    passes = list(tessellate_passes(model, threads, progress, share, booleans))
    return concat([p.meshes for p in passes]), passes[-1].warnings
