"""CLI: `mnemosyne demo`: build the python_shop sample repository, ingest its history and answer
two historical questions from its known facts (sample_repos/python_shop/facts.json).

By default everything happens in a temporary home with its own embedded FalkorDB, removed at the
end; `--keep` uses your database instead and leaves the workspace `demo-python_shop` there.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="build a sample repo, ingest it and answer historical questions",
                       description=__doc__.split("\n\n", 1)[1] if __doc__ else None)
    p.add_argument("--keep", action="store_true",
                   help="use your database (MNEMOSYNE_HOME) and keep the demo workspace registered")
    p.set_defaults(func=run)


def _say(text: str = "") -> None:
    print(text)
    sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    from mnemosyne.config import Settings, get_settings
    from mnemosyne.samples import build_sample_repo

    tmp = Path(tempfile.mkdtemp(prefix="mnemo-demo-", dir="/tmp"))
    server = None
    try:
        sample = build_sample_repo("python_shop", tmp / "python_shop")
        _say(f"Built the sample repository python_shop ({len(sample.commits)} commits) in {sample.path}")
        if args.keep:
            settings = get_settings()
        else:
            from mnemosyne.store.embedded import EmbeddedFalkorDB

            settings = Settings(home=tmp / "home", falkordb_url=None, falkordb_socket=tmp / "db.sock")
            server = EmbeddedFalkorDB(settings)
            server.start()
        from mnemosyne.store.connection import connect

        with connect(settings) as db:
            return _demo(db, sample, keep=args.keep)
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def _demo(db, sample, keep: bool) -> int:
    from mnemosyne import vocabulary as V
    from mnemosyne.ingest import ingest_workspace
    from mnemosyne.temporal import believed, is_open
    from mnemosyne.timeline.read import calls_at, commit_seq

    name = "demo-python_shop"
    if db.registry.find(name) is not None:
        db.registry.remove(name, drop_graph=True)
    info = db.registry.add(name, sample.path, branch="main")
    t = time.monotonic()
    res = ingest_workspace(db, info)
    _say(f"Ingested {res.commits_ingested} timeline commits (first-parent history of main) "
         f"in {time.monotonic() - t:.2f}s, {res.files_parsed} files parsed.")
    g = db.graph(name)
    facts = sample.facts

    def at(step: int) -> tuple[str, int]:
        h = sample.hash_at(step)
        seq = commit_seq(g, h)
        assert seq is not None, f"step {step} is not on the timeline"
        return h, seq

    def msg(step: int) -> str:
        return facts.get("messages", {}).get(str(step), "").splitlines()[0]

    # 1. what did a function call early on vs at HEAD
    removed = facts["calls_removed"][0]
    caller = removed["caller"]
    early_step = removed["present_at_step"]
    head_step = sample.timeline_steps[-1]
    _say()
    _say(f"Q1. What did {caller} call at an early commit, and what does it call at HEAD?")
    for step in (early_step, head_step):
        h, seq = at(step)
        callees = sorted({c[1] for c in calls_at(g, seq) if c[0] == caller})
        label = "HEAD " if step == head_step else "early"
        _say(f"  {label} {h[:10]} (seq {seq}, \"{msg(step)}\"):")
        for c in callees:
            _say(f"      -> {c}")
    gone = removed["callee"]
    rows = g.query(
        f"MATCH (:{V.FUNCTION} {{fully_qualified_name: $a}})-[e:{V.CALLS}]->(:{V.FUNCTION} {{fully_qualified_name: $b}}) "
        f"WHERE {believed('e')} AND NOT {is_open('e')} "
        f"MATCH (c:{V.COMMIT} {{hash: e.ended_commit}}) RETURN c.hash, c.seq, c.message ORDER BY e.valid_to_seq",
        {"a": caller, "b": gone},
    )
    if rows:
        h, seq, m = rows[-1]
        _say(f"  The call to {gone} ended at {h[:10]} (seq {seq}): \"{m.splitlines()[0]}\"")

    # 2. when was a dependency introduced (and removed)
    dep = facts["dependencies"][0]
    key = f"{dep['ecosystem']}:{dep['name']}"
    _say()
    _say(f"Q2. When did the project start depending on {dep['name']} ({dep['ecosystem']}), and what happened after?")
    rows = g.query(
        f"MATCH (p:{V.PACKAGE})-[e:{V.DEPENDS_ON}]->(:{V.THIRD_PARTY_PACKAGE} {{key: $k}}) WHERE {believed('e')} "
        f"MATCH (c:{V.COMMIT} {{hash: e.source_commit}}) "
        f"OPTIONAL MATCH (x:{V.COMMIT} {{hash: e.ended_commit}}) "
        "RETURN e.valid_from_seq, c.hash, c.message, e.spec, e.source, x.seq, x.hash, x.message "
        "ORDER BY e.valid_from_seq, e.source",
        {"k": key},
    )
    if not rows:
        _say("  (no dependency versions found)")
        return 1
    first = rows[0]
    _say(f"  Introduced at {first[1][:10]} (seq {first[0]}): \"{first[2].splitlines()[0]}\"")
    for vfs, _h, _m, spec, source, to_seq, to_h, _to_m in rows:
        until = f"until seq {to_seq} ({to_h[:10]})" if to_seq is not None else "still holds"
        _say(f"    {source or '?'}: {dep['name']}{spec or ''}  from seq {vfs} {until}")
    last_end = [r for r in rows if r[5] is not None]
    if last_end and all(r[5] is not None for r in rows):
        r = max(last_end, key=lambda r: r[5])
        _say(f"  Dropped at {r[6][:10]} (seq {r[5]}): \"{r[7].splitlines()[0]}\"")
    _say()
    if keep:
        _say(f"Kept as workspace {name!r}: try `mnemosyne calls {caller} --workspace {name} --at HEAD~10`")
    else:
        db.registry.remove(name, drop_graph=True)
    return 0
