"""Bodies built from IFC boolean trees (``IfcBooleanResult``, ``IfcBooleanClippingResult``) and bodies
with openings, without OpenCASCADE: the fast kernel tessellates each operand solid on its own
(``cgal-simple`` makes solids in a millisecond but cannot combine them) and manifold3d combines the
meshes. Half-spaces (plain, boxed and polygonally bounded) become plane cuts; mapped items are placed by
their origin and target; openings (``IfcRelVoidsElement``) are cut out of the body.

IfcOpenShell's own manifold kernels (``manifold``, ``hybrid-cgal-simple-manifold``, 0.9) were tried first:
on MiniProject they return 14 of its 112 boolean bodies different from OpenCASCADE's (up to 0.85 m in
box and half the volume), with no error; this module finds those (sheets left by coincident faces, see
``has_sheets``) and leaves them to the hybrid kernel.

Only what this module reads with certainty is made here; anything else (another item type, an operand
that is not a closed mesh, a mapped item placed in 2D, a damaged entity) raises ``NotBuilt`` and the
element is left to the hybrid kernel. ``tests/core/test_core_csg.py`` compares every element built here with the
hybrid kernel's body of it (box and volume) on real files.

    body = CsgBodies(model)
    mesh = body.mesh(product)      # CsgMesh (world metres) or raises NotBuilt
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

import ifcopenshell
import ifcopenshell.geom
import ifcopenshell.util.element
import ifcopenshell.util.placement
import ifcopenshell.util.unit
import manifold3d
import numpy as np

from pyagent.placements import Placements, axis2placement

#: The item types combined here; a body made of anything else is left to the hybrid kernel.
BOOLEANS = ("IfcBooleanResult",)  # IfcBooleanClippingResult is a subtype
HALF_SPACES = ("IfcHalfSpaceSolid",)  # IfcBoxedHalfSpace, IfcPolygonalBoundedHalfSpace are subtypes
#: How far beyond the body a polygonally bounded half-space's prism is made to reach (metres).
PRISM_MARGIN_M = 1.0
#: The kernel that makes each operand solid.
KERNEL: Final[Literal["cgal-simple"]] = "cgal-simple"
#: Faces smaller than this are not looked at for sheets; planes are told apart to these tolerances.
SHEET_MIN_AREA_M2 = 1e-8
PLANE_TOL_N = 1e-4
PLANE_TOL_M = 1e-5
SHEET_CHUNK = 512
#: Triangles smaller than this (m²) are dropped from a body.
MIN_AREA_M2 = 1e-10
#: How much larger a solid that cuts another is made each way (metres): a tenth of a millimetre.
GROW_M = 1e-4
#: The colour of a body the file gives none.
DEFAULT_RGBA = (0.8, 0.8, 0.8, 1.0)


def style_rgba(style: object) -> tuple[float, float, float, float]:
    """The colour of one of the kernel's materials (its diffuse colour and transparency)."""
    diffuse = getattr(style, "diffuse", None)
    if diffuse is None:
        return DEFAULT_RGBA
    try:
        r, g, b = float(diffuse.r()), float(diffuse.g()), float(diffuse.b())
    except (AttributeError, TypeError):
        return DEFAULT_RGBA
    transparency = getattr(style, "transparency", 0.0)
    try:
        alpha = 1.0 - float(transparency) if transparency == transparency else 1.0
    except (TypeError, ValueError):
        alpha = 1.0
    return (r, g, b, max(0.05, min(1.0, alpha)))


class NotBuilt(Exception):
    """The body is not one this module makes: the element goes to the hybrid kernel."""


@dataclass
class CsgMesh:
    """An element's body: world vertices (metres, float64), triangles, and its colour."""

    verts: np.ndarray
    faces: np.ndarray
    rgba: tuple[float, float, float, float] | None


@dataclass(frozen=True)
class _Plane:
    """The half-space {x: normal . x <= offset} (the material side), in the representation's frame."""

    normal: np.ndarray
    offset: float


def _item_settings() -> ifcopenshell.geom.settings:
    s = ifcopenshell.geom.settings()
    s.set("weld-vertices", True)
    return s


