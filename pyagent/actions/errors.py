"""The error a step raises when it cannot run; its message is for the user."""

from __future__ import annotations


class StepError(Exception):
    """A step cannot run; the message is for the user."""
