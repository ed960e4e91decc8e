"""Hostile and broken IFC files, made from a tiny valid model written with ifcopenshell.api."""

from __future__ import annotations

import os
import re
from pathlib import Path

import ifcopenshell.api.aggregate
import ifcopenshell.api.context
import ifcopenshell.api.geometry
import ifcopenshell.api.project
import ifcopenshell.api.root
import ifcopenshell.api.spatial
import ifcopenshell.api.unit
import numpy as np


def tiny_ifc(path: Path) -> Path:
    """Project, site, building, storey and three walls (millimetre units)."""
    m = ifcopenshell.api.project.create_file(version="IFC4")
    project = ifcopenshell.api.root.create_entity(m, ifc_class="IfcProject", name="Tiny")
    ifcopenshell.api.unit.assign_unit(m)
    model_ctx = ifcopenshell.api.context.add_context(m, context_type="Model")
    body = ifcopenshell.api.context.add_context(m, context_type="Model", context_identifier="Body",
                                                target_view="MODEL_VIEW", parent=model_ctx)
    site = ifcopenshell.api.root.create_entity(m, ifc_class="IfcSite", name="Site")
    building = ifcopenshell.api.root.create_entity(m, ifc_class="IfcBuilding", name="Building")
    storey = ifcopenshell.api.root.create_entity(m, ifc_class="IfcBuildingStorey", name="Ground")
    ifcopenshell.api.aggregate.assign_object(m, products=[site], relating_object=project)
    ifcopenshell.api.aggregate.assign_object(m, products=[building], relating_object=site)
    ifcopenshell.api.aggregate.assign_object(m, products=[storey], relating_object=building)
    for o in (site, building, storey):
        ifcopenshell.api.geometry.edit_object_placement(m, product=o)
    for i in range(3):
        wall = ifcopenshell.api.root.create_entity(m, ifc_class="IfcWall", name=f"Wall {i}")
        ifcopenshell.api.spatial.assign_container(m, products=[wall], relating_structure=storey)
        matrix = np.eye(4)
        matrix[0, 3] = 3.0 * i
        ifcopenshell.api.geometry.edit_object_placement(m, product=wall, matrix=matrix)
        rep = ifcopenshell.api.geometry.add_wall_representation(m, context=body, length=3, height=2.5, thickness=0.2)
        ifcopenshell.api.geometry.assign_representation(m, product=wall, representation=rep)
    m.write(str(path))
    return path


def _entity(text: str, cls: str, n: int = 0) -> tuple[str, str]:
    """(id, full line) of the n-th entity of a class in SPF text."""
    lines = re.findall(rf"^(#\d+)=({cls}\(.*\);)$", text, flags=re.M)
    ident, body = lines[n]
    return ident, f"{ident}={body}"


