"""Repeated geometry written once: on real files the glb with shared meshes draws every element where the
one-mesh-per-element glb draws it (same vertices within 0.1 mm, same colours and areas, same boxes, the
same nodes once each), and ``find_repeats`` tells repeats from look-alikes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from core_ifc_facts import DUPLEX, FZK, MINI

from pyagent.frames import godot_to_ifc, ifc_to_godot
from pyagent.glb import GlbPart, read_glb, write_glb
from pyagent.instancing import Shapes, find_repeats, quarter_turns, turn_matrix
from pyagent.language.evaluate import real_dir
from pyagent.loader import _glb_parts, load

TOL = 1e-4
REAL = real_dir()
REAL_FILES = [REAL / n for n in ("tekla_TOYO_INK_Legkezelo.ifc", "revit2021_tested_sample_project.ifc")] if REAL else []


def glb_elements(path: Path) -> dict[str, tuple[np.ndarray, np.ndarray, dict]]:
    """Element node name -> (world triangles (F, 3, 3) in Godot's frame, colour per face, extras), read
    from the file as any glTF reader would: accessors through buffer views, node matrix or translation."""
    doc, blob = read_glb(path)
    root = doc["nodes"][doc["scenes"][doc.get("scene", 0)]["nodes"][0]]
    out = {}
    for index in root["children"]:
        node = doc["nodes"][index]
        assert node["name"] not in out, f"{node['name']} twice"
        m = np.eye(4)
        if "matrix" in node:
            m = np.array(node["matrix"], np.float64).reshape(4, 4).T
        else:
            m[:3, 3] = node.get("translation", [0.0, 0.0, 0.0])
            assert "rotation" not in node and "scale" not in node
        tris, mats = [], []
        for prim in doc["meshes"][node["mesh"]]["primitives"] if "mesh" in node else []:
            acc = doc["accessors"][prim["attributes"]["POSITION"]]
            view = doc["bufferViews"][acc["bufferView"]]
            assert view.get("byteStride", 12) == 12 and acc["componentType"] == 5126
            local = np.frombuffer(blob, np.float32, acc["count"] * 3,
                                  view.get("byteOffset", 0) + acc.get("byteOffset", 0)).reshape(-1, 3)
            assert np.array_equal(local.min(axis=0), np.float32(acc["min"]))
            assert np.array_equal(local.max(axis=0), np.float32(acc["max"]))
            world = local.astype(np.float64) @ m[:3, :3].T + m[:3, 3]
            tris.append(world.reshape(-1, 3, 3))
            mats.append(np.full(len(world) // 3, prim["material"]))
        out[node["name"]] = (np.concatenate(tris) if tris else np.zeros((0, 3, 3)),
                             np.concatenate(mats) if mats else np.zeros(0, int), node.get("extras", {}))
    return out


def near_all(a: np.ndarray, b: np.ndarray, tol: float) -> bool:
    """Every point of a lies within tol (each coordinate) of some point of b."""
    for chunk in range(0, len(a), 512):
        d = np.abs(a[chunk:chunk + 512, None, :] - b[None, :, :]).max(axis=2).min(axis=1)
        if d.max() > tol:
            return False
    return True


def areas(tris: np.ndarray, mats: np.ndarray) -> dict[int, tuple[float, float]]:
    """Per colour: the area, and how much moving every vertex by TOL can change it (TOL times the
    triangles' perimeters: small parts tessellated in float32 at different places differ that much)."""
    a = np.linalg.norm(np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]), axis=1) / 2
    edges = np.linalg.norm(tris - np.roll(tris, 1, axis=1), axis=2).sum(axis=1)
    return {int(m): (float(a[mats == m].sum()), TOL * float(edges[mats == m].sum())) for m in np.unique(mats)}


def on_surface(points: np.ndarray, tris: np.ndarray, tol: float) -> bool:
    """Whether every point lies within tol of one of the triangles (projection inside it, near its plane)."""
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    n = np.cross(b - a, c - a)
    ok = np.linalg.norm(n, axis=1) > 1e-12
    a, b, c, n = a[ok], b[ok], c[ok], n[ok]
    unit = n / np.linalg.norm(n, axis=1, keepdims=True)
    for p in points:
        height = ((p - a) * unit).sum(axis=1)
        q = p - height[:, None] * unit
        # q is inside when it is on the inner side of all three edges (within tol)
        inside = np.ones(len(a), bool)
        for u, v in ((a, b), (b, c), (c, a)):
            edge = v - u
            side = (np.cross(edge, q - u) * unit).sum(axis=1) / np.maximum(np.linalg.norm(edge, axis=1), 1e-12)
            inside &= side >= -tol
        if not np.any(inside & (np.abs(height) <= tol)):
            return False
    return True


