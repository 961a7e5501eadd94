"""The Python parser: source bytes -> ``ParsedFile`` (plain, picklable data the resolver reads).

``parse_python`` is the entry point; the modules of the package are described in
``docs/parse-python.md``. What other packages import is re-exported here.
"""

from mnemosyne.parse.python.build import parse_python
from mnemosyne.parse.python.derived import (
    base_last_name,
    file_aliases,
    file_attr_stores,
    file_called_classes,
    file_member_classes,
    file_param_calls,
    file_partials,
    file_stored_params,
    file_subclasses,
)
from mnemosyne.parse.python.grammar import LANGUAGE
from mnemosyne.parse.python.model import ImportStmt, ParsedFile, Scope

__all__ = [
    "LANGUAGE",
    "ImportStmt",
    "ParsedFile",
    "Scope",
    "base_last_name",
    "file_aliases",
    "file_attr_stores",
    "file_called_classes",
    "file_member_classes",
    "file_param_calls",
    "file_partials",
    "file_stored_params",
    "file_subclasses",
    "parse_python",
]
