"""BCF review notes: topics with a viewpoint (the user's eye, the elements talked about, what was hidden
and coloured) and the spoken transcript, exported as a BCF 2.1 ``.bcfzip`` that BIM review tools open.

Archive layout (BCF-XML 2.1)::

    bcf.version                     <Version VersionId="2.1"><DetailedVersion>2.1</DetailedVersion></Version>
    project.bcfp                    <ProjectExtension><Project ProjectId=...><Name>...</Name></Project>...
    <topic guid>/markup.bcf         <Markup><Header><File .../></Header><Topic ...>...</Topic><Comment/>
                                    <Viewpoints Guid=...><Viewpoint>viewpoint.bcfv</Viewpoint></Viewpoints>
    <topic guid>/viewpoint.bcfv     <VisualizationInfo Guid=...><Components>...</Components>
                                    <PerspectiveCamera>...</PerspectiveCamera></VisualizationInfo>

Coordinates are the IFC world frame in metres (the agent's frame). Written with ``zipfile`` and
``xml.etree``; ``read_bcfzip`` reads an archive back (used by the tests and to check exports).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import uuid
import zipfile
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

BCF_VERSION = "2.1"
FIELD_OF_VIEW = 60.0
GUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
IFC_GUID_RE = re.compile(r"^[0-9A-Za-z_$]{22}$")
MAX_TEXT = 2000
MAX_MEMBER_BYTES = 32 << 20
MAX_MEMBERS = 10_000
# What XML 1.0 cannot hold: control characters other than tab, newline and return, lone surrogates, U+FFFE/F.
XML_INVALID = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 forbids (each becomes nothing)."""
    return XML_INVALID.sub("", text)


class BcfError(Exception):
    """A BCF archive cannot be written or read; the message says why."""


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


@dataclass
class Camera:
    position: list[float]
    direction: list[float]
    up: list[float]
    fov: float = FIELD_OF_VIEW

    @classmethod
    def from_pose(cls, position: list[float], yaw: float, pitch: float) -> Camera:
        y, p = math.radians(yaw), math.radians(pitch)
        direction = [math.cos(y) * math.cos(p), math.sin(y) * math.cos(p), math.sin(p)]
        up = [-math.cos(y) * math.sin(p), -math.sin(y) * math.sin(p), math.cos(p)]
        return cls([float(v) for v in position], direction, up)


@dataclass
class Topic:
    """One review note."""

    guid: str
    title: str
    description: str
    author: str
    created: str
    camera: Camera
    viewpoint_guid: str
    comment_guid: str
    transcript: str | None = None
    selected: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    colors: dict[str, list[float]] = field(default_factory=dict)
    #: The section when the note was taken: clipping planes {"location", "direction"} (IFC frame).
    sections: list[dict[str, list[float]]] = field(default_factory=list)
    index: int = 0
    topic_type: str = "Issue"
    status: str = "Open"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Topic:
        """A topic from its stored form; ``ValueError`` for anything that does not fit."""
        try:
            cam = data["camera"]
            camera = Camera([float(v) for v in cam["position"]], [float(v) for v in cam["direction"]],
                            [float(v) for v in cam["up"]], float(cam.get("fov", FIELD_OF_VIEW)))
            topic = cls(
                guid=str(data["guid"]), title=str(data["title"])[:MAX_TEXT],
                description=str(data["description"])[:MAX_TEXT], author=str(data["author"])[:200],
                created=str(data["created"]), camera=camera, viewpoint_guid=str(data["viewpoint_guid"]),
                comment_guid=str(data["comment_guid"]),
                transcript=None if data.get("transcript") is None else str(data["transcript"])[:MAX_TEXT],
                selected=[str(g) for g in data.get("selected", [])], hidden=[str(g) for g in data.get("hidden", [])],
                colors={str(k): [float(c) for c in v] for k, v in data.get("colors", {}).items()},
                sections=[{"location": [float(c) for c in p["location"]],
                           "direction": [float(c) for c in p["direction"]]} for p in data.get("sections", [])],
                index=int(data.get("index", 0)), topic_type=str(data.get("topic_type", "Issue"))[:80],
                status=str(data.get("status", "Open"))[:80])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a stored topic: {exc}") from exc
        for g in (topic.guid, topic.viewpoint_guid, topic.comment_guid):
            if not GUID_RE.match(g):
                raise ValueError(f"bad topic guid {g!r}")
        bad = [g for g in topic.selected + topic.hidden + list(topic.colors) if not IFC_GUID_RE.match(g)]
        if bad:
            raise ValueError(f"bad IFC GlobalId {bad[0]!r}")
        if not all(len(c) == 4 for c in topic.colors.values()):
            raise ValueError("colours must be [r, g, b, a]")
        numbers = camera.position + camera.direction + camera.up + [camera.fov]
        numbers += [c for p in topic.sections for c in p["location"] + p["direction"]]
        if not all(math.isfinite(v) for v in numbers) or len(camera.position) != 3:
            raise ValueError("bad camera")
        return topic


