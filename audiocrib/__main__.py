"""``python -m audiocrib`` runs the same command as ``audiocrib``."""

import sys

from audiocrib.cli import main

sys.exit(main())
