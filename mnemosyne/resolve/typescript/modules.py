"""Module resolution of the TypeScript resolver: a specifier (relative, tsconfig ``paths`` /
``baseUrl``, an in-repo package, an npm package) to a file or an external module."""

from __future__ import annotations

import re

from mnemosyne.parse.typescript import ParsedFile, module_name, suffix_of
from mnemosyne.parse.typescript.tags import IMPORT_DEFAULT, REQUIRE
from mnemosyne.resolve.typescript.builtins import NODE_BUILTINS
from mnemosyne.resolve.typescript.config import dirname, join, package_entries, package_subpath
from mnemosyne.resolve.typescript.reads import CONFIG_DEP, READ_CJS, READ_EXPORT
from mnemosyne.resolve.typescript.state import MEMO_SPEC, CtxState
from mnemosyne.resolve.typescript.values import V_EXT, V_OLIT, union

_NPM_NAME = re.compile(r"^(@[a-z0-9][\w.~-]*/)?[a-z0-9][\w.~-]*$", re.IGNORECASE)
# what a specifier resolves to (``resolve_spec``): ('file', path) | ('ext', spec) | None (an
# internal-looking specifier with no file)
SPEC_FILE = "file"
SPEC_EXT = "ext"

# the suffixes a specifier without one may name, in order
EXT_TRY = (".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs")
# the read of the flag a compiled ES module sets (``exports.__esModule``), and of a file's CommonJS shape
_ESMODULE_KEY = (READ_EXPORT, "__esModule")
_CJS_KEY = (READ_CJS,)
# sources that are ES modules without the flag (what a compiler would give it)
_ESM_SUFFIXES = (".ts", ".tsx", ".mts", ".mjs")
_JS_TO_TS = {
    ".js": (".ts", ".tsx", ".js", ".jsx"),
    ".jsx": (".tsx", ".jsx"),
    ".mjs": (".mts", ".mjs"),
    ".cjs": (".cts", ".cjs"),
}


def npm_package_name(spec: str) -> str | None:
    """'@scope/pkg/sub' -> '@scope/pkg'; 'lodash/fp' -> 'lodash'; node builtins -> None."""
    if spec.startswith("node:"):
        return None
    parts = spec.split("/")
    name = "/".join(parts[:2]) if spec.startswith("@") and len(parts) >= 2 else parts[0]
    if name in NODE_BUILTINS or not _NPM_NAME.match(name):
        return None
    return name