def make_topic(text: str, ids: list[str], position: list[float], yaw: float, pitch: float,
               hidden: list[str], colors: dict[str, list[float]], transcript: str | None, author: str,
               index: int, sections: list[dict[str, list[float]]] | None = None,
               topic_type: str = "Issue") -> Topic:
    text = xml_text(text)
    transcript = xml_text(transcript) if transcript is not None else None
    title = " ".join(text.split())[:120] or "Review note"
    description = text.strip()[:MAX_TEXT]
    if transcript and transcript.strip() and transcript.strip() != text.strip():
        description += f'\n\nSaid: "{transcript.strip()[:MAX_TEXT]}"'
    return Topic(guid=str(uuid.uuid4()), title=title, description=description, author=author or "reviewer",
                 created=now_iso(), camera=Camera.from_pose(position, yaw, pitch),
                 viewpoint_guid=str(uuid.uuid4()), comment_guid=str(uuid.uuid4()), transcript=transcript,
                 selected=[g for g in ids if IFC_GUID_RE.match(g)], hidden=[g for g in hidden if IFC_GUID_RE.match(g)],
                 colors={g: list(c) for g, c in colors.items() if IFC_GUID_RE.match(g)},
                 sections=[{"location": list(p["location"]), "direction": list(p["direction"])}
                           for p in sections or []], index=index, topic_type=topic_type)


# ---- the topic store (survives crashes) ------------------------------------------------------
class TopicStore:
    """The session's topics; with a folder, each is a JSON file written atomically (fsync) on creation."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.topics: list[Topic] = []

    def load(self) -> list[str]:
        """Read the folder's topics; returns a problem line for each file that was skipped."""
        problems: list[str] = []
        self.topics = []
        if self.folder is None or not self.folder.is_dir():
            return problems
        for stale in self.folder.glob("*.json.tmp"):  # a note cut short by a kill: never acknowledged
            with contextlib.suppress(OSError):
                stale.unlink()
        for path in sorted(self.folder.glob("*.json")):
            try:
                if path.stat().st_size > 1 << 20:
                    raise ValueError("file too large")
                topic = Topic.from_json(json.loads(path.read_text(encoding="utf-8")))
                if path.stem != topic.guid:
                    raise ValueError("file name does not match the topic")
            except (OSError, ValueError, UnicodeDecodeError) as exc:
                problems.append(f"skipped review note {path.name}: {exc}")
                continue
            self.topics.append(topic)
        self.topics.sort(key=lambda t: (t.index, t.created))
        return problems

    def next_index(self) -> int:
        return max((t.index for t in self.topics), default=0) + 1

    def add(self, topic: Topic) -> None:
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / f"{topic.guid}.json"
            tmp = path.with_suffix(".json.tmp")
            try:
                with open(tmp, "w", encoding="utf-8") as f:
                    json.dump(topic.to_json(), f, ensure_ascii=False)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, path)
            except OSError:
                with contextlib.suppress(OSError):
                    tmp.unlink()  # a failed note leaves nothing behind
                raise
            with contextlib.suppress(OSError):
                fd = os.open(self.folder, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
        self.topics.append(topic)

    def discard(self, guid: str) -> None:
        self.topics = [t for t in self.topics if t.guid != guid]
        if self.folder is not None and GUID_RE.match(guid):
            with contextlib.suppress(OSError):
                (self.folder / f"{guid}.json").unlink()


# ---- writing ---------------------------------------------------------------------------------
def _xml(root: ET.Element) -> bytes:
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, {k: xml_text(v) for k, v in attrs.items()})
    if text is not None:
        el.text = xml_text(text)
    return el


