"""TypeScript / TSX / JavaScript resolution: parsed files -> FileFacts with resolved calls.

The package's public names are re-exported here (``from mnemosyne.resolve.typescript import
TypeScriptIndex``); how the resolver works is in ``docs/resolve-typescript.md``.
"""

from mnemosyne.resolve.typescript.index import (
    CALLS_PREFIX,
    CONFIDENCE,
    CONFIG_DEP,
    GLOBALS,
    MAX_PARAM_HOPS,
    MAX_PARAM_SITES,
    NODE_BUILTINS,
    SUB_PREFIX,
    TypeScriptIndex,
    npm_package_name,
)

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
