"""``python -m mnemosyne.cli ...`` = ``mnemosyne ...`` (used by the daemon service files)."""

import sys

from mnemosyne.cli import main

sys.exit(main())