class ModulesMixin(CtxState):
    """Specifier resolution, recording the module names it tried as dependencies."""

    __slots__ = ()

    def resolve_spec(self, spec: str, from_path: str) -> tuple[str, str] | None:
        """('file', path) | ('ext', spec) | None (an internal-looking specifier with no file)."""
        d = self.dir if from_path is self.pf.path else dirname(from_path)
        key = (MEMO_SPEC, spec, d)
        hit = self.memo.get(key)
        if hit is not None:
            if self.frame:  # (a frame's dependencies must be complete: ``CtxState.shared_memo``)
                self.deps |= self.ix._spec_cache[(spec, d)][1]
            return hit[0]
        # shared by every file of the update (same file set and config): the answer and the
        # module names it tried, which become this file's dependencies as if it had tried them
        shared = self.ix._spec_cache
        ent = shared.get((spec, d))
        if ent is None:
            saved = self.deps
            self.deps = set()
            try:
                r = self._resolve_spec(spec, from_path)
            finally:
                tried, self.deps = self.deps, saved
            ent = shared[(spec, d)] = (r, tried)
        self.deps |= ent[1]
        self.memo[key] = (ent[0],)
        return ent[0]

    def _resolve_spec(self, spec: str, from_path: str) -> tuple[str, str] | None:
        if spec.startswith((".", "/")):
            base = join(dirname(from_path), spec) if spec.startswith(".") else join(spec.lstrip("/"))
            p = self.try_path(base)
            return (SPEC_FILE, p) if p else None
        self.deps.add(CONFIG_DEP)  # the answer depends on tsconfig paths/baseUrl and package.json files
        cfg = self.ix.config()
        opts = cfg.options_for(from_path)
        if opts is not None:
            for pattern, targets, pbase in opts.paths:
                star = pattern.find("*")
                if star < 0:
                    if spec != pattern:
                        continue
                    rest = ""
                else:
                    pre, post = pattern[:star], pattern[star + 1 :]
                    if not (spec.startswith(pre) and spec.endswith(post) and len(spec) >= len(pre) + len(post)):
                        continue
                    rest = spec[len(pre) : len(spec) - len(post)]
                for t in targets:
                    p = self.try_path(join(pbase, t.replace("*", rest)))
                    if p:
                        return (SPEC_FILE, p)
            if opts.base_url is not None:
                p = self.try_path(join(opts.base_url, spec))
                if p:
                    return (SPEC_FILE, p)
        parts = spec.split("/")
        n = 2 if spec.startswith("@") else 1
        pkg = cfg.packages.get("/".join(parts[:n]))
        if pkg is not None:
            sub = "/".join(parts[n:])
            for cand in package_entries(pkg) if not sub else package_subpath(pkg, sub):
                p = self.try_path(cand)
                if p:
                    return (SPEC_FILE, p)
            return None
        if spec.startswith("node:") or _NPM_NAME.match("/".join(parts[:n])):
            return (SPEC_EXT, spec)
        return None  # an alias nothing maps (`@/x`, `~/x`, `#x`): not a package, not guessed

    def try_path(self, base: str) -> str | None:
        files = self.ix.files
        suf = suffix_of(base)
        if suf in _JS_TO_TS:
            stem = base[: -len(suf)]
            self.deps.add(module_name(base))
            for e in _JS_TO_TS[suf]:
                if stem + e in files:
                    return stem + e
        elif suf in (".ts", ".tsx", ".mts", ".cts"):
            if base.endswith(".d.ts"):
                base = base[: -len(".d.ts")]
            else:
                self.deps.add(module_name(base))
                if base in files:
                    return base
                base = base[: -len(suf)]
        if not base:
            return None
        self.deps.add(base)  # base/index.* files are module `base`
        self.deps.add(module_name(base + ".ts"))  # base.* files (`x/index` is module `x`)
        for e in EXT_TRY:
            if base + e in files:
                return base + e
        for e in EXT_TRY:
            if base + "/index" + e in files:
                return base + "/index" + e
        return None

    def interop_value(self, pf: ParsedFile, scope: int, e: tuple):
        """``('interop', spec, wildcard)``: ``_interopRequireDefault(require(spec))`` is the module
        when it is an ES module (flagged ``__esModule``, or a TypeScript / ``.mjs`` source that is
        not ``export =``), else ``{ default: module }``; the wildcard helper's ``{ default: module,
        ...module }`` is both: ``.default`` the module, any other member the module's."""
        req = (REQUIRE, e[1])
        r = self.resolve_spec(e[1], pf.path)
        if r is None:
            return None
        if r[0] == SPEC_FILE:
            target = self.file_read(r[1], _ESMODULE_KEY)
            if target is None:
                return None
            esm = "__esModule" in target.exports
            if not esm and target.path.endswith(_ESM_SUFFIXES):
                self.file_read(r[1], _CJS_KEY)
                esm = not target.cjs_whole
            if esm:
                return self.eval(pf, scope, req)
        elif e[2]:  # an external module's namespace: its members by name, `default` too
            return (V_EXT, e[1])
        boxed = (V_OLIT, pf.path, scope, (("default", req),))
        return union([boxed, self.eval(pf, scope, req)]) if e[2] else boxed

    def cjs_function_member(self, pf: ParsedFile, fn: tuple, name: str):
        """Member ``name`` of function ``fn`` (of ``pf``, a ``module.exports = X`` module) with no
        members of its own: when ``fn`` is that module's ``X``, its export ``name``
        (``module.exports.extra = ...``: ``require(spec).extra``, ``_x.default.extra``)."""
        if pf is not self.pf:
            self.read(pf, _CJS_KEY)
        if not pf.cjs_whole or name == IMPORT_DEFAULT or self.export_value(pf.path, IMPORT_DEFAULT) != fn:
            return None
        return self.export_value(pf.path, name)
