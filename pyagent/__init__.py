"""pyagent: the on-device brain of the BIM voice design-review assistant.

IFC in, a queryable and editable scene out, driven by validated action programs.
"""

__version__ = "0.1.0"
