"""Binary glTF (.glb) for the engine: one node per element, named by its GlobalId, Y up.

Each element node sits at the element's centre (so the engine rotates it about its own centre)
and holds one mesh with a primitive per colour. Coordinates go through ``pyagent.frames``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pygltflib as gl

from pyagent.frames import ifc_to_godot


@dataclass
class GlbPart:
    """One element (or prop): IFC-frame triangles with a colour index per face."""

    name: str
    verts: np.ndarray  # (V, 3) IFC frame
    faces: np.ndarray  # (F, 3) indices into verts
    face_material: np.ndarray  # (F,) indices into the material palette
    extras: dict[str, str] = field(default_factory=dict)


class _Packer:
    def __init__(self) -> None:
        self.blob = bytearray()
        self.views: list[gl.BufferView] = []
        self.accessors: list[gl.Accessor] = []

    def add(self, data: np.ndarray, accessor_type: str, component: int, target: int,
            minmax: bool = False) -> int:
        raw = np.ascontiguousarray(data).tobytes()
        while len(self.blob) % 4:
            self.blob.append(0)
        self.views.append(gl.BufferView(buffer=0, byteOffset=len(self.blob), byteLength=len(raw), target=target))
        self.blob.extend(raw)
        acc = gl.Accessor(bufferView=len(self.views) - 1, componentType=component, count=len(data),
                          type=accessor_type)
        if minmax:
            acc.min = [float(v) for v in data.min(axis=0)]
            acc.max = [float(v) for v in data.max(axis=0)]
        self.accessors.append(acc)
        return len(self.accessors) - 1


def write_glb(parts: Iterable[GlbPart], palette: np.ndarray, path: Path, root_name: str = "building",
              recentre: bool = True) -> None:
    """Write a .glb with flat-shaded meshes; each part becomes a node at its centre (or the origin)."""
    packer = _Packer()
    materials: list[gl.Material] = []
    for rgba in palette:
        transparent = float(rgba[3]) < 0.999
        materials.append(gl.Material(
            pbrMetallicRoughness=gl.PbrMetallicRoughness(
                baseColorFactor=[float(c) for c in rgba], metallicFactor=0.0, roughnessFactor=0.9),
            alphaMode=gl.BLEND if transparent else gl.OPAQUE, doubleSided=True))
    nodes: list[gl.Node] = [gl.Node(name=root_name, children=[])]
    meshes: list[gl.Mesh] = []
    for part in parts:
        tris = ifc_to_godot(part.verts[part.faces].reshape(-1, 3)).reshape(-1, 3, 3)
        centre = (tris.reshape(-1, 3).min(axis=0) + tris.reshape(-1, 3).max(axis=0)) / 2.0 if recentre else np.zeros(3)
        tris = tris - centre
        normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
        length = np.linalg.norm(normals, axis=1, keepdims=True)
        normals = np.divide(normals, length, out=np.zeros_like(normals), where=length > 1e-12)
        primitives: list[gl.Primitive] = []
        for mat in np.unique(part.face_material):
            sel = part.face_material == mat
            pos = tris[sel].reshape(-1, 3).astype(np.float32)
            nrm = np.repeat(normals[sel], 3, axis=0).astype(np.float32)
            p_acc = packer.add(pos, gl.VEC3, gl.FLOAT, gl.ARRAY_BUFFER, minmax=True)
            n_acc = packer.add(nrm, gl.VEC3, gl.FLOAT, gl.ARRAY_BUFFER)
            primitives.append(gl.Primitive(attributes=gl.Attributes(POSITION=p_acc, NORMAL=n_acc),
                                           material=int(mat)))
        meshes.append(gl.Mesh(name=part.name, primitives=primitives))
        nodes.append(gl.Node(name=part.name, mesh=len(meshes) - 1,
                             translation=[float(c) for c in centre], extras=dict(part.extras)))
        nodes[0].children.append(len(nodes) - 1)
    doc = gl.GLTF2(
        asset=gl.Asset(generator="pyagent", version="2.0"), scene=0, scenes=[gl.Scene(nodes=[0])],
        nodes=nodes, meshes=meshes, materials=materials, accessors=packer.accessors,
        bufferViews=packer.views, buffers=[gl.Buffer(byteLength=len(packer.blob))],
    )
    doc.set_binary_blob(bytes(packer.blob))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    doc.save_binary(str(tmp))
    tmp.replace(path)


def node_names(path: Path) -> list[str]:
    """Names of the element nodes in a glb written by ``write_glb`` (children of the root)."""
    doc = gl.GLTF2().load_binary(str(path))
    root = doc.nodes[doc.scenes[doc.scene].nodes[0]]
    return [doc.nodes[i].name for i in (root.children or [])]
