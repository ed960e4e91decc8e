"""The action API as an MCP server: tools derived from the action schema, acting on a live session.

- ``tools``: the tool list, derived from ``actions/action.schema.json``.
- ``gateway``: bounds, validation, attribution ("mcp"), and running on the session's own thread.
- ``attach``: the link server that runs MCP jobs between engine messages (``serve --mcp-http``).
- ``app``: the SDK server, stdio and streamable-HTTP transports.
- ``cli``: ``python -m pyagent mcp``.
"""
