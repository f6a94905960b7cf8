"""``python -m cruiselib``: the ``cruiselib`` command (e.g. ``python -m cruiselib serve``)."""

from __future__ import annotations

import sys

from cruiselib.cli import main

if __name__ == "__main__":
    sys.exit(main())
