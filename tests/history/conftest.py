"""Helpers for the history tests: real git repositories in temp dirs, the invariant, graph dumps."""

from __future__ import annotations

import itertools
import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemosyne.extract import extract_tree
from mnemosyne.git import GitRepo
from mnemosyne.timeline.edges import diff_edge_sets, graph_edges_at, snapshot_edges
from mnemosyne.workspaces import add_workspace

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "Tess Ter",
    "GIT_AUTHOR_EMAIL": "tess@example.com",
    "GIT_COMMITTER_NAME": "Tess Ter",
    "GIT_COMMITTER_EMAIL": "tess@example.com",
}


class Repo:
    """A scratch git repository with a tiny API for writing histories."""

    def __init__(self, path: Path, branch: str = "main") -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.clock = 1_700_000_000
        self.git("init", "-q", "--template=", "-b", branch, ".")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str, env: dict[str, str] | None = None, check: bool = True) -> str:
        e = {**os.environ, **GIT_ENV, **(env or {})}
        p = subprocess.run(["git", *args], cwd=self.path, env=e, capture_output=True, check=False)
        if check and p.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)}: {p.stderr.decode(errors='replace')}")
        return p.stdout.decode(errors="replace")

    def write(self, rel: str, content: str | bytes) -> None:
        p = self.path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode()
        p.write_bytes(content)

    def rm(self, rel: str) -> None:
        self.git("rm", "-q", "-r", rel)

    def mv(self, src: str, dst: str) -> None:
        (self.path / dst).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", src, dst)

    def commit(self, message: str | bytes = "change", when: int | None = None, allow_empty: bool = False) -> str:
        if when is None:
            self.clock += 60
            when = self.clock
        env = {"GIT_AUTHOR_DATE": f"@{when} +0000", "GIT_COMMITTER_DATE": f"@{when} +0000"}
        self.git("add", "-A", ".")
        args = ["commit", "-q", "--no-verify"]
        if allow_empty:
            args.append("--allow-empty")
        if isinstance(message, bytes):
            msg_file = self.path.parent / f".msg-{uuid.uuid4().hex}"
            msg_file.write_bytes(message)
            self.git(*args, "-F", str(msg_file), env=env)
            msg_file.unlink()
        else:
            self.git(*args, "-m", message, env=env)
        return self.head()

    def head(self, rev: str = "HEAD") -> str:
        return self.git("rev-parse", rev).strip()

    def timeline(self, rev: str = "main") -> list[str]:
        return self.git("rev-list", "--first-parent", "--reverse", rev).split()


@pytest.fixture
def make_repo(tmp_path: Path):
    counter = iter(range(1000))

    def make(name: str | None = None, branch: str = "main") -> Repo:
        return Repo(tmp_path / (name or f"repo{next(counter)}"), branch=branch)

    return make


def tree_snapshot(repo_path: Path, commit: str):
    with GitRepo(repo_path) as r:
        files, _ = r.read_tree_files(commit)
    return extract_tree(files.items())


def assert_invariant(graph, repo_path: Path, rev: str = "main", seqs: list[int] | None = None) -> int:
    """For every timeline commit (or those at ``seqs``), graph-as-of == fresh parse. Returns #checked."""
    with GitRepo(repo_path) as r:
        timeline = r.timeline_hashes(r.rev_parse(rev))
        checked = 0
        for seq, h in enumerate(timeline):
            if seqs is not None and seq not in seqs:
                continue
            files, _ = r.read_tree_files(h)
            want = snapshot_edges(extract_tree(files.items()))
            got = graph_edges_at(graph, seq)
            diff = diff_edge_sets(want, got)
            assert not diff, f"invariant broken at seq {seq} ({h[:12]}): (first = fresh parse, second = graph)\n{diff}"
            checked += 1
    return checked


_KEY = "coalesce(n.path, n.fully_qualified_name, n.key, n.hash, n.name, toString(n.number))"


