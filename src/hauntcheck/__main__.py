"""``python -m hauntcheck``: the same command line as the ``hauntcheck`` script."""

from __future__ import annotations

import sys

from hauntcheck.engine.cli import main

if __name__ == "__main__":
    sys.exit(main())