def _axis_placement(placement: ifcopenshell.entity_instance | None, scale: float,
                    axes: dict[tuple, np.ndarray]) -> np.ndarray:
    """4x4 matrix of an IfcAxis2Placement3D (translation in metres); ``axes``: the directions' memo
    (``pyagent.placements``)."""
    if placement is None:
        return np.eye(4)
    m = axis2placement(placement, axes)  # a fresh array
    m[:3, 3] *= scale
    return m


def _is_closed(tris: np.ndarray) -> bool:
    """Every edge used exactly twice, once each way (a closed, consistently oriented surface)."""
    edges = np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]])
    fwd = edges[:, 0].astype(np.int64) << 32 | edges[:, 1].astype(np.int64)
    rev = edges[:, 1].astype(np.int64) << 32 | edges[:, 0].astype(np.int64)
    fwd.sort()
    rev.sort()
    return bool(len(np.unique(fwd)) == len(fwd) and np.array_equal(fwd, rev))


def has_sheets(verts: np.ndarray, tris: np.ndarray) -> bool:
    """Whether a face lies on another that faces the other way (a sheet of no thickness, which booleans
    of coincident faces can leave): some face's centre inside an opposite face of the same plane."""
    t = verts[tris]
    n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    area = np.linalg.norm(n, axis=1)
    keep = np.flatnonzero(area > SHEET_MIN_AREA_M2 * 2)
    if len(keep) < 2:
        return False
    t, n = t[keep], n[keep] / area[keep, None]
    d = np.einsum("ij,ij->i", n, t[:, 0])
    centre = t.mean(axis=1)
    for lo in range(0, len(t), SHEET_CHUNK):
        rows = slice(lo, lo + SHEET_CHUNK)
        # pairs (i, j): opposite normals, the same plane
        i, j = np.nonzero((n[rows] @ n.T < -1.0 + PLANE_TOL_N) & (np.abs(d[rows, None] + d[None, :]) < PLANE_TOL_M))
        if not len(i):
            continue
        i = i + lo
        # the centre of face i inside face j (barycentric coordinates, all positive)
        a, b, c = t[j, 0], t[j, 1], t[j, 2]
        p = centre[i]
        v0, v1, v2 = b - a, c - a, p - a
        d00 = np.einsum("ij,ij->i", v0, v0)
        d01 = np.einsum("ij,ij->i", v0, v1)
        d11 = np.einsum("ij,ij->i", v1, v1)
        d20 = np.einsum("ij,ij->i", v2, v0)
        d21 = np.einsum("ij,ij->i", v2, v1)
        den = d00 * d11 - d01 * d01
        ok = den > 0
        v = np.where(ok, (d11 * d20 - d01 * d21) / np.where(ok, den, 1.0), -1.0)
        w = np.where(ok, (d00 * d21 - d01 * d20) / np.where(ok, den, 1.0), -1.0)
        if np.any((v > 1e-6) & (w > 1e-6) & (v + w < 1.0 - 1e-6)):
            return True
    return False


