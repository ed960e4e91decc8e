"""The action language: schema, validation, execution, undo/redo, engine deltas."""
