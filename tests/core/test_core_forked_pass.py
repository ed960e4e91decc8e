"""The first pass split with a forked child (pyagent/forked.py, pyagent/tessellate.py): the building is the
same as when one process makes it, element for element; a child that fails or dies costs nothing but time."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from core_ifc_facts import DUPLEX, MINI

from pyagent import forked, loader, tessellate
from pyagent.forked import PROCESSES_ENV, Forked, ForkFailed
from pyagent.loader import LoadedBuilding, load

pytestmark = pytest.mark.skipif(not forked.can_fork(), reason="needs fork and two cores")


def _load(path: Path, tmp_path: Path, name: str) -> LoadedBuilding:
    return load(path, cache=tmp_path / name, use_cache=False)


def _facts(lb: LoadedBuilding) -> dict[str, Any]:
    """Per element what a user meets: class, names, storey, room, box, colour, quantities, properties."""
    out = {}
    for gid, el in lb.building.elements.items():
        out[gid] = (el.ifc_class, el.name, el.storey, el.room, el.has_geometry, el.color,
                    tuple(np.round(el.bbox_min, 5)), tuple(np.round(el.bbox_max, 5)),
                    sorted(el.quantities.items()), sorted(el.dims.items()), el.materials, el.sides, el.host,
                    sorted((k, str(v)) for k, v in el.properties.items()))
    return out


@pytest.mark.parametrize("path", [DUPLEX, MINI], ids=["duplex", "miniproject"])
def test_the_split_pass_makes_the_same_building(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROCESSES_ENV, "1")
    alone = _load(path, tmp_path, "alone")
    monkeypatch.delenv(PROCESSES_ENV)
    calls: list[int] = []
    real = tessellate._fast_part

    def counted(*args: Any, **kwargs: Any) -> None:
        calls.append(os.getpid())
        real(*args, **kwargs)

    monkeypatch.setattr(tessellate, "_fast_part", counted)
    split = _load(path, tmp_path, "split")
    assert calls and set(calls) == {os.getpid()}  # this process made runs of its own; the child's were in the child
    assert _facts(split) == _facts(alone)
    a, b = alone.meshes, split.meshes
    ia, ib = a.index(), b.index()
    assert set(ia) == set(ib) and len(a.ids) == len(b.ids)
    for gid in ia:  # the same triangles in the same colours, element by element
        va, fa, ma = a.element(ia[gid])
        vb, fb, mb = b.element(ib[gid])
        assert np.array_equal(va[fa], vb[fb]), gid
        assert np.array_equal(a.materials[ma], b.materials[mb]), gid


def test_a_child_that_fails_leaves_its_part_to_the_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROCESSES_ENV, "1")
    alone = _load(DUPLEX, tmp_path, "alone")
    monkeypatch.delenv(PROCESSES_ENV)
    parent = os.getpid()
    real = tessellate._fast_part

    def dies_in_the_child(*args: Any, **kwargs: Any) -> None:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # as a crash of the geometry kernel would
        real(*args, **kwargs)

    monkeypatch.setattr(tessellate, "_fast_part", dies_in_the_child)
    survived = _load(DUPLEX, tmp_path, "survived")
    assert _facts(survived) == _facts(alone)


def test_a_child_that_dies_while_grouping_the_shapes_leaves_all_to_the_parent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROCESSES_ENV, "1")
    alone = _load(DUPLEX, tmp_path, "alone")
    monkeypatch.delenv(PROCESSES_ENV)
    parent = os.getpid()
    real = tessellate.group_by_shape
    grouped_in: list[int] = []

    def dies_in_the_child(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        grouped_in.append(os.getpid())
        return real(*args, **kwargs)

    monkeypatch.setattr(tessellate, "group_by_shape", dies_in_the_child)
    survived = _load(DUPLEX, tmp_path, "survived")
    assert grouped_in == [parent]  # the parent grouped them, once the child had gone
    assert _facts(survived) == _facts(alone)


def test_a_child_tells_before_it_ends_and_an_untold_word_is_a_failure() -> None:
    read, write = os.pipe()

    def work(send: forked.Sender) -> None:
        send.tell({"groups": [1, 2]})
        os.read(read, 1)  # goes on working until the parent has heard
        send("made")

    child = Forked(work)
    assert child.told() == {"groups": [1, 2]}  # heard while the child still works
    os.write(write, b"!")
    assert list(child.results()) == ["made"]

    def ends(send: forked.Send) -> None:
        send("made")

    untold = Forked(ends)
    with pytest.raises(ForkFailed):
        untold.told()
    untold.abandon()


def test_forked_results_come_in_order_and_failures_are_told() -> None:
    def work(send: forked.Send) -> None:
        for i in range(3):
            send({"piece": i, "data": np.arange(i + 1)})

    got = list(Forked(work).results())
    assert [g["piece"] for g in got] == [0, 1, 2] and got[2]["data"].tolist() == [0, 1, 2]

    def raises(send: forked.Send) -> None:
        send("half")
        raise ValueError("broken")

    with pytest.raises(ForkFailed):
        list(Forked(raises).results())

    def exits(send: forked.Send) -> None:
        os._exit(3)

    with pytest.raises(ForkFailed):
        list(Forked(exits).results())
    assert forked.peak_together_bytes > 0  # this process and a child, measured together


def _stuck_in_the_child(parent: int) -> None:
    """In a forked child, wait for ever on a lock nobody will let go (as on one another thread of the parent
    held when it forked); nothing in the parent."""
    if os.getpid() != parent:
        lock = threading.Lock()
        lock.acquire()
        lock.acquire()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_stuck_child_is_killed_and_counts_as_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "STALL_S", 0.5)
    held, release = threading.Lock(), threading.Event()

    def holder() -> None:  # another thread of this process holds a lock while the child is forked
        with held:
            release.wait()

    thread = threading.Thread(target=holder, daemon=True)
    thread.start()
    time.sleep(0.05)

    def needs_the_lock(send: forked.Sender) -> None:
        with held:  # held for ever in the child: the holder thread is not there
            send("made")

    child = Forked(needs_the_lock)
    t = time.monotonic()
    with pytest.raises(ForkFailed, match="stuck"):
        list(child.results())
    assert time.monotonic() - t < 10 and _gone(child._pid)

    def tells_after_the_lock(send: forked.Sender) -> None:
        with held:
            send.tell("groups")

    quiet = Forked(tells_after_the_lock)
    with pytest.raises(ForkFailed, match="stuck"):
        quiet.told()
    quiet.abandon()
    assert _gone(quiet._pid)
    release.set()
    thread.join()


def test_a_busy_child_is_not_taken_for_a_stuck_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "STALL_S", 0.3)

    def works_a_while(send: forked.Send) -> None:
        end = time.monotonic() + 1.5  # five times the stall time, all of it on the processor
        n = 0
        while time.monotonic() < end:
            n += 1
        send(n > 0)

    assert list(Forked(works_a_while).results()) == [True]


def test_abandon_ends_a_child_at_once() -> None:
    def sleeps(send: forked.Send) -> None:
        time.sleep(60)

    child = Forked(sleeps)
    t = time.monotonic()
    child.abandon()
    assert time.monotonic() - t < 5 and _gone(child._pid)


def test_a_child_stuck_in_the_pass_or_the_glb_leaves_its_work_to_the_parent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROCESSES_ENV, "1")
    alone = _load(DUPLEX, tmp_path, "alone")
    monkeypatch.delenv(PROCESSES_ENV)
    monkeypatch.setattr(forked, "STALL_S", 0.5)
    parent = os.getpid()
    real_part, real_glb = tessellate._fast_part, loader.write_glb

    def stuck_part(*args: Any, **kwargs: Any) -> None:
        _stuck_in_the_child(parent)
        real_part(*args, **kwargs)

    def stuck_glb(*args: Any, **kwargs: Any) -> Any:
        _stuck_in_the_child(parent)
        return real_glb(*args, **kwargs)

    monkeypatch.setattr(tessellate, "_fast_part", stuck_part)
    monkeypatch.setattr(loader, "write_glb", stuck_glb)
    survived = _load(DUPLEX, tmp_path, "survived")
    assert _facts(survived) == _facts(alone)
    again = tmp_path / "here.glb"
    real_glb(loader._glb_parts(survived.building, survived.meshes), survived.meshes.materials, again,
             copies=survived.meshes.copy_of)
    assert survived.glb_path.read_bytes() == again.read_bytes()


def test_one_process_when_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROCESSES_ENV, "1")
    assert not forked.can_fork()


def test_the_glb_written_beside_the_ingest_is_the_one_the_building_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first load's glb is written by a forked child while this process builds the building (from the
    records' names and classes): byte for byte what writing it here from the finished building gives."""
    parent = os.getpid()
    real = loader.write_glb
    written_here: list[Path] = []

    def counted(parts: Any, materials: Any, path: Path, **kwargs: Any) -> Any:
        if os.getpid() == parent:
            written_here.append(path)
        return real(parts, materials, path, **kwargs)

    monkeypatch.setattr(loader, "write_glb", counted)
    lb = _load(MINI, tmp_path, "beside")
    assert written_here == []  # the child wrote it
    again = tmp_path / "here.glb"
    real(loader._glb_parts(lb.building, lb.meshes), lb.meshes.materials, again, copies=lb.meshes.copy_of)
    assert lb.glb_path.read_bytes() == again.read_bytes()


