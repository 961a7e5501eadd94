"""Which files each language's index reads, told by the path alone.

A light module (no parser, no resolver import): ``extract`` routes a tree's files with these
before it builds the language indexes, so a tree of one language never imports the other's
parser and resolver (``extract.DeferredIndex``).
"""

from __future__ import annotations

PY_SUFFIXES = (".py", ".pyi")
TS_SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
TS_CONFIG_NAMES = ("tsconfig.json", "jsconfig.json", "package.json")


def is_python_source(path: str) -> bool:
    return path.endswith(PY_SUFFIXES)


def is_ts_source(path: str) -> bool:
    """A TypeScript / JavaScript source; declaration files (``x.d.ts``) are not."""
    return path.endswith(TS_SOURCE_SUFFIXES) and not is_ts_declaration(path)


def is_ts_declaration(path: str) -> bool:
    base = path.rsplit("/", 1)[-1]
    return ".d." in base and base.endswith(("ts", "tsx"))


def is_ts_config(path: str) -> bool:
    """tsconfig.json, jsconfig.json, package.json, and tsconfig.*.json files that others extend."""
    base = path.rsplit("/", 1)[-1]
    if base not in TS_CONFIG_NAMES and not (
        base.startswith(("tsconfig.", "jsconfig.")) and base.endswith(".json")
    ):
        return False
    return "node_modules/" not in path and not path.startswith("node_modules")


def is_ts_input(path: str) -> bool:
    """What the TypeScript index reads: sources and the config files module resolution needs."""
    return is_ts_source(path) or is_ts_config(path)