def _xyz(parent: ET.Element, tag: str, v: list[float]) -> None:
    el = _sub(parent, tag)
    for axis, value in zip("XYZ", v, strict=True):
        _sub(el, axis, repr(float(value)))


def _argb(rgba: list[float]) -> str:
    r, g, b, a = (max(0, min(255, round(float(c) * 255))) for c in rgba)
    return f"{a:02X}{r:02X}{g:02X}{b:02X}"


def markup_xml(topic: Topic, ifc_filename: str, ifc_project: str | None, file_date: str | None) -> bytes:
    root = ET.Element("Markup")
    header = _sub(root, "Header")
    attrs = {"isExternal": "true"}
    if ifc_project and IFC_GUID_RE.match(ifc_project):
        attrs["IfcProject"] = ifc_project
    file_el = _sub(header, "File", **attrs)
    _sub(file_el, "Filename", ifc_filename)
    if file_date:
        _sub(file_el, "Date", file_date)
    t = _sub(root, "Topic", Guid=topic.guid, TopicType=topic.topic_type, TopicStatus=topic.status)
    _sub(t, "Title", topic.title)
    _sub(t, "Index", str(topic.index))
    _sub(t, "CreationDate", topic.created)
    _sub(t, "CreationAuthor", topic.author)
    _sub(t, "Description", topic.description)
    c = _sub(root, "Comment", Guid=topic.comment_guid)
    _sub(c, "Date", topic.created)
    _sub(c, "Author", topic.author)
    _sub(c, "Comment", topic.transcript or topic.description)
    _sub(c, "Viewpoint", Guid=topic.viewpoint_guid)
    vp = _sub(root, "Viewpoints", Guid=topic.viewpoint_guid)
    _sub(vp, "Viewpoint", "viewpoint.bcfv")
    return _xml(root)