class CsgBodies:
    """Makes the bodies of one file's elements whose Body is a boolean tree (see the module's doc)."""

    def __init__(self, model: ifcopenshell.file, placements: Placements | None = None) -> None:
        self.model = model
        #: world placements, each worked out once (the loader's, shared with the shape sharing and the ingest)
        self.placements = placements if placements is not None else Placements()
        self.scale = float(ifcopenshell.util.unit.calculate_unit_scale(model))
        self.settings = _item_settings()
        # a whole element as the fast kernel makes it, in world coordinates, its openings left out
        self.uncut_settings = _item_settings()
        self.uncut_settings.set("use-world-coords", True)
        self.uncut_settings.set("disable-opening-subtractions", True)
        self._colours: dict[int, tuple[float, float, float, float] | None] = {}

    # -- what the element is made of ------------------------------------------------------------

    def body_items(self, product: ifcopenshell.entity_instance) -> list[ifcopenshell.entity_instance]:
        """The items of the product's one Body representation, when there is a boolean to make: a boolean
        tree among them, or openings cut into the product; raises ``NotBuilt`` otherwise."""
        items = self._body(product, ("Body",))
        if not any(i.is_a(BOOLEANS[0]) for i in items) and not self.openings(product):
            raise NotBuilt("no boolean item and no opening")
        return items

    def _body(self, product: ifcopenshell.entity_instance, identifiers: tuple[str, ...]
              ) -> list[ifcopenshell.entity_instance]:
        """The items of the product's one shape representation with one of these identifiers, in a context
        without a coordinate system of its own; raises ``NotBuilt`` otherwise."""
        rep = product.Representation
        bodies = [r for r in (rep.Representations if rep is not None else ())
                  if r.RepresentationIdentifier in identifiers and r.is_a("IfcShapeRepresentation")]
        if len(bodies) != 1:
            raise NotBuilt(f"no single {'/'.join(identifiers)} representation")
        body = bodies[0]
        context = body.ContextOfItems
        wcs = getattr(context, "WorldCoordinateSystem", None) if context is not None else None
        if context is not None and context.is_a("IfcGeometricRepresentationSubContext"):
            wcs = getattr(context.ParentContext, "WorldCoordinateSystem", None)
        if wcs is not None and not np.allclose(_axis_placement(wcs, self.scale, self.placements.axes), np.eye(4)):
            raise NotBuilt("a context with a coordinate system of its own")
        if not body.Items:
            raise NotBuilt("no body items")
        return list(body.Items)

    @staticmethod
    def openings(product: ifcopenshell.entity_instance) -> list[ifcopenshell.entity_instance]:
        """The openings cut into the product (``IfcRelVoidsElement``)."""
        return [rel.RelatedOpeningElement for rel in getattr(product, "HasOpenings", None) or ()
                if rel.RelatedOpeningElement is not None]

    def _placement(self, product: ifcopenshell.entity_instance) -> np.ndarray:
        """The product's placement, 4x4 with its translation in metres."""
        if product.ObjectPlacement is None:
            return np.eye(4)
        place = product.ObjectPlacement
        if place.is_a("IfcLocalPlacement"):
            m = self.placements.of(place).copy()
        else:  # a grid placement
            m = np.asarray(ifcopenshell.util.placement.get_local_placement(place), dtype=np.float64)
        m[:3, 3] *= self.scale
        return m

    def _items_solid(self, items: list[ifcopenshell.entity_instance]) -> manifold3d.Manifold:
        """The union of a representation's items (a half-space alone bounds nothing: not made here)."""
        solid = manifold3d.Manifold()
        for item in items:
            if item.is_a(HALF_SPACES[0]):
                raise NotBuilt("a half-space on its own")
            solid = solid + self._solid(item)
        return solid

    # -- building ----------------------------------------------------------------------------

    def _leaf(self, item: ifcopenshell.entity_instance) -> manifold3d.Manifold:
        try:
            tri: Any = ifcopenshell.geom.create_shape(self.settings, item, geometry_library=KERNEL)
        except RuntimeError as exc:
            raise NotBuilt(f"{item.is_a()} not made by the fast kernel") from exc
        v = np.asarray(tri.verts, dtype=np.float64).reshape(-1, 3)
        f = np.asarray(tri.faces, dtype=np.uint32).reshape(-1, 3)
        if not len(f) or not np.all(np.isfinite(v)) or not _is_closed(f):
            raise NotBuilt(f"{item.is_a()} is not a closed mesh")
        solid = manifold3d.Manifold(manifold3d.Mesh64(vert_properties=v, tri_verts=f))
        if solid.status() != manifold3d.Error.NoError:
            raise NotBuilt(f"{item.is_a()} is not a manifold")
        return solid

    def _plane(self, half: ifcopenshell.entity_instance) -> _Plane:
        surface = half.BaseSurface
        if surface is None or not surface.is_a("IfcPlane"):
            raise NotBuilt("a half-space bounded by a surface that is no plane")
        m = _axis_placement(surface.Position, self.scale, self.placements.axes)
        normal, point = m[:3, 2], m[:3, 3]
        # AgreementFlag TRUE: the surface normal points away from the material
        if not half.AgreementFlag:
            normal = -normal
        return _Plane(normal, float(normal @ point))

    def _bounded_prism(self, half: ifcopenshell.entity_instance, around: manifold3d.Manifold) -> manifold3d.Manifold:
        """A polygonally bounded half-space as a solid that covers ``around`` wherever the half-space does."""
        boundary = half.PolygonalBoundary
        if boundary is None or not boundary.is_a("IfcPolyline"):
            raise NotBuilt("a half-space bounded by a curve that is no polyline")
        pts = np.array([[float(c) for c in p.Coordinates[:2]] for p in boundary.Points], dtype=np.float64) * self.scale
        if len(pts) > 1 and np.allclose(pts[0], pts[-1]):
            pts = pts[:-1]
        if len(pts) < 3:
            raise NotBuilt("a half-space bounded by fewer than three points")
        x, y = pts[:, 0], pts[:, 1]
        if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:
            pts = pts[::-1]
        frame = _axis_placement(half.Position, self.scale, self.placements.axes)
        # how far the prism must reach along its axis to pass through all of ``around``
        lo, hi = np.asarray(around.bounding_box()[:3]), np.asarray(around.bounding_box()[3:])
        corners = np.array([[a, b, c] for a in (lo[0], hi[0]) for b in (lo[1], hi[1]) for c in (lo[2], hi[2])])
        inv = np.linalg.inv(frame)
        z = corners @ inv[:3, :3].T + inv[:3, 3]
        z0, z1 = float(z[:, 2].min()) - PRISM_MARGIN_M, float(z[:, 2].max()) + PRISM_MARGIN_M
        section = manifold3d.CrossSection([pts])
        prism = manifold3d.Manifold.extrude(section, z1 - z0).translate((0.0, 0.0, z0))
        prism = prism.transform(frame[:3, :].astype(np.float64))
        plane = self._plane(half)
        # keep the part of the prism on the half-space's material side
        return prism.trim_by_plane(tuple(-plane.normal), -plane.offset)

    def _solid(self, item: ifcopenshell.entity_instance) -> manifold3d.Manifold:
        if item.is_a(BOOLEANS[0]):
            first = self._solid(item.FirstOperand)
            second = item.SecondOperand
            op = item.Operator
            if second.is_a(HALF_SPACES[0]):
                if second.is_a("IfcPolygonalBoundedHalfSpace"):
                    cut = self._bounded_prism(second, first)
                    return self._combine(first, cut, op)
                plane = self._plane(second)
                if op == "DIFFERENCE":  # keep what lies outside the material side
                    return first.trim_by_plane(tuple(plane.normal), plane.offset)
                if op == "INTERSECTION":
                    return first.trim_by_plane(tuple(-plane.normal), -plane.offset)
                raise NotBuilt("a union with a half-space")
            return self._combine(first, self._solid(second), op)
        if item.is_a(HALF_SPACES[0]):
            raise NotBuilt("a half-space as a first operand")
        if item.is_a("IfcMappedItem"):  # a representation map's items, placed by its origin and target
            source = item.MappingSource
            target = item.MappingTarget
            if source is None or source.MappedRepresentation is None or source.MappingOrigin is None \
                    or target is None or not target.is_a("IfcCartesianTransformationOperator3D"):
                raise NotBuilt("a mapped item this module does not place")
            if not source.MappingOrigin.is_a("IfcAxis2Placement3D"):
                raise NotBuilt("a mapped item placed in 2D")
            m = np.asarray(ifcopenshell.util.placement.get_mappeditem_transformation(item), dtype=np.float64)
            m[:3, 3] *= self.scale
            return self._items_solid(list(source.MappedRepresentation.Items)).transform(m[:3, :])
        if item.is_a("IfcCsgPrimitive3D") or item.is_a("IfcSweptAreaSolid") or item.is_a("IfcManifoldSolidBrep") \
                or item.is_a("IfcSweptDiskSolid"):
            return self._leaf(item)
        raise NotBuilt(f"{item.is_a()} in a boolean tree")

    @staticmethod
    def _combine(a: manifold3d.Manifold, b: manifold3d.Manifold, op: str) -> manifold3d.Manifold:
        if op == "DIFFERENCE":
            return a - _grown(b)
        if op == "UNION":
            return a + b
        if op == "INTERSECTION":
            return a ^ b
        raise NotBuilt(f"boolean operator {op}")

    def mesh(self, product: ifcopenshell.entity_instance) -> CsgMesh:
        """The product's body in world coordinates (metres); raises ``NotBuilt`` (also for a damaged
        file's entities of the wrong type or missing attributes: the hybrid kernel says what is wrong)."""
        try:
            return self._mesh(product)
        except (AttributeError, TypeError, ValueError, IndexError, RuntimeError, np.linalg.LinAlgError) as exc:
            raise NotBuilt(f"{type(exc).__name__}: {exc}") from exc

    def _mesh(self, product: ifcopenshell.entity_instance) -> CsgMesh:
        items = self.body_items(product)
        try:
            solid = self._items_solid(items)
        except NotBuilt:
            if any(i.is_a(BOOLEANS[0]) for i in items):
                raise
            return self._surface_with_openings(product, items)
        place = self._placement(product)
        openings = self.openings(product)
        if openings:
            into = np.linalg.inv(place)
            cuts = []
            for opening in openings:
                cut = self._items_solid(self._body(opening, ("Body", "Reference")))
                cuts.append(_grown(cut).transform((into @ self._placement(opening))[:3, :]))
            solid = solid - manifold3d.Manifold.batch_boolean(cuts, manifold3d.OpType.Add)
        out = solid.to_mesh64()
        v = np.asarray(out.vert_properties, dtype=np.float64)[:, :3]
        f = np.asarray(out.tri_verts, dtype=np.int32).reshape(-1, 3)
        if not len(f):
            raise NotBuilt("the boolean tree leaves nothing")
        if has_sheets(v, f):
            raise NotBuilt("faces of opposite sides share a plane (a sheet of no thickness may be left)")
        # triangles of no area (slivers the booleans leave) draw nothing and have no normal
        t = v[f]
        f = f[np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1) > 2 * MIN_AREA_M2]
        if not len(f):
            raise NotBuilt("the boolean tree leaves nothing")
        world = v @ place[:3, :3].T + place[:3, 3]
        return CsgMesh(world, f, self.colour(product, items))

    def _surface_with_openings(self, product: ifcopenshell.entity_instance,
                               items: list[ifcopenshell.entity_instance]) -> CsgMesh:
        """A body with openings that is no closed solid of the item types above (a surface model, a face
        set): the fast kernel's mesh of it with the openings left out, then each opening cut away from its
        triangles. An opening clear of the body's box leaves it as it is; one that reaches into it must be
        convex (a box, any convex prism) and is clipped away plane by plane; any other opening, or a closed
        body that an opening reaches into (its cut would need new faces), is left to the hybrid kernel."""
        try:
            shape: Any = ifcopenshell.geom.create_shape(self.uncut_settings, product, geometry_library=KERNEL)
        except RuntimeError as exc:
            raise NotBuilt(f"{product.is_a()} not made by the fast kernel") from exc
        g = shape.geometry
        v = np.asarray(g.verts, dtype=np.float64).reshape(-1, 3)
        f = np.asarray(g.faces, dtype=np.int64).reshape(-1, 3)
        if not len(f) or not np.all(np.isfinite(v)):
            raise NotBuilt(f"{product.is_a()} has no body from the fast kernel")
        if len({m.name for m in g.materials}) > 1:
            raise NotBuilt("a body drawn in several materials")
        lo, hi = v.min(axis=0) - GROW_M, v.max(axis=0) + GROW_M
        closed = _is_closed(f)
        tris = v[f]
        for opening in self.openings(product):
            cut = _grown(self._items_solid(self._body(opening, ("Body", "Reference")))
                         ).transform(self._placement(opening)[:3, :])
            box = np.asarray(cut.bounding_box(), dtype=np.float64)
            if np.any(box[:3] > hi) or np.any(box[3:] < lo):
                continue  # clear of the body
            if closed:
                raise NotBuilt("an opening into a closed body the fast kernel made")
            tris = cut_convex(tris, _convex_planes(cut))
        if not len(tris):
            raise NotBuilt("the openings leave nothing")
        verts, faces = _welded(tris)
        rgba = self.colour(product, items)
        return CsgMesh(verts, faces, rgba if rgba is not None or not g.materials else style_rgba(g.materials[0]))

    # -- colour ----------------------------------------------------------------------------------

    def colour(self, product: ifcopenshell.entity_instance, items: list[ifcopenshell.entity_instance]
               ) -> tuple[float, float, float, float] | None:
        """The surface colour the element is drawn with: its body's styled item (the root of the tree,
        else its first operands), else its material's; None when neither has one."""
        for item in items:
            rgba = self._item_colour(item)
            if rgba is not None:
                return rgba
        for mat in ifcopenshell.util.element.get_materials(product):
            key = mat.id()
            if key not in self._colours:
                self._colours[key] = _material_colour(mat)
            if self._colours[key] is not None:
                return self._colours[key]
        return None

    def _item_colour(self, item: ifcopenshell.entity_instance) -> tuple[float, float, float, float] | None:
        """The style of an item, else of its first operands, else (a mapped item) of the items it maps."""
        node: ifcopenshell.entity_instance | None = item
        while node is not None:
            rgba = self._styled(node)
            if rgba is not None:
                return rgba
            if node.is_a("IfcMappedItem") and node.MappingSource is not None \
                    and node.MappingSource.MappedRepresentation is not None:
                for inner in node.MappingSource.MappedRepresentation.Items or ():
                    rgba = self._item_colour(inner)
                    if rgba is not None:
                        return rgba
            node = node.FirstOperand if node.is_a(BOOLEANS[0]) else None
        return None

    def _styled(self, item: ifcopenshell.entity_instance) -> tuple[float, float, float, float] | None:
        for styled in getattr(item, "StyledByItem", None) or ():
            rgba = _style_colour(styled)
            if rgba is not None:
                return rgba
        return None


