"""Design-review tools beyond element edits: sections, sun study, scale-model view, measuring at the user's
position. Pure computations on the building and the state; the ops in ``pyagent.actions.ops`` use them."""