def test_a_glb_writer_that_dies_leaves_the_glb_to_the_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()
    real = loader.write_glb
    written_here: list[Path] = []

    def dies_in_the_child(parts: Any, materials: Any, path: Path, **kwargs: Any) -> Any:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # as an out-of-memory kill would
        written_here.append(path)
        return real(parts, materials, path, **kwargs)

    monkeypatch.setattr(loader, "write_glb", dies_in_the_child)
    survived = _load(DUPLEX, tmp_path, "survived")
    assert written_here == [survived.glb_path]
    again = tmp_path / "here.glb"
    real(loader._glb_parts(survived.building, survived.meshes), survived.meshes.materials, again,
         copies=survived.meshes.copy_of)
    assert survived.glb_path.read_bytes() == again.read_bytes()


def test_shares_give_every_item_to_one_side_only() -> None:
    """The child takes runs from the front and this process from the back, each as it gets free, until none
    is left: every item is taken, once."""
    shares = forked.Shares()

    def work(send: forked.Sender) -> None:
        shares.begin(100)
        send.tell("begun")
        while run := shares.front(lambda left, _childs: max(3, left // 4)):
            send(list(run))
            shares.done(run.stop)

    child = Forked(work)
    assert child.told() == "begun"
    mine: list[int] = []
    while run := shares.back(lambda left, childs: max(2, (left + childs) // 5)):
        mine += run
    theirs = [i for got in child.results() for i in got]
    assert sorted(mine + theirs) == list(range(100))  # all taken, none twice
    assert shares.taken_by_child() == range(0, len(theirs)) and theirs == list(range(len(theirs)))
    assert sorted(mine) == list(range(len(theirs), 100))  # this process from the back
    shares.close()


def test_a_reference_loop_is_refused_by_the_child_before_any_geometry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large file is checked for reference loops by the forked child (while this process reads the
    elements), before either process gives the kernel anything; the file is refused with the clear message."""
    import ifcopenshell

    model = ifcopenshell.open(str(DUPLEX))
    placement = next(p for p in model.by_type("IfcLocalPlacement") if p.PlacementRelTo is not None)
    placement.PlacementRelTo.PlacementRelTo = placement  # a placement relative to one relative to it
    looped = tmp_path / "looped.ifc"
    model.write(str(looped))
    checked_in = tmp_path / "checked-in"
    real = loader.unsound

    def noted(opened: Any) -> str | None:
        with open(checked_in, "a", encoding="ascii") as fh:
            fh.write(f"{os.getpid()}\n")
        return real(opened)

    monkeypatch.setattr(loader, "unsound", noted)
    made: list[int] = []
    monkeypatch.setattr(tessellate, "_fast_part", lambda *a, **k: made.append(1))
    with pytest.raises(loader.IfcLoadError, match="round in a loop"):
        _load(looped, tmp_path, "looped")
    assert made == []  # nothing was tessellated here
    assert checked_in.read_text().split() != [str(os.getpid())]  # the child checked it, not this process
    assert len(checked_in.read_text().split()) == 1
