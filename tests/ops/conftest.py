"""Fixtures for the per-op tests (defined in ops_support, so test modules can import its helpers by a name
no other test folder uses)."""

from ops_support import duplex, fzk  # noqa: F401