def canonical_dump(graph, volatile: tuple[str, ...] = ("ingested_at",)) -> list[tuple]:
    """Every node and edge with its properties (wall-clock properties dropped; ``superseded_at``
    kept only as believed/not), sorted: equal dumps mean equal graphs."""

    def norm(props: dict) -> tuple:
        out = []
        for k, v in sorted(dict(props).items()):
            if k in volatile or k == "embedding":
                continue
            if k == "superseded_at":
                v = v is not None
            if isinstance(v, list):
                v = tuple(v)
            out.append((k, v))
        return tuple(out)

    nodes = graph.query(f"MATCH (n) RETURN labels(n)[0], {_KEY}, properties(n)")
    edges = graph.query(
        f"MATCH (n)-[e]->(m) RETURN labels(n)[0], {_KEY}, type(e), labels(m)[0], "
        f"{_KEY.replace('n.', 'm.')}, properties(e)"
    )
    dump = [("node", lbl, str(k), norm(p)) for lbl, k, p in nodes]
    dump += [("edge", a, str(ak), t, b, str(bk), norm(p)) for a, ak, t, b, bk, p in edges]
    return sorted(dump, key=repr)


@pytest.fixture
def ws(db, registry) -> Iterator:
    """Registers workspaces for a test and returns a factory ``ws(repo_path, branch='main')``."""
    made: list[str] = []

    def add(path: Path, branch: str = "main", name: str | None = None):
        name = name or f"h_{uuid.uuid4().hex[:10]}"
        info = add_workspace(registry, name, path, branch=branch)
        made.append(name)
        return info

    yield add


def docs_at(graph, seq: int) -> dict[str, list[tuple]]:
    """What the graph says the documentation is at timeline position ``seq``: path -> blocks
    (key, heading path, text) in reading order, plus the NEXT pairs holding there."""
    holds = "r.valid_from_seq <= $s AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $s) AND r.superseded_at IS NULL"
    out: dict[str, list[tuple]] = {}
    for path, key, hp, text, _ord in graph.ro_query(
        f"MATCH (d:Document)-[r:HAS_SECTION]->(s:Section) WHERE {holds} "
        "RETURN d.path, s.key, s.heading_path, s.text, r.ordinal ORDER BY d.path, r.ordinal",
        {"s": seq},
    ):
        out.setdefault(path, []).append((key, hp, text))
    nxt = graph.ro_query(
        f"MATCH (a:Section)-[r:NEXT]->(b:Section) WHERE {holds} RETURN r.doc, a.key, b.key", {"s": seq}
    )
    out["<next>"] = sorted(tuple(x) for x in nxt)
    # ordinals are the latest ones (updated in place): at an earlier commit, reading order is the
    # NEXT chain holding there
    for path, blocks in out.items():
        if path == "<next>":
            continue
        succ = {a: b for d, a, b in out["<next>"] if d == path}
        by_key = {b[0]: b for b in blocks}
        first = [k for k in by_key if k not in set(succ.values())]
        chain: list[tuple] = []
        k = first[0] if len(first) == 1 else None
        while k in by_key and len(chain) < len(blocks):
            chain.append(by_key[k])
            k = succ.get(k)
        out[path] = chain if len(chain) == len(blocks) else blocks
    return out


def docs_of_tree(files: dict[str, bytes]) -> dict[str, list[tuple]]:
    """The same, from a fresh ``docs`` parse of a tree's documentation files."""
    from mnemosyne.search.doc_store import default_token_counter
    from mnemosyne.search.docs import is_doc_path, parse_document

    out: dict[str, list[tuple]] = {}
    nxt = []
    for path in sorted(p for p in files if is_doc_path(p)):
        blocks = [(b.key(path), b.heading, b.text) for b in parse_document(path, files[path], default_token_counter()).blocks]
        if blocks:
            out[path] = blocks
        nxt += [(path, a[0], b[0]) for a, b in itertools.pairwise(blocks)]
    out["<next>"] = sorted(nxt)
    return out


def assert_docs_invariant(graph, repo_path: Path, rev: str = "main", seqs: list[int] | None = None) -> int:
    """For every timeline commit (or those at ``seqs``): the Section versions holding there equal
    a fresh ``docs`` parse of that commit's tree. Returns #checked."""
    checked = 0
    with GitRepo(repo_path) as r:
        for seq, h in enumerate(r.timeline_hashes(r.rev_parse(rev))):
            if seqs is not None and seq not in seqs:
                continue
            entries, _ = r.ls_tree(h)
            files = {e.path: r.read_blob(e.blob) for e in entries if e.path.endswith((".md", ".rst", ".markdown", ".mdx"))}
            want, got = docs_of_tree(files), docs_at(graph, seq)
            assert got == want, f"documentation differs at seq {seq} ({h[:12]}): graph {got} != fresh parse {want}"
            checked += 1
    return checked
