"""Helpers shared by the MCP tests."""

from __future__ import annotations

import json
from typing import Any

DOORS = {"1Oms875aH3Wg$9l65H2ZGw", "0pGAjlJMP3ifYPATVF5xAR", "2qiPPF3FrF8OIqfrKiSUqm", "2jTRqchjf7oB0yhQ6462T0",
         "1M$gxUrX1Fiwe3P64ww7U5"}
INNER_DOOR_1 = "1Oms875aH3Wg$9l65H2ZGw"  # in front of a reviewer at (4, 4.5, 1.6) looking along +X


def data(result: Any) -> dict[str, Any]:
    """The structured answer of a tool call (also present as JSON after the text)."""
    assert result.structured_content is not None, result
    text = result.content[0].text
    assert json.loads(text.split("\n\n", 1)[1]) == result.structured_content
    return result.structured_content
