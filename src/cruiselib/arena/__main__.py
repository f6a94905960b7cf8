"""``python -m cruiselib.arena arena ...`` or ``python -m cruiselib.arena study ...``."""

from __future__ import annotations

import sys

from .cli import arena_main, study_main

COMMANDS = {"arena": arena_main, "study": study_main}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print("usage: python -m cruiselib.arena {arena,study} ...", file=sys.stderr)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
