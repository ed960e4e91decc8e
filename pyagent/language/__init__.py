"""Words to actions: the deterministic parser, the constrained local LLM, and the front end that orders them."""