def assert_same_drawing(shared: Path, unshared: Path, meshes_by_id: dict[str, np.ndarray]) -> None:
    s, u = glb_elements(shared), glb_elements(unshared)
    assert list(s) == list(u)  # the same element nodes, each once, in the same order
    rng = np.random.default_rng(7)
    for gid, (s_tris, s_mats, s_extras) in s.items():
        u_tris, u_mats, u_extras = u[gid]
        assert s_extras == u_extras, gid
        assert sorted(s_mats.tolist()) == sorted(u_mats.tolist()), gid  # triangles per colour
        s_pts, u_pts = s_tris.reshape(-1, 3), u_tris.reshape(-1, 3)
        assert np.allclose(s_pts.min(axis=0), u_pts.min(axis=0), atol=TOL), gid  # the box
        assert np.allclose(s_pts.max(axis=0), u_pts.max(axis=0), atol=TOL), gid
        assert near_all(s_pts, u_pts, TOL) and near_all(u_pts, s_pts, TOL), gid
        # ... and the element's own vertices in the IFC frame, as tessellated
        own = meshes_by_id[gid]
        assert near_all(godot_to_ifc(s_pts), own, TOL) and near_all(own, godot_to_ifc(s_pts), TOL), gid
        sa, ua = areas(s_tris, s_mats), areas(u_tris, u_mats)
        assert sa.keys() == ua.keys() and all(abs(sa[m][0] - ua[m][0]) <= ua[m][1] for m in sa), gid
        pick = rng.choice(len(u_tris), size=min(40, len(u_tris)), replace=False)
        assert on_surface(u_tris[pick].mean(axis=1), s_tris, TOL), gid


def check_file(path: Path, tmp_path: Path) -> tuple[int, int]:
    lb = load(path)
    parts = _glb_parts(lb.building, lb.meshes)
    shared = write_glb(parts, lb.meshes.materials, tmp_path / "shared.glb")
    unshared = write_glb(parts, lb.meshes.materials, tmp_path / "unshared.glb", share=False)
    assert (shared.elements, unshared.elements, unshared.meshes) == (len(parts),) * 3
    assert shared.meshes + shared.shared == len(parts) and shared.bytes < unshared.bytes
    # the loader's own glb is the shared one
    own = read_glb(lb.glb_path)[0]
    assert len(own["meshes"]) == shared.meshes and len(own["nodes"]) == len(parts) + 1
    index = lb.meshes.index()
    assert_same_drawing(tmp_path / "shared.glb", tmp_path / "unshared.glb",
                        {p.name: p.verts[np.unique(p.faces)] for p in parts if p.name in index})
    return shared.meshes, len(parts)


@pytest.mark.parametrize("path", [FZK, DUPLEX], ids=lambda p: p.name)
def test_shared_glb_draws_what_the_unshared_one_draws(path: Path, tmp_path: Path) -> None:
    meshes, elements = check_file(path, tmp_path)
    assert meshes < elements * 0.8


def test_mini_project_writes_a_fraction_of_the_meshes(tmp_path: Path) -> None:
    meshes, elements = check_file(MINI, tmp_path)
    assert meshes < elements * 0.2


@pytest.mark.skipif(not REAL_FILES or not all(p.is_file() for p in REAL_FILES), reason="no shared real files")
@pytest.mark.parametrize("index", range(len(REAL_FILES)))
def test_real_files_with_turned_repeats(index: int, tmp_path: Path) -> None:
    meshes, elements = check_file(REAL_FILES[index], tmp_path)
    assert meshes < elements * 0.5


