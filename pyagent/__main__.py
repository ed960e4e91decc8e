"""Entry point for ``python -m pyagent``."""

import sys

from pyagent.cli import main

sys.exit(main())
