"""TypeScript / TSX / JavaScript resolution: parsed files -> FileFacts with resolved calls.

The package's public names are re-exported here (``from mnemosyne.resolve.typescript import
TypeScriptIndex``); the modules, by concern, are listed in ``docs/resolve-typescript.md``.
"""

from mnemosyne.resolve.typescript.builtins import GLOBALS, NODE_BUILTINS
from mnemosyne.resolve.typescript.emit import CONFIDENCE
from mnemosyne.resolve.typescript.index import TypeScriptIndex
from mnemosyne.resolve.typescript.modules import npm_package_name
from mnemosyne.resolve.typescript.params import MAX_PARAM_HOPS, MAX_PARAM_SITES
from mnemosyne.resolve.typescript.reads import CALLS_PREFIX, CONFIG_DEP, SUB_PREFIX

__all__ = [
    "CALLS_PREFIX",
    "CONFIDENCE",
    "CONFIG_DEP",
    "GLOBALS",
    "MAX_PARAM_HOPS",
    "MAX_PARAM_SITES",
    "NODE_BUILTINS",
    "SUB_PREFIX",
    "TypeScriptIndex",
    "npm_package_name",
]
