"""Fixtures for the engine tests (defined in engine_support, so test modules can import its helpers by a
name no other test folder uses)."""

from engine_support import godot, sample_building  # noqa: F401
