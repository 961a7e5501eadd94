"""Writing a window of timeline commits at once: each version is written once, with its final interval.

History ingestion decides every commit's versions in memory (``timeline.state.FactState``). Written
commit by commit, a version that opens at commit 10 and closes at commit 14 costs a ``CREATE`` and
later a ``MATCH ... SET valid_to``; a commit costs some 19 queries of a few rows each. A window
collects the commits, node rows and version deltas of up to ``max_commits`` commits and writes them
in large batches:

- a version opened inside the window is ``CREATE``d once, closed already when it also closed inside
  the window (no ``MATCH ... SET`` for it, ever);
- only versions opened before the window are matched: to update their in-place properties, then to
  close them;
- the commits' nodes and unversioned edges go in one ``UNWIND`` per kind, node rows merged per key.

Kill safety is the per-commit rule stretched over the window: ``Meta.in_progress_seq`` is set to
the window's first seq before anything of the window is written (documentation is written as each
commit is read, after that), and ``Meta.last_seq`` moves to its last commit in the last query.
A run killed inside a window is rolled back to the window's start on resume
(``VersionStore.rollback`` removes what began at or after ``in_progress_seq`` and reopens what ended
there), so a kill loses at most one window's work. Readers meanwhile see ``Meta.last_seq`` (the
previous window's end), at which the window's half-written intervals do not hold yet.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from mnemosyne import vocabulary as V
from mnemosyne.git.messages import pull_request, tickets
from mnemosyne.git.repo import CommitInfo
from mnemosyne.store.versions import NodeRows, VersionStore
from mnemosyne.temporal import holds_at_head
from mnemosyne.timeline.edges import NODE_KEY, EdgeKey, clean
from mnemosyne.timeline.state import Delta

WINDOW_COMMITS = 64  # commits per window: a kill loses at most this many (measured: see benchmarks/README.md)
WINDOW_ROWS = 200_000  # pending version rows that flush a window early (bounds memory on huge commits)

_NODE_KINDS = ("files", "functions", "classes")  # rows {key, p}: merged per key, later props win


@dataclass(slots=True)
class _Version:
    key: EdgeKey
    props: dict[str, Any]
    start: tuple[int, int, str]  # (time, seq, commit)
    end: tuple[int, int, str] | None = None


class VersionWindow:
    """The commits of one window, written by :meth:`flush` (see the module doc)."""

    def __init__(self, store: VersionStore, branch: str, max_commits: int = WINDOW_COMMITS) -> None:
        self.store = store
        self.branch = branch
        self.max_commits = max(1, int(max_commits))
        self._reset()

    def _reset(self) -> None:
        self.first_seq: int | None = None
        self.commits: list[tuple[CommitInfo, int, int]] = []  # (commit, seq, ingested_at)
        self.opened: dict[EdgeKey, _Version] = {}
        self.done: list[_Version] = []
        self.closes: list[tuple[EdgeKey, tuple[int, int, str]]] = []  # versions opened before the window
        self.updates: dict[EdgeKey, dict[str, Any]] = {}  # in-place props of versions opened before
        self.keyed: dict[str, dict[str, dict]] = {k: {} for k in _NODE_KINDS}
        self.other_nodes = NodeRows()
        self.rows = 0

    def __len__(self) -> int:
        return len(self.commits)

    def begin(self, seq: int) -> None:
        """Before the first write of commit ``seq`` (its documentation, its code versions)."""
        if self.first_seq is None:
            self.first_seq = seq
            self.store.set_meta(in_progress_seq=seq)

    def add(self, c: CommitInfo, seq: int, now: int, nodes: NodeRows, delta: Delta) -> None:
        self.begin(seq)
        self.commits.append((c, seq, now))
        at = (c.timestamp, seq, c.hash)
        for k in delta.closed:
            v = self.opened.pop(k, None)
            if v is not None:
                v.end = at
                self.done.append(v)
            else:
                self.closes.append((k, at))
        for k, p in delta.opened:
            self.opened[k] = _Version(k, {**k.ident_props(), **p}, at)
        for k, p in delta.updated:
            v = self.opened.get(k)
            if v is not None:
                v.props.update(p)
            else:
                self.updates.setdefault(k, {}).update(p)
        self.rows += len(delta)
        for kind in _NODE_KINDS:
            merged = self.keyed[kind]
            id_field = "path" if kind == "files" else "k"
            for row in getattr(nodes, kind):
                prev = merged.get(row[id_field])
                merged[row[id_field]] = row if prev is None else {**row, "p": {**prev["p"], **row["p"]}}
        for attr in ("ext_functions", "ext_classes", "third_party", "package_versions", "packages", "package_files",
                     "ensure_files"):
            getattr(self.other_nodes, attr).extend(getattr(nodes, attr))
        self.rows += len(nodes)

    def full(self) -> bool:
        return len(self.commits) >= self.max_commits or self.rows >= WINDOW_ROWS

    def flush(self, **meta: Any) -> tuple[CommitInfo, int] | None:
        """Write the window; returns its last (commit, seq), or None when it was empty. ``meta``:
        extra ``Meta`` fields written with ``last_seq`` (the documentation is written as each commit
        is read, so ``docs_seq``/``docs_commit`` move with it)."""
        if not self.commits:
            return None
        st = self.store
        self._write_commits()
        nodes = self.other_nodes
        for kind in _NODE_KINDS:
            setattr(nodes, kind, list(self.keyed[kind].values()))
        st.upsert_nodes(nodes)
        self._write_versions()
        c, seq, _now = self.commits[-1]
        st.finish_commit(seq, c, self.branch, docs_seq=seq, docs_commit=c.hash, **meta)
        self._reset()
        return c, seq

    # --- writes ----------------------------------------------------------------------------------
    def _write_commits(self) -> None:
        st = self.store
        rows: list[dict[str, Any]] = []
        parents: list[dict[str, Any]] = []
        mods: list[dict[str, Any]] = []
        prs: list[dict[str, Any]] = []
        refs: list[dict[str, Any]] = []
        for c, seq, now in self.commits:
            rows.append({
                "h": c.hash, "msg": c.message, "an": c.author, "ae": c.author_email, "cn": c.committer,
                "ce": c.committer_email, "ct": c.timestamp, "at": c.authored_at, "seq": seq, "parents": c.parents,
                "now": now,
            })  # fmt: skip
            parents.extend({"h": c.hash, "p": p, "i": i} for i, p in enumerate(c.parents))
            for ch in c.changes:
                if not ch.is_submodule:
                    mods.append({"h": c.hash, "path": ch.path, "t": "A" if ch.status == "C" else ch.status,
                                 "a": ch.lines_added, "d": ch.lines_removed, "o": ch.old_path})  # fmt: skip
            pr = pull_request(c.message)
            if pr is not None:
                prs.append({"h": c.hash, "n": pr.number, "t": pr.title, "s": pr.status})
            refs.extend({"h": c.hash, "k": t.key, "kind": t.kind} for t in tickets(c.message, pr))
        st.batches(
            f"UNWIND $rows AS r MERGE (c:{V.COMMIT} {{hash: r.h}}) "
            "SET c.message = r.msg, c.author = r.an, c.author_email = r.ae, c.committer = r.cn, "
            "c.committer_email = r.ce, c.timestamp = r.ct, c.authored_at = r.at, c.seq = r.seq, "
            "c.parents = r.parents, c.ingested_at = coalesce(c.ingested_at, r.now), c.superseded_at = null "
            f"WITH c MERGE (b:{V.BRANCH} {{name: $branch}}) MERGE (c)-[:{V.IN_BRANCH}]->(b)",
            rows, branch=clean(self.branch),
        )
        st.batches(
            f"UNWIND $rows AS r MATCH (c:{V.COMMIT} {{hash: r.h}}) "
            f"MERGE (p:{V.COMMIT} {{hash: r.p}}) MERGE (c)-[e:{V.PARENT}]->(p) SET e.index = r.i",
            parents,
        )
        st.batches(
            f"UNWIND $rows AS r MATCH (c:{V.COMMIT} {{hash: r.h}}) MERGE (f:{V.FILE} {{path: r.path}}) "
            f"MERGE (c)-[m:{V.MODIFIES}]->(f) SET m.change_type = r.t, m.lines_added = r.a, "
            "m.lines_removed = r.d, m.old_path = r.o",
            mods,
        )
        st.batches(
            f"UNWIND $rows AS r MATCH (c:{V.COMMIT} {{hash: r.h}}) MERGE (p:{V.PULL_REQUEST} {{number: r.n}}) "
            f"SET p.title = r.t, p.status = r.s MERGE (p)-[:{V.MERGED_BY}]->(c)",
            prs,
        )
        st.batches(
            f"UNWIND $rows AS r MATCH (c:{V.COMMIT} {{hash: r.h}}) MERGE (t:{V.TICKET} {{key: r.k}}) "
            f"MERGE (c)-[a:{V.ADDRESSES}]->(t) SET a.kind = r.kind",
            refs,
        )

    @staticmethod
    def _grouped(items: list[tuple[EdgeKey, dict]]) -> dict[tuple[str, str, str], list[dict]]:
        g: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
        for k, row in items:
            g[(k.etype, k.src_label, k.dst_label)].append(row)
        return g

    def _write_versions(self) -> None:
        st = self.store
        # versions opened before the window: in-place properties first (they apply while open), then ends
        upd = [(k, {"s": k.src, "d": k.dst, "k": k.vkey, "p": p}) for k, p in self.updates.items()]
        for (etype, sl, dl), rows in self._grouped(upd).items():
            st.batches(
                f"UNWIND $rows AS r MATCH (a:{sl} {{{NODE_KEY[sl]}: r.s}})-[e:{etype}]->(b:{dl} {{{NODE_KEY[dl]}: r.d}}) "
                f"WHERE e.vkey = r.k AND {holds_at_head('e')} SET e += r.p",
                rows,
            )
        ends = [(k, {"s": k.src, "d": k.dst, "k": k.vkey, "t": t, "seq": s, "h": h}) for k, (t, s, h) in self.closes]
        for (etype, sl, dl), rows in self._grouped(ends).items():
            st.batches(
                f"UNWIND $rows AS r MATCH (a:{sl} {{{NODE_KEY[sl]}: r.s}})-[e:{etype}]->(b:{dl} {{{NODE_KEY[dl]}: r.d}}) "
                f"WHERE e.vkey = r.k AND {holds_at_head('e')} "
                "SET e.valid_to = r.t, e.valid_to_seq = r.seq, e.ended_commit = r.h",
                rows,
            )
        # every version that began in the window, written once with its interval as it stands
        now = self.commits[-1][2]
        made = []
        for v in [*self.done, *self.opened.values()]:
            t, s, h = v.start
            p = dict(v.props)
            if v.end is not None:
                p.update({V.VALID_TO: v.end[0], V.VALID_TO_SEQ: v.end[1], V.ENDED_COMMIT: v.end[2]})
            made.append((v.key, {"s": v.key.src, "d": v.key.dst, "k": v.key.vkey, "t": t, "seq": s, "h": h, "p": p}))
        for (etype, sl, dl), rows in self._grouped(made).items():
            st.batches(
                f"UNWIND $rows AS r MATCH (a:{sl} {{{NODE_KEY[sl]}: r.s}}), (b:{dl} {{{NODE_KEY[dl]}: r.d}}) "
                f"CREATE (a)-[e:{etype} {{vkey: r.k, valid_from: r.t, valid_from_seq: r.seq, "
                "source_commit: r.h, ingested_at: $now}]->(b) SET e += r.p",
                rows, now=now,
            )
