"""Fixtures for the core tests (defined in core_support, so test modules can import its helpers by a
name no other test folder uses)."""

from core_support import ask, duplex, fzk, mini  # noqa: F401