def variants(tiny: Path, folder: Path) -> dict[str, Path]:
    """name -> broken file. Each is refused with a clear error or loads (skipping what is broken)."""
    src = tiny.read_text()
    out: dict[str, Path] = {}

    def put(name: str, text: str | bytes) -> None:
        path = folder / f"{name}.ifc"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
        out[name] = path

    put("truncated", src[: len(src) // 2])
    put("no_end", src.replace("END-ISO-10303-21;", ""))
    put("wrong_schema", src.replace("FILE_SCHEMA(('IFC4'))", "FILE_SCHEMA(('IFC9'))"))
    put("other_step_schema", src.replace("FILE_SCHEMA(('IFC4'))",
                                         "FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'))"))
    put("garbage", b"ISO-10303-21;\n" + os.urandom(4096).replace(b"END", b"xxx") + b"\nEND-ISO-10303-21;\n")
    put("empty", "")
    put("json", '{"not": "ifc"}')
    put("no_project", re.sub(r"#\d+=IFCPROJECT\([^;]*\);", "", src))
    depth = 100_000
    put("deep_nesting", src.replace("ENDSEC;\nEND-ISO", "#99999=IFCCARTESIANPOINTLIST3D(" + "(" * depth + "1."
                                    + ")" * depth + ",$);\nENDSEC;\nEND-ISO", 1))
    # placement loops: the storey's placement relative to a wall's (which is relative to the storey's)
    placements = re.findall(r"^(#\d+)=IFCLOCALPLACEMENT\((#\d+|\$),(#\d+)\);$", src, flags=re.M)
    storey_pl = re.search(r"IFCBUILDINGSTOREY\('[^']*',[^,]*,[^,]*,[^,]*,[^,]*,(#\d+),", src).group(1)  # type: ignore[union-attr]
    wall_pl = re.search(r"IFCWALL\('[^']*',[^,]*,[^,]*,[^,]*,[^,]*,(#\d+),", src).group(1)  # type: ignore[union-attr]
    rel = {p: (r, a) for p, r, a in placements}
    put("placement_loop", src.replace(f"{storey_pl}=IFCLOCALPLACEMENT({rel[storey_pl][0]},{rel[storey_pl][1]});",
                                      f"{storey_pl}=IFCLOCALPLACEMENT({wall_pl},{rel[storey_pl][1]});"))
    put("placement_self_loop", src.replace(f"{wall_pl}=IFCLOCALPLACEMENT({rel[wall_pl][0]},{rel[wall_pl][1]});",
                                           f"{wall_pl}=IFCLOCALPLACEMENT({wall_pl},{rel[wall_pl][1]});"))
    # a placement chain 20,000 deep under the wall (valid IFC; the kernel recursed until it crashed)
    chain, prev = [], rel[wall_pl][0]
    for i in range(20_000):
        chain.append(f"#{200_000 + i}=IFCLOCALPLACEMENT({prev},{rel[wall_pl][1]});")
        prev = f"#{200_000 + i}"
    put("deep_placement", src.replace(f"{wall_pl}=IFCLOCALPLACEMENT({rel[wall_pl][0]},{rel[wall_pl][1]});",
                                      f"{wall_pl}=IFCLOCALPLACEMENT({prev},{rel[wall_pl][1]});")
        .replace("ENDSEC;\nEND-ISO", "\n".join(chain) + "\nENDSEC;\nEND-ISO", 1))
    # a boolean whose operand is itself, used as a wall's body
    solid, _ = _entity(src, "IFCEXTRUDEDAREASOLID")
    put("boolean_loop", src.replace("ENDSEC;\nEND-ISO", "#99998=IFCBOOLEANRESULT(.DIFFERENCE.,#99998," + solid
                                    + ");\nENDSEC;\nEND-ISO", 1).replace(f"({solid})", "(#99998)", 1))
    # bogus geometry: coordinates at the limit of doubles, a degenerate profile, wrong types, dangling refs
    put("huge_coordinates", re.sub(r"IFCCARTESIANPOINT\(\((3000\.),0\.,0\.\)\)",
                                   "IFCCARTESIANPOINT((1.E308,-1.E308,1.E308))", src, count=1))
    put("degenerate_profile", src.replace("(0.,200.),(3000.,200.),(3000.,0.)", "(0.,0.),(0.,0.),(0.,0.)"))
    wall_id, wall_line = _entity(src, "IFCWALL")
    put("wrong_types", src.replace(wall_line, re.sub(r",(#\d+),(#\d+),\$,\$\);$", f",{solid},{solid},$,$);",
                                                     wall_line)))
    put("dangling_reference", src.replace(wall_line, re.sub(r",(#\d+),(#\d+),\$,\$\);$", ",#777777,#777778,$,$);",
                                                            wall_line)))
    gids = re.findall(r"IFCWALL\('([^']{22})'", src)
    put("duplicate_globalid", src.replace(gids[1], gids[0]))
    huge = folder / "huge.ifc"
    with open(huge, "wb") as f:
        f.write(b"ISO-10303-21;\n")
        f.truncate(600 * 1024 * 1024)  # sparse: no disk used
    out["huge"] = huge
    return out
