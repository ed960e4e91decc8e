"""Building vocabulary -> hotwords, and their adaptation to a model's word pieces."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyagent.model import Building, Element, Storey
from pyagent.speech.hotwords import HotwordEncoder, building_hotwords, read_tokens, write_bpe_vocab


def _building() -> Building:
    els = [
        Element(id="sp1", ifc_class="IfcSpace", name="1.01", long_name="Living Room"),
        Element(id="sp2", ifc_class="IfcSpace", name="B-2", long_name="Küche"),
        Element(id="w1", ifc_class="IfcWall", name="Basic Wall:Interior - 165 Partition (1-hr):138700",
                type_name="Basic Wall:Interior - 165 Partition (1-hr)"),
        Element(id="w2", ifc_class="IfcWall", name="Basic Wall:Interior - 165 Partition (1-hr):138701",
                type_name="Basic Wall:Interior - 165 Partition (1-hr)"),
        Element(id="d1", ifc_class="IfcDoor", name="M_Single-Flush:0915 x 2134mm:1", type_name="M_Single-Flush"),
        Element(id="p1", ifc_class="IfcBuildingElementProxy", name="Default", type_name=""),
    ]
    storeys = [Storey(id="s0", name="Level 1", elevation=0.0), Storey(id="s1", name="Dachgeschoss", elevation=3.0)]
    return Building(path="t.ifc", schema="IFC4", file_hash="0", elements={e.id: e for e in els}, storeys=storeys,
                    ground_storey="s0")


def test_building_hotwords_order_and_cleaning():
    hw = building_hotwords(_building())
    assert hw[:2] == ["living room", "küche"]  # rooms first (by LongName), numbers dropped
    assert hw.index("level") < hw.index("basic wall") and "dachgeschoss" in hw
    assert {"basic wall", "interior", "partition", "single flush"} <= set(hw)
    assert "hr" not in hw  # abbreviations in element names are noise
    assert "default" not in hw and not any(ch.isdigit() for p in hw for ch in p)
    assert len(hw) == len(set(hw))
    assert building_hotwords(_building(), max_phrases=3) == hw[:3]


def test_real_buildings_give_room_names():
    from pyagent.loader import load

    duplex = building_hotwords(load(Path(__file__).parents[2] / "ifc" / "duplex.ifc").building)
    assert {"kitchen", "bedroom", "bathroom", "living room"} <= set(duplex[:10])


@pytest.fixture
def bpe_tokens(tmp_path) -> Path:
    syms = ["<blk>", "<sos/eos>", "<unk>", "▁THE", "▁BED", "ROOM", "▁", "S", *"ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
    p = tmp_path / "tokens.txt"
    p.write_text("".join(f"{s} {i}\n" for i, s in enumerate(syms)), encoding="utf-8")
    return p


def test_encoder_matches_case_and_drops_unspellable(bpe_tokens):
    enc = HotwordEncoder.from_tokens(bpe_tokens)
    assert enc.upper_case
    assert enc.spell("BEDROOM") == ["▁BED", "ROOM"]
    assert enc.spell("ÄRGER") is None
    assert enc.prepare(["bedroom", "küche", "living room", "a/b", ":x"]) == ["BEDROOM", "LIVING ROOM"]
    assert HotwordEncoder.stream_argument(["A B", "C"]) == "A B/C"


def test_bpe_vocab_is_derived_from_tokens(bpe_tokens, tmp_path):
    out = write_bpe_vocab(bpe_tokens, tmp_path / "d" / "bpe.vocab")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(read_tokens(bpe_tokens))
    piece, score = lines[3].split("\t")
    assert piece == "▁THE" and -1.001 < float(score) < -1.0
