"""Plain facts passed between the pure steps (parse, resolve, deps) and the timeline/store.

These are frozen, hashable dataclasses so that "what changed between commit N-1 and N" is a set
difference. Every fact names things by stable keys (repo-relative paths, fully qualified names,
docs/schema.md), never by database ids. Each fact has an ``owner``: the file (or manifest)
whose content decides it, so incremental ingestion knows which facts to recompute.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

SymbolKind = Literal["module", "function", "method", "lambda", "class"]
Resolution = Literal[
    "exact",  # defined in the same scope / module, unambiguous
    "import",  # through an import binding
    "self",  # self./this. through the class and its MRO
    "super",  # super() / super.x
    "constructor",  # instantiation -> __init__ / constructor
    "implicit",  # language-made call: __enter__, __iter__, property getter, decorator, ...
    "inferred",  # through a variable / attribute / return value whose type was inferred
    "subclass",  # an override that self.m() / this.m() in a base class may reach (confidence 0.9)
    "builtin",  # <builtin>.name
    "external",  # a library callee named by its import path
    "jsx",  # a JSX element calling its component
]
# the Resolution words, named (the Python resolver's emission uses these)
RES_EXACT: Final[Resolution] = "exact"
RES_IMPORT: Final[Resolution] = "import"
RES_SELF: Final[Resolution] = "self"
RES_SUPER: Final[Resolution] = "super"
RES_CONSTRUCTOR: Final[Resolution] = "constructor"
RES_IMPLICIT: Final[Resolution] = "implicit"
RES_INFERRED: Final[Resolution] = "inferred"
RES_SUBCLASS: Final[Resolution] = "subclass"
RES_BUILTIN: Final[Resolution] = "builtin"
RES_EXTERNAL: Final[Resolution] = "external"
RES_JSX: Final[Resolution] = "jsx"


@dataclass(frozen=True, slots=True)
class Symbol:
    """A module, function, method, lambda or class defined in a file at one commit.

    ``parent`` is what DEFINES it: the file path for top-level symbols and the module function,
    the enclosing class FQN for methods, the enclosing function FQN for nested functions.
    The attributes that can change (signature, docstring, body_hash, metrics) live on the DEFINES
    version in the graph, so they are answerable at any commit.

    ``ordinal``: an anonymous function's (or class expression's) source order among those of its
    kind in its enclosing scope, from 1 (0 for named symbols): not part of its name, which comes
    from its context (mnemosyne.parse.anon); the PyCG export numbers it so (``<lambda2>``).
    """

    fqn: str
    name: str
    kind: SymbolKind
    file: str
    parent: str
    line_start: int
    line_end: int
    signature: str = ""
    docstring: str = ""
    body_hash: str = ""
    ordinal: int = 0
    # functions and methods (parse/metrics.py); 0 for classes, modules and lambdas. They depend
    # on the body's text only, so they change only with ``body_hash``.
    complexity: int = 0
    loc: int = 0
    params: int = 0
    nesting: int = 0


@dataclass(frozen=True, slots=True)
class Call:
    """caller -> callee, resolved; ``lines`` are the 1-based call-site lines in the caller's file."""

    caller: str
    callee: str
    resolution: str
    confidence: float
    lines: tuple[int, ...] = ()
    external: bool = False  # callee is a library or builtin function (an external node)


@dataclass(frozen=True, slots=True)
class Import:
    """A file imports another file of the repository (``target_kind='file'``, target = path) or a
    third-party package (``target_kind='package'``, target = distribution/top-level name)."""

    file: str
    target: str
    target_kind: Literal["file", "package"]
    ecosystem: str = ""  # 'pypi' | 'npm' for packages


@dataclass(frozen=True, slots=True)
class Inherit:
    """child class -> base class (FQN; external bases are named by import path)."""

    child: str
    parent: str
    external: bool = False


@dataclass(slots=True)
class FileFacts:
    """Everything one source file contributes at one commit, after resolution.

    ``depends_on`` lists what this file's resolution looked at outside the file: internal module
    names (present or not) and language-specific keys (e.g. Python's ``<calls>NAME`` for
    callbacks resolved across modules). Only the language index that produced it interprets
    them. Indexes use it coarsely (a module appearing or disappearing); for content edits they
    keep finer records of the answers each cross-file lookup gave, and re-resolve a dependent
    only when one of those answers changes (interface pruning).
    """

    path: str
    language: str
    module: str
    content_hash: str
    symbols: list[Symbol] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    inherits: list[Inherit] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    depends_on: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class PackageFact:
    """A Python or npm package inside the repository (docs/schema.md, ``Package``)."""

    path: str  # folder of the manifest, repo-relative ('' for the root)
    name: str
    ecosystem: Literal["pypi", "npm"]
    manifest: str  # the manifest file path that declares it


@dataclass(frozen=True, slots=True)
class Dependency:
    """Package DEPENDS_ON ThirdPartyPackage, as declared in ``source`` (a manifest path)."""

    package: str  # PackageFact.path
    ecosystem: str
    name: str  # normalised distribution name (PEP 503 for pypi)
    spec: str = ""  # version specifier as written
    scope: str = "runtime"  # runtime | dev | optional | peer | build
    source: str = ""


@dataclass(frozen=True, slots=True)
class LockedVersion:
    """Package LOCKS_VERSION PackageVersion, from a lockfile ``source``."""

    package: str
    ecosystem: str
    name: str
    version: str
    source: str = ""


@dataclass(slots=True)
class PackageFacts:
    """What the manifests and lockfiles of one commit declare."""

    packages: list[PackageFact] = field(default_factory=list)
    dependencies: list[Dependency] = field(default_factory=list)
    locks: list[LockedVersion] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Snapshot:
    """All facts of a repository tree at one commit: what a fresh parse gives (the invariant)."""

    files: dict[str, FileFacts] = field(default_factory=dict)
    packages: PackageFacts = field(default_factory=PackageFacts)
    warnings: list[str] = field(default_factory=list)