# ---- find_repeats on made-up shapes ------------------------------------------------------------------------
BOX = np.array([[x, y, z] for x in (0, 1.2) for y in (0, 0.5) for z in (0, 0.3)], float)
BOX_FACES = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                      [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
# three arms of different lengths along the axes from one corner: no symmetry at all, and its mirror
# image is no turn of it (an L, extruded, would be)
ELL = np.concatenate([BOX * [1, 0.4, 0.6], BOX * [0.2, 4.0, 0.6], BOX * [0.2, 0.4, 10.0]])
ELL_FACES = np.concatenate([BOX_FACES, BOX_FACES + 8, BOX_FACES + 16])


def part(name: str, verts: np.ndarray, faces: np.ndarray = BOX_FACES, colour: int = 0) -> GlbPart:
    return GlbPart(name, verts, faces, np.full(len(faces), colour, np.int32))


def repeats_of(parts: list[GlbPart]) -> tuple[list[int], list[np.ndarray | None]]:
    from pyagent.glb import _shapes

    shapes, _ = _shapes(parts, True)
    assert isinstance(shapes, Shapes)
    rep = find_repeats(shapes)
    return rep.source.tolist(), rep.turns


def test_quarter_turns_are_the_24_proper_rotations() -> None:
    turns = [turn_matrix(p, s) for p, s in quarter_turns()]
    assert len({m.tobytes() for m in turns}) == 24
    assert np.array_equal(turns[0], np.eye(3))
    for m in turns:
        assert np.allclose(m @ m.T, np.eye(3)) and np.linalg.det(m) == pytest.approx(1.0)


def test_turned_and_moved_copies_share_and_turn_back() -> None:
    # an L-shape (not symmetric, so only one turn fits) in IFC coordinates
    rng = np.random.default_rng(3)
    verts, faces = ELL, ELL_FACES
    parts = [part("a", verts, faces)]
    wanted = []
    for k, (perm, signs) in enumerate(quarter_turns()[1:8]):
        r = turn_matrix(perm, signs)
        moved = verts @ r.T + rng.uniform(-50, 50, 3)
        shuffled = rng.permutation(len(faces))
        parts.append(part(f"t{k}", moved, faces[shuffled]))
        wanted.append(r)
    source, turns = repeats_of(parts)
    assert source == [0] * len(parts)
    frame = ifc_to_godot(np.eye(3)).T  # columns: where IFC's axes go in Godot's frame
    for r, turn in zip(wanted, turns[1:], strict=True):
        # the node's turn is in Godot's frame: the IFC-frame turn seen through the frames
        assert turn is not None and np.allclose(turn, frame @ r @ frame.T)
    assert turns[0] is None


def test_mirror_images_other_colours_and_other_sizes_keep_their_own_mesh() -> None:
    mirror = ELL * [-1, 1, 1]
    parts = [part("a", ELL, ELL_FACES), part("b", mirror, ELL_FACES[:, ::-1]),  # mirrored, outside kept out
             part("c", ELL * [1, 1, 1.001], ELL_FACES),  # 0.3 mm taller
             part("d", ELL, ELL_FACES, colour=1), part("e", ELL + 0.00002, ELL_FACES),
             part("f", ELL, ELL_FACES[:, ::-1])]  # inside out
    source, _ = repeats_of(parts)
    assert source == [0, 1, 2, 3, 0, 5]


def test_a_face_cut_along_the_other_diagonal_is_the_same_surface() -> None:
    faces = BOX_FACES.copy()
    faces[0:2] = [[0, 1, 2], [1, 3, 2]]  # the same quad, other diagonal
    bent = BOX.copy()
    bent[3] += [0.05, 0, 0]  # that quad no longer planar: its two cuts differ (by 1 cm at its middle)
    source, _ = repeats_of([part("a", BOX), part("b", BOX + 7, faces), part("c", bent), part("d", bent + 7, faces)])
    assert source == [0, 0, 2, 3]


def test_empty_and_single_parts_write() -> None:
    # no elements, and a prop at the origin: valid glbs without sharing
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        empty = write_glb([], np.zeros((0, 4), np.float32), Path(tmp) / "e.glb")
        assert empty.meshes == 0 and read_glb(Path(tmp) / "e.glb")[0]["nodes"][0]["name"] == "building"
        one = write_glb([part("p", BOX)], np.array([[1, 0, 0, 1]], np.float32), Path(tmp) / "p.glb",
                        recentre=False)
        assert (one.meshes, one.triangles) == (1, 12)
        node = read_glb(Path(tmp) / "p.glb")[0]["nodes"][1]
        assert "translation" not in node and "matrix" not in node