def _convex_planes(solid: manifold3d.Manifold) -> tuple[np.ndarray, np.ndarray]:
    """The planes bounding a convex solid, (normals, offsets) with the solid where normal . x <= offset;
    raises ``NotBuilt`` when the solid is not convex."""
    mesh = solid.to_mesh64()
    v = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    t = v[np.asarray(mesh.tri_verts, dtype=np.int64).reshape(-1, 3)]
    n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    length = np.linalg.norm(n, axis=1)
    keep = length > 2 * MIN_AREA_M2
    n = n[keep] / length[keep, None]
    d = np.einsum("ij,ij->i", n, t[keep, 0])
    # one plane per distinct (normal, offset)
    key = np.round(np.c_[n / PLANE_TOL_N, d / PLANE_TOL_M]).astype(np.int64)
    _, first = np.unique(key, axis=0, return_index=True)
    n, d = n[first], d[first]
    if not len(n) or np.any(v @ n.T - d > PLANE_TOL_M * 10):
        raise NotBuilt("an opening that is not convex")
    return n, d


def _clip(poly: np.ndarray, normal: np.ndarray, offset: float) -> np.ndarray:
    """The part of a convex polygon (k x 3) where normal . x <= offset (Sutherland-Hodgman)."""
    s = poly @ normal - offset
    out = []
    for i in range(len(poly)):
        j = (i + 1) % len(poly)
        if s[i] <= 0:
            out.append(poly[i])
        if (s[i] < 0 < s[j]) or (s[j] < 0 < s[i]):
            out.append(poly[i] + (poly[j] - poly[i]) * (s[i] / (s[i] - s[j])))
    return np.asarray(out, dtype=np.float64).reshape(-1, 3)


