#!/usr/bin/env python3
"""Entry point: `python render.py --help`. All logic lives in coursekit.cli.main."""

import sys

from coursekit.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
