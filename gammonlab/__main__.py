"""``python -m gammonlab`` runs the command line."""

import sys

from .cli.commands import main

sys.exit(main())