def cut_convex(tris: np.ndarray, planes: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Triangles (t x 3 x 3) with the part inside a convex solid (its bounding planes) taken away: a
    triangle wholly outside one plane stays as it is, one wholly inside every plane goes, and one across
    the solid's boundary is split along the planes it crosses."""
    normals, offsets = planes
    s = np.einsum("tkj,pj->tkp", tris, normals) - offsets  # t x 3 corners x planes
    outside = np.any(np.all(s >= -PLANE_TOL_M, axis=1), axis=1)
    inside = np.all(s <= PLANE_TOL_M, axis=(1, 2))
    kept = [tris[outside]]
    for tri in tris[~outside & ~inside]:
        rest = tri
        for n, d in zip(normals, offsets, strict=True):
            piece = _clip(rest, -n, -d)  # the part outside this plane is kept
            if len(piece) >= 3:
                kept.append(np.stack([np.repeat(piece[:1], len(piece) - 2, axis=0), piece[1:-1], piece[2:]], axis=1))
            rest = _clip(rest, n, d)
            if len(rest) < 3:
                break
    out = np.concatenate(kept) if kept else np.empty((0, 3, 3))
    area = np.linalg.norm(np.cross(out[:, 1] - out[:, 0], out[:, 2] - out[:, 0]), axis=1)
    return out[area > 2 * MIN_AREA_M2]


def _welded(tris: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Shared vertices and triangles of a triangle soup (t x 3 x 3)."""
    verts, faces = np.unique(tris.reshape(-1, 3), axis=0, return_inverse=True)
    return verts, faces.reshape(-1, 3).astype(np.int32)


def _grown(cutter: manifold3d.Manifold) -> manifold3d.Manifold:
    """``cutter`` made ``GROW_M`` larger each way about the centre of its box: a face of it that lies on a
    face of what it cuts then cuts through it rather than leaving a sheet of no thickness."""
    box = np.asarray(cutter.bounding_box(), dtype=np.float64)
    lo, hi = box[:3], box[3:]
    size = hi - lo
    if not np.all(np.isfinite(size)) or np.any(size <= 0):
        return cutter
    centre = (lo + hi) / 2.0
    factor = (size + 2.0 * GROW_M) / size
    return cutter.translate(tuple(-centre)).scale(tuple(factor)).translate(tuple(centre))


def _material_colour(material: ifcopenshell.entity_instance) -> tuple[float, float, float, float] | None:
    for rep in getattr(material, "HasRepresentation", None) or ():
        for styled_rep in rep.Representations or ():
            for item in styled_rep.Items or ():
                if item.is_a("IfcStyledItem"):
                    rgba = _style_colour(item)
                    if rgba is not None:
                        return rgba
    return None


def _surface_styles(styled: ifcopenshell.entity_instance) -> list[ifcopenshell.entity_instance]:
    out = []
    for style in styled.Styles or ():
        if style.is_a("IfcPresentationStyleAssignment"):
            out += [s for s in style.Styles or () if s.is_a("IfcSurfaceStyle")]
        elif style.is_a("IfcSurfaceStyle"):
            out.append(style)
    return out


def _style_colour(styled: ifcopenshell.entity_instance) -> tuple[float, float, float, float] | None:
    """The diffuse colour of a styled item's surface style: the rendering's diffuse colour (or its factor
    of the surface colour), else the surface colour."""
    for surface in _surface_styles(styled):
        for element in surface.Styles or ():
            if not element.is_a("IfcSurfaceStyleShading"):
                continue
            c = element.SurfaceColour
            rgb = (float(c.Red), float(c.Green), float(c.Blue))
            diffuse = getattr(element, "DiffuseColour", None)
            if diffuse is not None:
                if isinstance(diffuse, ifcopenshell.entity_instance) and diffuse.is_a("IfcColourRgb"):
                    rgb = (float(diffuse.Red), float(diffuse.Green), float(diffuse.Blue))
                else:
                    factor = float(diffuse.wrappedValue if hasattr(diffuse, "wrappedValue") else diffuse)
                    rgb = (rgb[0] * factor, rgb[1] * factor, rgb[2] * factor)
            transparency = getattr(element, "Transparency", None)
            alpha = 1.0 - float(transparency) if transparency is not None else 1.0
            return (*rgb, max(0.05, min(1.0, alpha)))
    return None
