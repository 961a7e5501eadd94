"""Facts -> versioned edges, keyed by the identities of docs/schema.md, and the invariant checker.

An :class:`EdgeKey` names one version identity: edge type, both endpoints (label + stable key)
and the identity properties. Two commits that give the same key continue the same version;
anything else in the key changing opens a new version. Non-identity properties (``rel_lines`` and
``lines_hash`` of a CALLS version, ``source`` of DEPENDS_ON/LOCKS_VERSION) are updated in place.

Positions are not versioned facts: a DEFINES identity has no line range, and a CALLS version keeps
its call-site lines relative to the caller's first line (``rel_lines``) with the caller's body hash
they were measured on (``lines_hash``). An edit above a function shifts it without touching any
version; the query layer derives absolute lines at a commit from the source (query/positions.py).

``snapshot_edges(snapshot)`` (what a fresh parse of a tree says) and ``graph_edges_at(graph, seq)``
(what the graph says holds at timeline position ``seq``) return the same canonical form, so the
invariant is ``snapshot_edges(extract_tree(tree_at(X))) == graph_edges_at(graph, seq(X))``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mnemosyne import vocabulary as V
from mnemosyne.facts import FileFacts, PackageFacts, Snapshot
from mnemosyne.temporal import holds_at

# identity properties stored on each versioned edge type, in key order (docs/schema.md)
IDENT_PROPS: dict[str, tuple[str, ...]] = {
    V.CALLS: ("resolution", "confidence"),
    # metrics (complexity, loc, params, nesting) change only with body_hash: no extra versions
    V.DEFINES: ("file", "signature", "docstring", "body_hash", "kind", "complexity", "loc", "params", "nesting"),
    V.IMPORTS: (),
    V.INHERITS_FROM: (),
    V.DEPENDS_ON: ("spec", "scope"),
    V.LOCKS_VERSION: (),
}

# the key property of each node label that versioned edges touch
NODE_KEY: dict[str, str] = {
    V.FILE: "path",
    V.FUNCTION: V.FQN,
    V.CLASS: V.FQN,
    V.PACKAGE: "path",
    V.THIRD_PARTY_PACKAGE: "key",
    V.PACKAGE_VERSION: "key",
    V.DOCUMENT: "path",  # HAS_SECTION (documentation versions, docs/search.md)
    V.SECTION: "key",  # HAS_SECTION, NEXT
}

PACKAGES_OWNER = "<packages>"  # owner of all package facts (recomputed when a manifest changes)


def clean(s: str) -> str:
    """Strings sent as query params must not contain NUL bytes and must be encodable as UTF-8.
    A byte that is not UTF-8 (a file name decoded with surrogateescape) becomes U+FFFD and its two
    hex digits (``x\\xfe.py`` -> ``x\ufffdfe.py``): two such names stay two, and ``raw_text`` gives
    the name back as git has it. Valid UTF-8 is left as it is."""
    if "\x00" in s:
        s = s.replace("\x00", "")
    if not s.isascii():
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            s = "".join(f"\ufffd{ord(c) - 0xDC00:02x}" if "\udc80" <= c <= "\udcff" else
                        "\ufffd" if "\ud800" <= c <= "\udfff" else c for c in s)
    return s


def raw_text(s: str) -> str:
    """The inverse of ``clean`` for a name with escaped bytes: the surrogateescape string git's
    bytes decode to (``os.fsencode`` of it is the name on disk and in git)."""
    if "\ufffd" not in s:
        return s
    first, *rest = s.split("\ufffd")
    out = [first]
    for part in rest:
        byte = part[:2]
        if len(byte) == 2 and byte[0] in "89abcdef" and byte[1] in "0123456789abcdef":
            out.append(chr(0xDC00 + int(byte, 16)) + part[2:])
        else:
            out.append("\ufffd" + part)
    return "".join(out)


def conf(x: float) -> float:
    return round(float(x), 6)


@lru_cache(maxsize=1 << 16)
def _vkey(ident: tuple) -> str:
    """Digest of identity properties; memoized: history ingestion asks for the same ones per
    commit (open, close and diff of an unchanged call site)."""
    raw = json.dumps(ident, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(raw.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


@dataclass(frozen=True, slots=True)
class EdgeKey:
    etype: str
    src_label: str
    src: str
    dst_label: str
    dst: str
    ident: tuple = ()

    @property
    def vkey(self) -> str:
        """Short, stable digest of the identity properties (stored on the edge as ``vkey``)."""
        return _vkey(self.ident) if self.ident else "-"

    def ident_props(self) -> dict[str, Any]:
        return dict(zip(IDENT_PROPS[self.etype], self.ident))

    def canonical(self) -> tuple:
        return (self.src_label, self.src, self.dst_label, self.dst, *self.ident)


def package_key(path: str) -> str:
    """``Package.path``: the manifest folder, ``.`` for the repository root (FalkorDB's range
    index never finds an empty string, so '' would break MERGE and MATCH)."""
    return path or "."


def tp_key(ecosystem: str, name: str) -> str:
    return f"{ecosystem}:{name}"


def pv_key(ecosystem: str, name: str, version: str) -> str:
    return f"{ecosystem}:{name}@{version}"


def file_edges(ff: FileFacts) -> dict[EdgeKey, dict[str, Any]]:
    """Versioned edges a source file contributes: key -> mutable (non-identity) properties."""
    out: dict[EdgeKey, dict[str, Any]] = {}
    kinds = {s.fqn: s.kind for s in ff.symbols}
    first_line = {s.fqn: (s.line_start, s.body_hash or "") for s in ff.symbols}
    for s in ff.symbols:
        if s.parent in (ff.path, s.file):
            src_label, src = V.FILE, ff.path
        else:
            src_label = V.CLASS if kinds.get(s.parent) == "class" else V.FUNCTION
            src = s.parent
        dst_label = V.CLASS if s.kind == "class" else V.FUNCTION
        ident = (
            clean(s.file),
            clean(s.signature or ""),
            clean(s.docstring or ""),
            s.body_hash or "",
            s.kind,
            s.complexity,
            s.loc,
            s.params,
            s.nesting,
        )
        out[EdgeKey(V.DEFINES, src_label, clean(src), dst_label, clean(s.fqn), ident)] = {}
    for c in ff.calls:
        k = EdgeKey(V.CALLS, V.FUNCTION, clean(c.caller), V.FUNCTION, clean(c.callee), (c.resolution, conf(c.confidence)))
        start, body = first_line.get(c.caller, (1, ""))
        prev = out.get(k)
        rel = sorted(set(prev["rel_lines"] if prev else ()) | {ln - start for ln in c.lines})
        out[k] = {"rel_lines": rel, "lines_hash": body}
    for im in ff.imports:
        if im.target_kind == "file":
            k = EdgeKey(V.IMPORTS, V.FILE, clean(ff.path), V.FILE, clean(im.target))
        else:
            k = EdgeKey(V.IMPORTS, V.FILE, clean(ff.path), V.THIRD_PARTY_PACKAGE, clean(tp_key(im.ecosystem, im.target)))
        out[k] = {}
    for inh in ff.inherits:
        out[EdgeKey(V.INHERITS_FROM, V.CLASS, clean(inh.child), V.CLASS, clean(inh.parent))] = {}
    return out


def package_edges(pk: PackageFacts) -> dict[EdgeKey, dict[str, Any]]:
    out: dict[EdgeKey, dict[str, Any]] = {}
    for d in pk.dependencies:
        k = EdgeKey(
            V.DEPENDS_ON,
            V.PACKAGE,
            clean(package_key(d.package)),
            V.THIRD_PARTY_PACKAGE,
            clean(tp_key(d.ecosystem, d.name)),
            (clean(d.spec or ""), d.scope or "runtime"),
        )
        out.setdefault(k, {"source": clean(d.source or "")})
    for lk in pk.locks:
        k = EdgeKey(V.LOCKS_VERSION, V.PACKAGE, clean(package_key(lk.package)), V.PACKAGE_VERSION, clean(pv_key(lk.ecosystem, lk.name, lk.version)))
        out.setdefault(k, {"source": clean(lk.source or "")})
    return out


def snapshot_edges(snapshot: Snapshot) -> dict[str, set[tuple]]:
    """Canonical edge sets of a fresh parse (the right-hand side of the invariant)."""
    out: dict[str, set[tuple]] = {t: set() for t in V.VERSIONED_EDGES}
    for ff in snapshot.files.values():
        for k in file_edges(ff):
            out[k.etype].add(k.canonical())
    for k in package_edges(snapshot.packages):
        out[k.etype].add(k.canonical())
    return out


_HOLDS = holds_at("e", "$s")


def _query(graph, cypher: str, params: dict) -> list[list]:
    ro = getattr(graph, "ro_query", None) or graph.query
    res = ro(cypher, params)
    return res.result_set if hasattr(res, "result_set") else list(res)


def graph_edges_at(graph, seq: int) -> dict[str, set[tuple]]:
    """Canonical edge sets holding at timeline position ``seq`` in the graph (left-hand side)."""
    out: dict[str, set[tuple]] = {t: set() for t in V.VERSIONED_EDGES}
    for etype in V.VERSIONED_EDGES:
        props = IDENT_PROPS[etype]
        ret = ", ".join([f"e.{p}" for p in props]) or "null"
        cy = (
            f"MATCH (a)-[e:{etype}]->(b) WHERE {_HOLDS} "
            "RETURN labels(a)[0], coalesce(a.path, a.fully_qualified_name, a.key), "
            f"labels(b)[0], coalesce(b.path, b.fully_qualified_name, b.key), {ret}"
        )
        for row in _query(graph, cy, {"s": seq}):
            ident = tuple(row[4:]) if props else ()
            if etype == V.CALLS:
                ident = (ident[0], conf(ident[1]))
            out[etype].add((row[0], row[1], row[2], row[3], *ident))
    return out


def diff_edge_sets(a: dict[str, set[tuple]], b: dict[str, set[tuple]], limit: int = 10) -> str:
    """Human-readable difference (for assertion messages); empty when equal."""
    lines = []
    for t in V.VERSIONED_EDGES:
        only_a, only_b = a.get(t, set()) - b.get(t, set()), b.get(t, set()) - a.get(t, set())
        for x in sorted(only_a, key=repr)[:limit]:
            lines.append(f"{t} only in first:  {x}")
        for x in sorted(only_b, key=repr)[:limit]:
            lines.append(f"{t} only in second: {x}")
    return "\n".join(lines)