def viewpoint_xml(topic: Topic, known: set[str] | None = None,
                  origin: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> bytes:
    """The topic's viewpoint; with ``known``, components that are not in the file the archive names
    (elements deleted in a saved revision, props not saved yet) are left out."""
    def keep(ids: list[str]) -> list[str]:
        return [g for g in ids if known is None or g in known]

    root = ET.Element("VisualizationInfo", Guid=topic.viewpoint_guid)
    comps = _sub(root, "Components")
    selected, hidden = keep(topic.selected), keep(topic.hidden)
    colors = {g: c for g, c in topic.colors.items() if known is None or g in known}
    _sub(comps, "ViewSetupHints", SpacesVisible="false", SpaceBoundariesVisible="false", OpeningsVisible="false")
    if selected:  # BCF 2.1 wants at least one Component in a Selection and in Exceptions
        sel = _sub(comps, "Selection")
        for g in selected:
            _sub(sel, "Component", IfcGuid=g)
    vis = _sub(comps, "Visibility", DefaultVisibility="true")
    if hidden:
        exc = _sub(vis, "Exceptions")
        for g in hidden:
            _sub(exc, "Component", IfcGuid=g)
    if colors:
        coloring = _sub(comps, "Coloring")
        by_colour: dict[str, list[str]] = {}
        for g, rgba in sorted(colors.items()):
            by_colour.setdefault(_argb(rgba), []).append(g)
        for colour, ids in by_colour.items():
            col = _sub(coloring, "Color", Color=colour)
            for g in ids:
                _sub(col, "Component", IfcGuid=g)
    cam = _sub(root, "PerspectiveCamera")
    # Positions in the file's frame: the session's local frame plus the building's origin.
    _xyz(cam, "CameraViewPoint", [float(a) + float(o) for a, o in zip(topic.camera.position, origin, strict=True)])
    _xyz(cam, "CameraDirection", topic.camera.direction)
    _xyz(cam, "CameraUpVector", topic.camera.up)
    _sub(cam, "FieldOfView", repr(float(topic.camera.fov)))
    if topic.sections:
        planes = _sub(root, "ClippingPlanes")
        for p in topic.sections:  # BCF's convention is ours: Direction points at what is cut away
            plane = _sub(planes, "ClippingPlane")
            _xyz(plane, "Location", [float(a) + float(o) for a, o in zip(p["location"], origin, strict=True)])
            _xyz(plane, "Direction", p["direction"])
    return _xml(root)


def version_xml() -> bytes:
    root = ET.Element("Version", VersionId=BCF_VERSION)
    _sub(root, "DetailedVersion", BCF_VERSION)
    return _xml(root)


def project_xml(project_id: str, name: str) -> bytes:
    root = ET.Element("ProjectExtension")
    p = _sub(root, "Project", ProjectId=project_id)
    _sub(p, "Name", name or "Building")
    _sub(root, "ExtensionSchema", "")
    return _xml(root)


def project_id_for(file_hash: str) -> str:
    """A stable BCF project id for a model (the same file always gets the same id)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"pyagent:ifc:{file_hash}"))


def write_bcfzip(topics: list[Topic], path: Path, *, project_name: str, project_id: str, ifc_filename: str,
                 ifc_project: str | None = None, file_date: str | None = None,
                 known_ids: set[str] | None = None, origin: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> Path:
    """Write the topics as a BCF 2.1 archive at ``path`` (a new file, written atomically). The markup
    names ``ifc_filename``; ``known_ids``, when given, are the GlobalIds that file holds: viewpoints refer
    to no others; ``origin`` is added to positions (the building's local origin in the file's frame)."""
    path = Path(path)
    if path.exists():
        raise BcfError(f"{path} already exists")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
            z.writestr("bcf.version", version_xml())
            z.writestr("project.bcfp", project_xml(project_id, project_name))
            for topic in topics:
                z.writestr(f"{topic.guid}/markup.bcf", markup_xml(topic, ifc_filename, ifc_project, file_date))
                z.writestr(f"{topic.guid}/viewpoint.bcfv", viewpoint_xml(topic, known_ids, origin))
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)  # never replaces a file another writer put there meanwhile
        except FileExistsError as exc:
            raise BcfError(f"{path} already exists") from exc
        except OSError:  # a file system without hard links
            if path.exists():
                raise BcfError(f"{path} already exists") from None
            os.replace(tmp, path)
    except OSError as exc:
        raise BcfError(f"cannot write {path}: {exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path


# ---- reading ---------------------------------------------------------------------------------
def _text(el: ET.Element | None, tag: str) -> str | None:
    if el is None:
        return None
    child = el.find(tag)
    return child.text if child is not None else None


def _vec(el: ET.Element | None) -> list[float]:
    if el is None:
        raise BcfError("missing camera vector")
    return [float(el.findtext(a) or "nan") for a in "XYZ"]


def _parse(z: zipfile.ZipFile, name: str) -> ET.Element:
    info = z.getinfo(name)
    if info.file_size > MAX_MEMBER_BYTES:
        raise BcfError(f"{name} is too large")
    data = z.read(name)
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise BcfError(f"{name}: document type declarations are not allowed")
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise BcfError(f"{name} is not well-formed XML: {exc}") from exc


def read_bcfzip(path: Path) -> dict[str, Any]:
    """A BCF 2.x archive as plain data: version, project and topics (with their viewpoints).

    Raises ``BcfError`` for anything that is not a well-formed BCF archive."""
    try:
        z = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        raise BcfError(f"{path} is not a zip archive: {exc}") from exc
    with z:
        names = z.namelist()
        if len(names) > MAX_MEMBERS:
            raise BcfError("too many files in the archive")
        for n in names:
            if n.startswith("/") or ".." in n.split("/") or "\\" in n:
                raise BcfError(f"unsafe file name in the archive: {n!r}")
        if "bcf.version" not in names:
            raise BcfError("no bcf.version in the archive")
        version = _parse(z, "bcf.version")
        if version.tag != "Version":
            raise BcfError("bcf.version has no Version element")
        out: dict[str, Any] = {"version": version.get("VersionId"),
                               "detailed_version": version.findtext("DetailedVersion"), "project": None,
                               "topics": []}
        if "project.bcfp" in names:
            proj = _parse(z, "project.bcfp").find("Project")
            if proj is not None:
                out["project"] = {"id": proj.get("ProjectId"), "name": proj.findtext("Name")}
        for name in sorted(n for n in names if n.endswith("/markup.bcf")):
            folder = name.rsplit("/", 1)[0]
            markup = _parse(z, name)
            topic_el = markup.find("Topic")
            if markup.tag != "Markup" or topic_el is None:
                raise BcfError(f"{name} has no Markup/Topic")
            file_el = markup.find("Header/File")
            topic: dict[str, Any] = {
                "guid": topic_el.get("Guid"), "folder": folder, "type": topic_el.get("TopicType"),
                "status": topic_el.get("TopicStatus"), "title": _text(topic_el, "Title"),
                "created": _text(topic_el, "CreationDate"), "author": _text(topic_el, "CreationAuthor"),
                "description": _text(topic_el, "Description"),
                "file": None if file_el is None else {"ifc_project": file_el.get("IfcProject"),
                                                      "filename": file_el.findtext("Filename")},
                "comments": [{"guid": c.get("Guid"), "author": c.findtext("Author"), "text": c.findtext("Comment"),
                              "viewpoint": (c.find("Viewpoint").get("Guid")  # type: ignore[union-attr]
                                            if c.find("Viewpoint") is not None else None)}
                             for c in markup.findall("Comment")],
                "viewpoints": [],
            }
            for vp in markup.findall("Viewpoints"):
                file = vp.findtext("Viewpoint")
                entry: dict[str, Any] = {"guid": vp.get("Guid"), "file": file}
                member = f"{folder}/{file}" if file else None
                if member and member in names:
                    entry.update(_read_viewpoint(_parse(z, member)))
                topic["viewpoints"].append(entry)
            out["topics"].append(topic)
        return out


def _read_viewpoint(root: ET.Element) -> dict[str, Any]:
    if root.tag != "VisualizationInfo":
        raise BcfError("a viewpoint file has no VisualizationInfo element")
    comps = root.find("Components")
    vis = comps.find("Visibility") if comps is not None else None
    cam = root.find("PerspectiveCamera")
    colors: dict[str, str] = {}
    for col in (comps.findall("Coloring/Color") if comps is not None else []):
        for c in col.findall("Component"):
            colors[c.get("IfcGuid") or ""] = col.get("Color") or ""
    return {
        "visinfo_guid": root.get("Guid"),
        "selected": [c.get("IfcGuid") for c in comps.findall("Selection/Component")] if comps is not None else [],
        "default_visibility": None if vis is None else vis.get("DefaultVisibility"),
        "exceptions": [c.get("IfcGuid") for c in vis.findall("Exceptions/Component")] if vis is not None else [],
        "colors": colors,
        "camera": None if cam is None else {
            "position": _vec(cam.find("CameraViewPoint")), "direction": _vec(cam.find("CameraDirection")),
            "up": _vec(cam.find("CameraUpVector")), "fov": float(cam.findtext("FieldOfView") or "nan")},
        "clipping_planes": [{"location": _vec(p.find("Location")), "direction": _vec(p.find("Direction"))}
                            for p in root.findall("ClippingPlanes/ClippingPlane")],
    }
