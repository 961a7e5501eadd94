"""TypeScript / TSX / JavaScript parser: bytes -> a picklable per-file parse result.

The package's public names, re-exported from the modules that define them.
"""

from __future__ import annotations

from mnemosyne.parse.typescript.expr import WRAPPER_CALLEES
from mnemosyne.parse.typescript.grammar import LANGUAGE_OF, module_name, suffix_of
from mnemosyne.parse.typescript.model import (
    ClassInfo,
    ParsedFile,
    called_params,
    class_names_extended,
    extends_name,
    make_call,
    make_import,
    make_symbol,
    param_slot,
    this_owner,
)
from mnemosyne.parse.typescript.shims import newer_syntax_blanked, reference_blanked
from mnemosyne.parse.typescript.tags import CALLED_AT_ONCE, ITERATOR, SPREADS
from mnemosyne.parse.typescript.visit import parse_file
from mnemosyne.sources import TS_SOURCE_SUFFIXES as SOURCE_SUFFIXES
from mnemosyne.sources import is_ts_source as is_source

__all__ = [
    "CALLED_AT_ONCE",
    "ITERATOR",
    "LANGUAGE_OF",
    "SOURCE_SUFFIXES",
    "SPREADS",
    "WRAPPER_CALLEES",
    "ClassInfo",
    "ParsedFile",
    "called_params",
    "class_names_extended",
    "extends_name",
    "is_source",
    "make_call",
    "make_import",
    "make_symbol",
    "module_name",
    "newer_syntax_blanked",
    "param_slot",
    "parse_file",
    "reference_blanked",
    "suffix_of",
    "this_owner",
]
