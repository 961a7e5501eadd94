"""Python call/import/inheritance resolution over the parsed files of one tree (``PythonIndex``).

The specification (what is resolved and what is not, the edges' conventions, the incremental
contract) and the tables of value tags and read tags are in docs/resolve-python.md.
"""

from mnemosyne.resolve.python.bounds import SETTLE_BUDGET, SETTLE_ROUNDS
from mnemosyne.resolve.python.index import PythonIndex
from mnemosyne.resolve.python.modules import module_name
from mnemosyne.resolve.python.resolver import _FileResolver

__all__ = ["SETTLE_BUDGET", "SETTLE_ROUNDS", "PythonIndex", "_FileResolver", "module_name"]
