"""The engine's generated constants match the action schema and the prop catalogue."""

from __future__ import annotations

import json

from engine_support import REPO

from pyagent import gen_engine


def test_generated_file_is_up_to_date() -> None:
    assert gen_engine.main(["--check"]) == 0, "run `python -m pyagent.gen_engine` and commit the result"


def test_check_fails_on_drift(tmp_path) -> None:
    stale = tmp_path / "schema_constants.gd"
    stale.write_text(gen_engine.OUTPUT_PATH.read_text().replace('"sofa"', '"couch"'))
    assert gen_engine.main(["--check", "--out", str(stale)]) == 1
    missing = tmp_path / "nothing.gd"
    assert gen_engine.main(["--check", "--out", str(missing)]) == 1


def test_constants_follow_the_schema() -> None:
    schema = json.loads((REPO / "pyagent" / "actions" / "action.schema.json").read_text())
    text = gen_engine.OUTPUT_PATH.read_text()
    defs = schema["$defs"]
    ops = [defs[r["$ref"].rsplit("/", 1)[1]]["properties"]["op"]["const"] for r in defs["step"]["oneOf"]]
    for op in ops:
        assert f'\t"{op}",\n' in text
    for asset in defs["step_add_prop"]["properties"]["asset"]["enum"]:
        assert f'\t"{asset}": Vector3(' in text, asset
    assert f'const SCHEMA_VERSION: String = "{schema["x-version"]}"' in text
    assert json.dumps(defs["gid"]["pattern"]) in text
