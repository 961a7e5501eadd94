"""``python -m mnemosyne.daemon ARGS`` = ``mnemosyne daemon ARGS`` (used by ``daemon start``)."""

import sys

from mnemosyne.cli import main

sys.exit(main(["daemon", *sys.argv[1:]]))
