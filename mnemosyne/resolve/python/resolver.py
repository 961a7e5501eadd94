"""``_FileResolver``: the resolution of one Python file, composed of one mixin per concern
(docs/resolve-python.md): ``access`` (state, recorded reads), ``fixpoint`` (memo, cycles),
``names``, ``evaluate``, ``stores``, ``params``, ``runners``, ``classes``, ``emit``, ``overrides``; ``run`` makes the file's facts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mnemosyne.facts import RES_IMPLICIT, Call, FileFacts, Import, Inherit, Symbol
from mnemosyne.parse.python.tags import (
    SCOPE_CLASS,
    SCOPE_LAMBDA,
    SCOPE_MODULE,
)
from mnemosyne.resolve.python import bounds
from mnemosyne.resolve.python.classes import Classes
from mnemosyne.resolve.python.cross import CrossParams
from mnemosyne.resolve.python.emit import Emit
from mnemosyne.resolve.python.evaluate import Evaluate
from mnemosyne.resolve.python.hierarchy import SHARED_PATH, merge_used
from mnemosyne.resolve.python.modules import STDLIB
from mnemosyne.resolve.python.names import Names
from mnemosyne.resolve.python.overrides import Overrides
from mnemosyne.resolve.python.params import Params
from mnemosyne.resolve.python.runners import Runners
from mnemosyne.resolve.python.stores import Stores
from mnemosyne.resolve.python.values import BUILTIN_KINDS, VAL_CLASS, VAL_EXT, VAL_EXT_MEMBER

if TYPE_CHECKING:
    from mnemosyne.resolve.python.index import PythonIndex

OVERLOAD = "overload"  # typing.overload / typing_extensions.overload: a declaration, not the definition


class _FileResolver(Emit, Overrides, Classes, Runners, Params, CrossParams, Evaluate, Stores, Names):
    """Resolves one file of a ``PythonIndex`` (``run``); its memo tables live as long as it does."""

    __slots__ = ()

    def shown_definitions(self) -> dict[str, int]:
        """The scope whose position, signature and docstring a name defined more than once in one
        scope gets: the first definition, unless a later one is the implementation of ``@overload``
        stubs (typing's overloads come first and declare; the last undecorated ``def`` runs)."""
        shown: dict[str, int] = {}
        for i, s in enumerate(self.pf.scopes):
            fq = self.fqn(self.path, i)
            first = shown.get(fq)
            if first is None:
                shown[fq] = i
            elif OVERLOAD in self.decorator_names(self.pf.scopes[first]) and OVERLOAD not in self.decorator_names(s):
                shown[fq] = i
        return shown

    def run(self) -> FileFacts:
        path = self.path
        pf = self.pf
        scopes = pf.scopes
        mod = self.module
        owner = self.mod_path(mod)
        if owner != path:
            # another file defines this module (a package over a same-named module, a .py over its
            # .pyi stub, two source roots): Python never runs this one, and its symbols would
            # collide with the owner's fully qualified names
            imports = self.imports()
            merge_used(self)
            return FileFacts(
                path=path,
                language="python",
                module=mod,
                content_hash=self.ix._hash[path],
                imports=imports,
                # (a stub beside its own module, attrs' `converters.pyi` by `converters.py`, is the usual
                # layout of a typed package: nothing to warn about)
                warnings=[] if path == f"{owner}i" else
                [f"{path}: module {mod} is defined by {owner}; symbols and calls of this file are not extracted"],
                depends_on=frozenset(self.deps),
            )
        symbols: list[Symbol] = []
        shown = self.shown_definitions()
        for i, s in enumerate(scopes):
            fq = self.fqn(path, i)
            if shown.get(fq, i) != i:
                continue
            if s.kind == SCOPE_MODULE:
                symbols.append(
                    Symbol(fq, mod, "module", path, path, 1, s.line_end, "", s.docstring, s.body_hash)
                )
                continue
            p = scopes[s.parent]
            parent = path if p.kind == SCOPE_MODULE else self.fqn(path, s.parent)
            if s.kind == SCOPE_CLASS:
                kind = "class"
            elif s.kind == SCOPE_LAMBDA:
                kind = "lambda"
            else:
                kind = "method" if p.kind == SCOPE_CLASS else "function"
            symbols.append(
                Symbol(fq, s.name, kind, path, parent, s.line_start, s.line_end, s.signature, s.docstring, s.body_hash,  # type: ignore[arg-type]
                       s.ordinal, *s.metrics)
            )
        for i, s in enumerate(scopes):
            if s.kind != SCOPE_CLASS:
                self.resolve_scope(i)
            else:
                self.class_creation(i, s)
        self.import_getattrs()
        inherits: list[Inherit] = []
        for i, s in enumerate(scopes):
            if s.kind != SCOPE_CLASS or not s.bases:
                continue
            child = self.fqn(path, i)
            seen_b: set[str] = set()
            for b in s.bases:
                for v in sorted(self.eval(path, s.parent, b), key=repr):
                    if v[0] == VAL_CLASS:
                        tgt, ext = self.fqn(v[1], v[2]), False
                    elif v[0] == VAL_EXT or v[0] == VAL_EXT_MEMBER:
                        tgt, ext = v[1], True
                    elif v[0] in BUILTIN_KINDS:
                        tgt, ext = f"<builtin>.{v[1]}", True
                    else:
                        continue
                    if tgt not in seen_b:
                        seen_b.add(tgt)
                        inherits.append(Inherit(child, tgt, ext))
        self.resolve_operators()  # last: its depth-bounded values serve nothing else
        calls = [
            Call(caller, callee, v[0], v[1], tuple(sorted(v[2])), v[3])
            for (caller, callee), v in sorted(self.edges.items())
        ]
        imports = self.imports()
        warnings = [f"{path}: {w}" for w in pf.warnings]
        if self.truncated:
            warnings.append(f"{path}: resolution depth limit ({bounds.MAX_DEPTH}) reached; some calls left unresolved")
        merge_used(self)  # what the shared hierarchy answers it used consulted (its ``deps`` too)
        if self.ops_skipped:
            warnings.append(
                f"{path}: {self.ops_skipped} operator sites (a + b, x[k], f-strings) left unresolved: "
                f"the file's resolution made more than {bounds.OPERATOR_BUDGET} evaluations"
            )
        return FileFacts(
            path=path,
            language="python",
            module=mod,
            content_hash=self.ix._hash[path],
            symbols=symbols,
            calls=calls,
            imports=imports,
            inherits=inherits,
            warnings=warnings,
            depends_on=frozenset(self.deps),
        )

    def import_getattrs(self) -> None:
        """``from lib import x`` of a name internal module lib does not define calls lib's
        module-level ``__getattr__`` (PEP 562), from the code running the import (implicit)."""
        path = self.path
        scopes = self.scopes
        for st in self.pf.imports:
            if not st.is_from or st.star:
                continue
            am = self.absolute(path, st.module, st.level)
            if am is None or not self.is_internal(am):
                continue
            getattrs = self.module_getattr(am)
            if not getattrs:
                continue
            for name, _alias in st.names:
                if name.startswith("__") or self.module_attr(am, name)[1] or self.is_internal(f"{am}.{name}"):
                    continue  # (a submodule is imported, not asked of __getattr__)
                if am != st.module and self.absolute(path, st.module, st.level, name) != am:
                    continue  # (under an import root that lacks the name: external)
                for gp, gi in getattrs:
                    self.edge(self.fqn(path, scopes[st.scope].owner), self.fqn(gp, gi), RES_IMPLICIT, st.line)

    def imports(self) -> list[Import]:
        out: set[Import] = set()
        path = self.path
        for st in self.pf.imports:
            if not st.is_from:
                for mod, _alias in st.names:
                    self._import_module(out, self.rooted(path, mod))
                continue
            am = self.absolute(path, st.module, st.level)
            if am is None:
                continue
            targets: list[str] = []
            for name, _alias in st.names:
                an = am
                if st.level == 0 and am != st.module:  # under an import root: only if it has the name
                    an = self.absolute(path, st.module, st.level, name) or am
                sub = f"{an}.{name}"
                if self.mod_path(sub) is not None:
                    targets.append(sub)
                    continue
                targets.append(an)
            if st.star or not st.names:
                targets.append(am)
            for t in targets:
                if st.level > 0:
                    p = self.mod_path(t)
                    if p is not None and p != path:
                        out.add(Import(path, p, "file"))
                else:
                    self._import_module(out, t)
        return sorted(out, key=lambda i: (i.target_kind, i.target))

    def _import_module(self, out: set[Import], mod: str) -> None:
        parts = mod.split(".")
        for i in range(len(parts), 0, -1):
            p = self.mod_path(".".join(parts[:i]))
            if p is not None:
                if p != self.path:
                    out.add(Import(self.path, p, "file"))
                return
        top = parts[0]
        if self.is_internal(top):
            return  # a namespace package of the repository
        if top and top not in STDLIB:
            out.add(Import(self.path, top, "package", "pypi"))


class SharedResolver(_FileResolver):
    """The resolver of the answers shared by every file (``hierarchy.py``): of no file, so that
    every read of parse data is recorded; ``budget``: the depth it may reach."""

    __slots__ = ()

    def __init__(self, index: PythonIndex, some_path: str, budget: int) -> None:
        super().__init__(index, some_path)  # (the state; ``some_path`` is only a file that exists)
        self.path = SHARED_PATH
        self.scopes = []
        self.deps = set()
        self.max_depth = budget
