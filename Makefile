# Two entry points for a fresh machine (see README):  make demo   |   make test
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)

.PHONY: setup setup-xr system-deps demo test lint gen

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[test,llmbuild]'
	touch $(STAMP)

system-deps:
	@if ! command -v espeak-ng >/dev/null || ! command -v sox >/dev/null || ! command -v Xvfb >/dev/null \
	    || ! command -v xdotool >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    espeak-ng sox xvfb xdotool >/dev/null; \
	  else echo "note: install espeak-ng, sox, xvfb and xdotool for the speech, screenshot and GUI tests"; fi; fi
	@if ! command -v npm >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    nodejs npm >/dev/null; \
	  else echo "note: install nodejs and npm for the glTF validator tests"; fi; fi

setup: $(STAMP) system-deps
	$(BIN)/python -m pyagent godot install
	$(BIN)/python -m pyagent godot import
	$(BIN)/python tests/validators/gltf_tool.py --install

# The OpenXR runtime for the XR scene tests (Monado + lavapipe + Godot, about 1 GB): tests only.
setup-xr: setup
	$(BIN)/python -m pyagent xr install || echo "note: the OpenXR runtime (Monado) could not be installed; the XR tests will skip"

demo: setup
	$(BIN)/python -m pyagent demo ifc/AC20-FZK-Haus.ifc

lint:
	$(BIN)/ruff check pyagent tests
	$(BIN)/mypy
	$(BIN)/gdlint addons scenes tests/godot

gen:
	$(BIN)/python -m pyagent gen

test: setup-xr
	$(BIN)/ruff check pyagent tests
	$(BIN)/mypy
	$(BIN)/gdlint addons scenes tests/godot
	$(BIN)/python -m pyagent.gen_engine --check
	$(BIN)/python -m pytest -q -p no:cacheprovider tests
