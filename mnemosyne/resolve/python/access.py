"""The resolver's state and its reads of parse data (``Access``): module names, and the recording
accessors through which every read of another file's parse result goes (``reads``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from mnemosyne.parse.python import (
    ParsedFile,
    Scope,
    file_aliases,
    file_attr_stores,
    file_called_classes,
    file_member_classes,
    file_param_calls,
    file_partials,
    file_stored_params,
    file_subclasses,
)
from mnemosyne.resolve.python import bounds
from mnemosyne.resolve.python.modules import (
    ROOT_PREFIX,
    STDLIB,
    STORES_PREFIX,
    SUB_PREFIX,
    _absolute,
    _strip_suffix,
    root_key,
)
from mnemosyne.resolve.python.reads import (
    READ_ALIASES,
    READ_ALL,
    READ_ATTR_STORES,
    READ_BASES,
    READ_BINDS,
    READ_CALLED_CLASSES,
    READ_DECOS,
    READ_GLOBALS,
    READ_HEADER,
    READ_INST_ATTRS,
    READ_INST_ITEMS,
    READ_ITEM_BINDS,
    READ_MEMBER_CLASSES,
    READ_OBJ_STORES,
    READ_PARAM_CALLS,
    READ_PARAMS,
    READ_PARTIALS,
    READ_PASSED,
    READ_PREFIXED,
    READ_RETURNS,
    READ_SITES,
    READ_STARS,
    READ_STORED_PARAMS,
    READ_STUB,
    READ_SUB_SITES,
    prefixed_names,
    stub_body,
)

if TYPE_CHECKING:
    from mnemosyne.resolve.python.index import PythonIndex


class Access:
    """The resolver's state, module names and the recording accessors (every mixin derives from it)."""

    # a slot per attribute: the hot paths read them constantly, and an instance dict stops being
    # shared (every attribute load slower) once a class has ~30 attributes. Declared here only: the
    # mixins add none (``__slots__ = ()``), so they share this layout
    __slots__ = (
        "abstract_memo",
        "active",
        "bs_memo",
        "cycles",
        "deferred",
        "deps",
        "depth",
        "edges",
        "fqn_memo",
        "ix",
        "ix_reads",
        "ga_memo",
        "keys_memo",
        "runner_memo",
        "ga_serials",
        "lk_memo",
        "load_calls",
        "lows",
        "memo",
        "meta_memo",
        "module",
        "moved",
        "objs_memo",
        "ops_skipped",
        "os_reads",
        "max_depth",
        "pending_ops",
        "mro_memo",
        "override_memo",
        "plan_memo",
        "super_memo",
        "partial",
        "path",
        "peak",
        "pf",
        "prov",
        "reads",
        "scopes",
        "selfret_memo",
        "serial",
        "settle_budget",
        "shared",
        "sub_memo",
        "sub_reads",
        "truncated",
    )

    def __init__(self, index: PythonIndex, path: str) -> None:
        self.ix = index
        self.path = path
        self.pf = index._parsed[path]
        self.scopes = self.pf.scopes  # own file: read without recording
        self.module = index._module_of[path]
        self.deps: set[str] = {self.module}
        self.memo: dict[tuple, frozenset] = {}  # final values
        # values resting on what a key still being computed held so far (a cycle): key -> (value,
        # serial of the outermost such key). Final once that key is settled, forgotten in its rounds
        self.prov: dict[tuple, tuple[frozenset, int]] = {}
        self.active: dict[tuple, int] = {}  # keys being computed -> their serial (increasing with nesting)
        self.lows: list[int] = []  # per active computation: the lowest serial it rested on (its own: none)
        self.serial = 0
        self.cycles: set[tuple] = set()  # active keys a computation met again (``settle``)
        self.deferred: list[tuple[tuple, int]] = []  # (key, serial): cycles settled with an outer key
        self.moved = 0  # times a deferred key's ``partial`` grew
        self.ops_skipped = 0  # operator sites left unresolved past OPERATOR_BUDGET
        self.max_depth = bounds.MAX_DEPTH  # OPERATOR_DEPTH while the operator sites are resolved
        # operator sites (caller, scope, operand, dunder, fallback, line): resolved last (``resolve_operators``)
        self.pending_ops: list[tuple[str, int, Any, str, str, int]] = []
        self.partial: dict[tuple, frozenset] = {}  # what a settling key is known to hold so far
        self.settle_budget = bounds.SETTLE_BUDGET  # recomputations left for this file (``settle``)
        self.mro_memo: dict[tuple[str, int], tuple[list[tuple[str, int]], list[Any], list[tuple]]] = {}
        self.edges: dict[tuple[str, str], list] = {}
        self.depth = 0
        # the smallest depth bound under which what this resolver computed is computed alike: the
        # deepest level its depth checks let it reach, or a shared answer used needs (``hierarchy.py``)
        self.peak = 0
        self.truncated = False
        self.reads: dict[str, set[tuple]] = {}  # other path -> read keys (see PythonIndex)
        self.lk_memo: dict[tuple[str, int, str], int] = {}  # structural: which scope binds a name
        self.bs_memo: dict[tuple[str, int, str], int | None] = {}
        self.fqn_memo: dict[tuple[str, int], str] = {}
        self.ix_reads: dict[tuple[str, str], tuple[str, ...]] = {}  # importers_calling answers
        self.sub_reads: dict[str, tuple[str, ...]] = {}  # subclass_files answers
        self.os_reads: dict[str, tuple[str, ...]] = {}  # store_files answers
        self.objs_memo: dict[tuple[str, int], dict | None] = {}  # (path, scope) -> its stores' objects (``Stores``)
        self.sub_memo: dict[tuple[str, int], list[tuple[str, int]]] = {}
        self.override_memo: dict[tuple[int, str, bool], list[str]] = {}  # (own class, name, instance?) -> overrides
        self.plan_memo: dict[tuple[str, int], tuple] = {}  # class -> its override search's plan (``override_plan``)
        self.super_memo: dict[tuple[str, int, str], list[str]] = {}  # (super()'s class, name) -> next classes' methods
        self.selfret_memo: dict[tuple[str, int], tuple] = {}  # method -> receiver_returns
        self.meta_memo: dict[tuple[str, int], tuple[tuple[str, int], ...]] = {}  # class -> its metaclasses
        self.abstract_memo: dict[tuple[str, int, str, bool], list[str]] = {}  # (receiver class, name, exact?) -> overrides
        # (base value, attr) -> the methods reading base.attr calls (property getter, a descriptor's
        # __get__, __getattr__), kept by ``getattr`` for calls through the attribute (``obj.prop()``)
        self.load_calls: dict[str, dict[Any, list[tuple[str, int]]]] = {}  # attr -> base value -> methods
        # (base value, attr, max_depth) -> getattr's final answer; one class's attributes are read
        # over and over (mypy: 123k reads of 11k distinct ones)
        self.ga_memo: dict[tuple, tuple[frozenset, list[tuple[str, int]]]] = {}
        self.keys_memo: dict[tuple[str, int, int], frozenset] = {}  # parameter -> the literal keys passed (``param_keys``)
        self.runner_memo: dict[str, tuple] = {}  # path -> its call sites named like a runner (``runner_args``)
        self.shared: set[Any] = set()  # the shared hierarchy answers used (``hierarchy.py``)
        self.ga_serials = 0  # serials getattr took (not evaluations: OPERATOR_BUDGET does not count them)

    if TYPE_CHECKING:
        # what the other mixins provide (``resolver._FileResolver`` composes them), for the type checker
        # names.py
        def _eval_bindings(self, path: str, idx: int, name: str) -> set: ...
        def _lookup_scope(self, path: str, idx: int, name: str) -> int: ...
        def ann_values(self, path: str, idx: int, exprs: tuple, depth: int = 0) -> frozenset: ...
        def eval_binding(self, path: str, idx: int, v: Any) -> frozenset: ...
        def eval_bindings(self, path: str, idx: int, name: str) -> frozenset: ...
        def lookup(self, path: str, idx: int, name: str) -> frozenset: ...
        def module_attr(
            self, mod: str, name: str, path: str | None = None, for_name: bool = False, depth: int = 0
        ) -> tuple[frozenset, bool]: ...
        def module_name_lookup(self, path: str, name: str) -> frozenset: ...
        def handed_on(self, path: str, idx: int, e: Any) -> Any: ...
        # cross.py
        def callee_cross_values(self, path: str, sc: int, fn: Any) -> set: ...
        def cross_param(self, path: str, fidx: int, i: int) -> frozenset: ...
        def receiver_cross_values(self, path: str, sc: int, e: Any) -> set: ...
        def called_through(self, path: str, fidx: int, cidx: int) -> set: ...
        def stored_init_cross(self, path: str, fidx: int, e: Any) -> set: ...
        # params.py
        @staticmethod
        def _param_spec(params: Any, i: int) -> tuple[str, bool, frozenset]: ...
        @classmethod
        def _may_pass_callable(cls, e: Any, j: int, pname: str, spec: tuple) -> bool: ...
        @staticmethod
        def _arg_expr(e: Any, j: int, pname: str, spec: tuple) -> Any: ...
        def _arg_values(self, path: str, sc: int, e: Any, j: int, pname: str, spec: tuple = ...) -> frozenset: ...
        def _decorated(self, path: str, fidx: int, where: list[str], method: str = "") -> set: ...
        def factory_names(self, path: str, fidx: int) -> list[str]: ...
        def decorator_classes(self, path: str, s: Scope, decorators: Iterable[Any]) -> Iterator[tuple[str, int]]: ...
        @staticmethod
        def decorator_names(s: Scope) -> set[str]: ...
        def is_self_param(self, path: str, idx: int, name: str) -> bool: ...
        def method_decorators(self, path: str, fidx: int) -> frozenset[str]: ...
        def param_keys(self, path: str, fidx: int, i: int) -> frozenset: ...
        def param_values(self, path: str, fidx: int, i: int) -> frozenset: ...
        def stored_param_values(self, path: str, fi: int, v: Any) -> frozenset: ...
        def identity_result(self, path: str, idx: int, f: Any, e: Any) -> set | None: ...
        def receiver_param_values(self, path: str, fidx: int, i: int, recv: tuple[str, int]) -> frozenset: ...
        def wrappers(self, path: str, fidx: int, k: int = 0) -> frozenset: ...
        # runners.py
        def dispatch_impls(self, path: str, fidx: int, s: Scope) -> list[tuple[str, int]]: ...
        def library_result(self, path: str, idx: int, name: str, e: Any) -> set: ...
        def runner_args(self, path: str, fidx: int, method: str, j: int, pname: str, spec: tuple) -> frozenset: ...
        def runner_call(self, path: str, sc: int, e: Any, vals: frozenset) -> tuple[Any, bool] | None: ...
        def partial_args(
            self, path: str, fidx: int, method: str, i: int, pname: str, spec: tuple, cross: bool = False
        ) -> frozenset: ...
        # stores.py
        def object_stores(self, b: Any, attr: str, item: bool, keys: Any = None) -> set: ...
        # evaluate.py
        def binding_scope(self, path: str, idx: int, name: str) -> int | None: ...
        def call_result(self, path: str, idx: int, f: Any, e: Any) -> set: ...
        def constant(self, path: str, idx: int, name: str) -> Any: ...
        def container_item(self, c: Any, key: Any, seen: frozenset = ...) -> set: ...
        def constants(self, path: str, idx: int, name: str) -> Any: ...
        def eval(self, path: str, idx: int, e: Any) -> frozenset: ...
        def iter_values(self, path: str, idx: int, e: Any) -> frozenset: ...
        def receiver_returns(self, path: str, fidx: int) -> tuple: ...
        def receiver_result(self, path: str, idx: int, fn: Any, f: Any, r: set) -> set: ...
        def returns(self, path: str, fidx: int, but: str = "") -> frozenset: ...
        # classes.py
        def _class_value(self, hit: tuple | None, externals: list[Any], name: str) -> frozenset: ...
        def _first_binder(self, walk: list[tuple], name: str, start_after: bool) -> tuple | None: ...
        def class_lookup(self, path: str, cidx: int, name: str, start_after: bool = False) -> frozenset: ...
        def descriptor_methods(self, vals: Any, dunder: str) -> list[tuple[str, int]]: ...
        def getattr(self, b: Any, attr: str) -> tuple[frozenset, list[tuple[str, int]]]: ...
        def init_site_reaches(
            self, path: str, sc: int, e: Any, vals: frozenset, offset: int, recv: tuple[str, int]
        ) -> bool: ...
        def is_dataclass(self, path: str, cidx: int) -> bool: ...
        def is_enum(self, path: str, cidx: int) -> bool: ...
        def metaclasses(self, path: str, cidx: int) -> tuple[tuple[str, int], ...]: ...
        def methods(self, path: str, cidx: int, name: str) -> list[tuple[str, int]]: ...
        def named_subclasses(self, path: str, cidx: int) -> int: ...
        def module_getattr(self, mod: str) -> list[tuple[str, int]]: ...
        def operation(self, path: str, idx: int, e: Any) -> set: ...
        def prefixed_attrs(self, path: str, idx: int, e: Any) -> set: ...
        def _returns_of(self, fns: list[tuple[str, int]], also: Any = ..., functions: bool = True) -> frozenset: ...
        def mro(self, path: str, cidx: int) -> tuple[list[tuple[str, int]], list[Any], list[tuple]]: ...
        def property_accessors(self, path: str, cidx: int, name: str, kind: str) -> list[tuple[str, int]]: ...
        def subclasses(self, path: str, cidx: int) -> list[tuple[str, int]]: ...
        def found_as_subclass(self, key: tuple[str, int], c: tuple[str, int]) -> bool: ...
        # emit.py
        @staticmethod
        def callback_arg(e: Any) -> Any: ...
        def edge(
            self, caller: str, callee: str, kind: str, line: int, external: bool = False, confidence: float = 1.0
        ) -> None: ...
        # overrides.py
        def emit_overrides(self, caller: str, path: str, sc: int, fn: Any, line: int) -> None: ...

    # ------------------------------------------------------------------ modules
    def mod_path(self, mod: str) -> str | None:
        self.deps.add(mod)
        return self.ix.module_path(mod)

    def rooted_has(self, mod: str, name: str) -> bool:
        """Module ``mod`` of the program may have ``name``: a submodule, a module-level binding,
        a star import or a module ``__getattr__`` may give it (recorded reads)."""
        if self.mod_path(f"{mod}.{name}") is not None:
            return True
        p = self.mod_path(mod)
        if p is None:
            return True  # a namespace package: as before
        return self.binds(p, 0, name) is not None or bool(self.stars(p)) or self.binds(p, 0, "__getattr__") is not None

    def rooted(self, path: str, mod: str) -> str:
        """An absolute import's module in file ``path``, under a deeper import root when its top
        package is not the program's (``PythonIndex.import_root``; recorded)."""
        top = mod.split(".", 1)[0]
        if not top or top in STDLIB or self.is_internal(top):
            return mod
        self.deps.add(ROOT_PREFIX + root_key(mod))
        r, roots = self.ix.import_root(self.ix._module_of[path], mod)
        self.deps.update(roots)  # the roots and the import's top under them (``import_root``)
        return r or mod

    def is_internal(self, mod: str) -> bool:
        self.deps.add(mod)
        return mod in self.ix._packages

    def modname(self, path: str) -> str:
        return self.ix._module_of[path]

    def parsed(self, path: str) -> ParsedFile:
        """The file's own parse result. Other files' data is read ONLY through the recording
        accessors below (``hdr``, ``binds``, ...), which is what interface pruning relies on."""
        assert path == self.path, "cross-file reads must go through the recording accessors"
        return self.pf

    # ------------------------------------------------------------------ recorded reads
    # Every read of another file's parse data goes through one of these; each records a read key
    # (see ``mnemosyne.resolve.python.reads``) so that ``PythonIndex.update`` can tell whether a changed file still
    # answers every read this file made the same way (then this file's facts cannot differ).
    def _rd(self, path: str, key: tuple) -> None:
        s = self.reads.get(path)
        if s is None:
            s = self.reads[path] = set()
        s.add(key)

    def hdr(self, path: str, idx: int) -> Scope:
        """A scope, for its header fields only: kind, name, qual, parent, decorators, is_generator."""
        if path == self.path:
            return self.scopes[idx]
        r = self.reads.get(path)  # ``_rd`` inlined: the hottest accessors
        if r is None:
            r = self.reads[path] = set()
        r.add((READ_HEADER, idx))
        return self.ix._parsed[path].scopes[idx]

    def globs(self, path: str, idx: int) -> Scope:
        """A scope, for its ``globals`` / ``nonlocals`` only."""
        if path == self.path:
            return self.scopes[idx]
        r = self.reads.get(path)  # ``_rd`` inlined: the hottest accessors
        if r is None:
            r = self.reads[path] = set()
        r.add((READ_GLOBALS, idx))
        return self.ix._parsed[path].scopes[idx]

    def binds(self, path: str, idx: int, name: str) -> list | None:
        if path == self.path:
            return self.scopes[idx].bindings.get(name)
        r = self.reads.get(path)  # ``_rd`` inlined: the hottest accessors
        if r is None:
            r = self.reads[path] = set()
        r.add((READ_BINDS, idx, name))
        return self.ix._parsed[path].scopes[idx].bindings.get(name)

    def prefixed(self, path: str, idx: int, prefix: str) -> tuple[str, ...]:
        """The names scope ``idx`` binds that start with ``prefix``."""
        if path != self.path:
            self._rd(path, (READ_PREFIXED, idx, prefix))
        return prefixed_names(self.ix._parsed[path].scopes[idx], prefix)

    def ibinds(self, path: str, idx: int, name: str) -> list | None:
        if path != self.path:
            self._rd(path, (READ_ITEM_BINDS, idx, name))
        return self.ix._parsed[path].scopes[idx].item_bindings.get(name)

    def params_of(self, path: str, idx: int) -> list:
        if path != self.path:
            self._rd(path, (READ_PARAMS, idx))
        return self.ix._parsed[path].scopes[idx].params

    def rets(self, path: str, idx: int) -> tuple[list, Any, list]:
        if path != self.path:
            self._rd(path, (READ_RETURNS, idx))
        s = self.ix._parsed[path].scopes[idx]
        return s.returns, s.return_ann, s.yields

    def bases_of(self, path: str, idx: int) -> list:
        if path != self.path:
            self._rd(path, (READ_BASES, idx))
        return self.ix._parsed[path].scopes[idx].bases

    def metaclass_of(self, path: str, idx: int) -> Any:
        if path != self.path:
            self._rd(path, (READ_BASES, idx))
        return self.ix._parsed[path].scopes[idx].metaclass

    def iattrs(self, path: str, idx: int, name: str) -> Sequence[Any]:
        if path != self.path:
            self._rd(path, (READ_INST_ATTRS, idx, name))
        return self.ix._parsed[path].scopes[idx].inst_attrs.get(name, ())

    def iitems(self, path: str, idx: int, name: str) -> Sequence[Any]:
        if path != self.path:
            self._rd(path, (READ_INST_ITEMS, idx, name))
        return self.ix._parsed[path].scopes[idx].inst_items.get(name, ())

    def sites(self, path: str, name: str) -> Sequence[Any]:
        if path != self.path:
            self._rd(path, (READ_SITES, name))
        return self.ix._parsed[path].sites_by_name.get(name, ())

    def astores(self, path: str, name: str, attr: str) -> tuple:
        if path != self.path:
            self._rd(path, (READ_ATTR_STORES, name, attr))
        return file_attr_stores(self.ix._parsed[path]).get((name, attr), ())

    def ostores(self, path: str, attr: str) -> tuple:
        """File ``path``'s stores onto attribute ``attr`` of an object (``ParsedFile.obj_stores``)."""
        if path != self.path:
            self._rd(path, (READ_OBJ_STORES, attr))
        return self.ix._parsed[path].obj_stores.get(attr, ())

    def store_files(self, attr: str) -> tuple[str, ...]:
        """The files storing onto attribute ``attr`` of an object (recorded: a ``<os>ATTR``
        dependency and the answer, so a store appearing or disappearing re-resolves)."""
        self.deps.add(STORES_PREFIX + attr)
        files = self.os_reads[attr] = self.ix.store_files(attr)
        return files

    def decos(self, path: str, name: str) -> Sequence[Any]:
        if path != self.path:
            self._rd(path, (READ_DECOS, name))
        return self.ix._parsed[path].decos_by_name.get(name, ())

    def aliases(self, path: str, key: Any) -> tuple[str, ...]:
        if path != self.path:
            self._rd(path, (READ_ALIASES, key))
        return file_aliases(self.ix._parsed[path]).get(key, ())

    def partials(self, path: str, key: str) -> tuple[tuple[str, int, int], ...]:
        """The names bound to ``partial(key, ...)`` in file ``path``: (name, arguments bound, scope)."""
        if path != self.path:
            self._rd(path, (READ_PARTIALS, key))
        return file_partials(self.ix._parsed[path]).get(key, ())

    def param_calls(self, path: str) -> tuple[str, ...]:
        if path != self.path:
            self._rd(path, (READ_PARAM_CALLS,))
        return file_param_calls(self.ix._parsed[path])[0]

    def stored_params(self, path: str) -> frozenset[str]:
        if path != self.path:
            self._rd(path, (READ_STORED_PARAMS,))
        return file_stored_params(self.ix._parsed[path])

    def is_passed(self, path: str, key: Any) -> bool:
        if path != self.path:
            self._rd(path, (READ_PASSED, key))
        return key in file_param_calls(self.ix._parsed[path])[1]

    def alias_names(self, path: str, key: Any, exclude: str) -> list[str]:
        """The names (other than ``exclude``) bound, directly or through a chain of aliases, to
        ``key``: a name or a lambda's scope index (``ParsedFile.aliases``)."""
        out: list[str] = []
        seen = {exclude}
        todo = [key]
        while todo:
            for nm in self.aliases(path, todo.pop()):
                if nm not in seen:
                    seen.add(nm)
                    out.append(nm)
                    todo.append(nm)
        return out

    def sub_sites(self, path: str, name: str) -> tuple[int, ...]:
        if path != self.path:
            self._rd(path, (READ_SUB_SITES, name))
        return file_subclasses(self.ix._parsed[path]).get(name, ())

    def member_classes(self, path: str, name: str) -> tuple[int, ...]:
        """``path``'s classes whose body binds ``name`` or assigns ``self.name`` (sorted scopes)."""
        if path != self.path:
            self._rd(path, (READ_MEMBER_CLASSES, name))
        return file_member_classes(self.ix._parsed[path]).get(name, ())

    def called_classes(self, path: str) -> dict[str, tuple[int, ...]]:
        """``path``'s classes that its call sites call by their name: name -> class scopes."""
        if path != self.path:
            self._rd(path, (READ_CALLED_CLASSES,))
        return file_called_classes(self.ix._parsed[path])

    def stars(self, path: str) -> list:
        if path != self.path:
            self._rd(path, (READ_STARS,))
        return self.ix._parsed[path].star_imports

    def all_names(self, path: str) -> list | None:
        if path != self.path:
            self._rd(path, (READ_ALL,))
        return self.ix._parsed[path].all_names

    def stub(self, path: str, fidx: int) -> str:
        if path != self.path:
            self._rd(path, (READ_STUB, fidx))
        return stub_body(self.ix._parsed[path].scopes[fidx])

    def importers_calling(self, mod: str, name: str) -> list[str]:
        r = self.ix.importers_calling(mod, name)
        self.ix_reads[(mod, name)] = tuple(r)
        return r

    def subclass_files(self, path: str, cidx: int) -> tuple[str, tuple[str, ...]]:
        """Class ``cidx``'s name and the files where its subclasses may be (recorded: a
        ``<sub>NAME`` dependency and the answer, so a new or removed subclass re-resolves)."""
        name = self.hdr(path, cidx).name
        self.deps.add(SUB_PREFIX + name)
        files = self.sub_reads[name] = self.ix.subclass_files(name)
        return name, files

    def lambda_scope(self, path: str, start: int) -> int | None:
        # not recorded: read keys compare expressions with lambda start bytes mapped to scopes
        return self.ix._parsed[path].lambdas.get(start)

    def fqn(self, path: str, idx: int) -> str:
        k = (path, idx)
        r = self.fqn_memo.get(k)
        if r is None:  # (its header read is recorded the first time)
            mod = self.ix._module_of[path]
            q = self.hdr(path, idx).qual
            r = self.fqn_memo[k] = f"{mod}.{q}" if q else mod
        return r

    def absolute(self, path: str, module: str, level: int, name: str = "") -> str | None:
        """The module ``from module import name`` (``level`` leading dots) in file ``path`` reads;
        an absolute one under a deeper import root only when the module there has ``name``
        (``rooted_has``): ``from sphinx import addnodes`` is not a ``tests/sphinx`` package of the
        program that defines no ``addnodes``."""
        if level == 0:
            r = self.rooted(path, module)
            if name and r != module and not self.rooted_has(r, name):
                return module
            return r
        mod = self.ix._module_of[path]
        is_pkg = _strip_suffix(path).endswith("/__init__") or _strip_suffix(path) == "__init__"
        return _absolute(mod, is_pkg, module, level)
