"""``parse_workers`` > 1: the parse pool gives exactly the facts of serial parsing, uses its
helper processes for big batches, survives a helper being killed, and history ingestion with
parsing ahead writes exactly the graph of a serial run."""

from __future__ import annotations

import os
import signal

import pytest

from mnemosyne.extract import Extractor
from mnemosyne.parse.pool import MIN_POOL_BYTES, MIN_POOL_FILES, ParseJob, parse_job, shared_pool

WORKERS = 2


def _tree(n: int = 64) -> dict[str, bytes]:
    """A Python package and a TypeScript project with cross-file calls, big enough for the pool."""
    files: dict[str, bytes] = {}
    for i in range(n):
        nxt = (i + 1) % n
        body = "\n".join(
            f"def f{i}_{k}(x):\n    '''doc {k}'''\n    return m{nxt}.f{nxt}_{k}(x) + helper(x)\n" for k in range(30)
        )
        files[f"pkg/m{i}.py"] = (
            f"from pkg import m{nxt}\nfrom pkg.util import helper\n\n{body}\n"
            f"class C{i}(m{nxt}.C{nxt}):\n    def run(self):\n        return self.go(f{i}_0(1))\n"
        ).encode()
        ts = "\n".join(f"export function g{i}_{k}(x: number): number {{ return g{nxt}_{k}(x) + 1; }}" for k in range(30))
        files[f"web/src/t{i}.ts"] = f"import {{ {', '.join(f'g{nxt}_{k}' for k in range(30))} }} from './t{nxt}';\n{ts}\n".encode()
    files["pkg/__init__.py"] = b""
    files["pkg/util.py"] = b"def helper(x):\n    return x\n"
    files["pkg/broken.py"] = b"def oops(:\n    pass\n"  # syntax error: a warning, same either way
    files["web/src/App.tsx"] = b"import { g0_0 } from './t0';\nexport const App = () => <div>{g0_0(1)}</div>;\n"
    return files


def _facts(ex: Extractor) -> dict:
    snap = ex.snapshot()
    return {p: f for p, f in snap.files.items()}, sorted(snap.warnings)


def test_tree_is_big_enough_for_the_pool():
    files = _tree()
    assert len(files) >= MIN_POOL_FILES and sum(map(len, files.values())) >= MIN_POOL_BYTES


@pytest.mark.slow
def test_parallel_extraction_equals_serial():
    files = _tree()
    serial = Extractor()
    serial.update(files)
    par = Extractor(parse_workers=WORKERS)
    par.update(files)
    assert _facts(par) == _facts(serial)
    pool = shared_pool(WORKERS)
    assert pool is not None and pool._executor is not None, "the helpers never started"
    # incremental updates after the parallel load agree too
    edit = {"pkg/m3.py": files["pkg/m3.py"].replace(b"helper(x)", b"helper(x) * 2"), "web/src/t5.ts": None}
    assert par.update(edit) == serial.update(edit)
    assert _facts(par) == _facts(serial)


def test_helpers_really_parse():
    """The helper processes (not this one) produce results for a big batch."""
    pool = shared_pool(WORKERS)
    pool.start()
    pids = {p.pid for p in pool._executor._processes.values()}
    assert pids and os.getpid() not in pids
    jobs = [ParseJob("python", p, str(i), d) for i, (p, d) in enumerate(_tree().items()) if p.endswith(".py")]
    out = pool.submit(jobs)
    assert out, "submit queued nothing"
    for fut, chunk in out:
        assert fut.result(timeout=60) == [parse_job(j) for j in chunk]


@pytest.mark.slow
def test_a_killed_helper_loses_nothing():
    """A helper dying mid-batch: that batch is parsed in-process, the facts are the same, and
    the next batch starts fresh helpers."""
    files = _tree()
    want = Extractor()
    want.update(files)
    pool = shared_pool(WORKERS)
    pool.start()
    for p in pool._executor._processes.values():
        os.kill(p.pid, signal.SIGKILL)
    par = Extractor(parse_workers=WORKERS)
    par.update(files)
    assert _facts(par) == _facts(want)
    again = Extractor(parse_workers=WORKERS)
    again.update(files)
    assert _facts(again) == _facts(want)
    assert pool._executor is not None


@pytest.mark.slow
def test_prefetch_results_are_used_only_when_they_match():
    """Parsing ahead for content that is then not what ``update`` gets changes nothing."""
    files = _tree()
    ex = Extractor(parse_workers=WORKERS)
    ex.prefetch(files)
    other = dict(files)
    other["pkg/m1.py"] = b"def only():\n    return 1\n"
    ex.update(other)
    ref = Extractor()
    ref.update(other)
    assert _facts(ex) == _facts(ref)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["python_shop", "ts_notes"])
def test_ingest_with_parsing_ahead_writes_the_serial_graph(settings, tmp_path, name):
    from mnemosyne.ingest import ingest_workspace
    from mnemosyne.samples import build_sample_repo
    from mnemosyne.store.connection import connect
    from mnemosyne.workspaces import add_workspace
    from tests.history.conftest import assert_invariant, canonical_dump

    sample = build_sample_repo(name, tmp_path / name)
    strip = ("ingested_at", "updated_at")
    dumps = []
    for workers in (1, WORKERS):
        with connect(settings.model_copy(update={"parse_workers": workers})) as db:
            info = add_workspace(db.registry, f"pp_{name}_{workers}", sample.path, branch=sample.branch)
            try:
                res = ingest_workspace(db, info)
                assert res.commits_ingested == len(sample.timeline_steps)
                g = db.graph(info.name)
                if workers > 1:
                    assert_invariant(g, sample.path, sample.branch)
                dumps.append([x for x in canonical_dump(g, strip) if "Workspace" not in x])
            finally:
                db.registry.remove(info.name, drop_graph=True)
    assert dumps[0] == dumps[1]


@pytest.mark.slow
def test_helpers_with_other_parser_code_are_not_used(monkeypatch, caplog):
    """Helpers import the parser code on disk when they start; if it is not the code this process
    runs (an upgrade in place under a running daemon), the pool refuses them and the batch is
    parsed here, with a warning."""
    import mnemosyne.parse.pool as pool_mod

    files = _tree()
    want = Extractor()
    want.update(files)
    monkeypatch.setattr(pool_mod, "_STAMP", "code-this-process-imported-before-an-upgrade")
    pool = pool_mod.ParsePool(WORKERS)
    try:
        jobs = [ParseJob("python" if p.endswith(".py") else "typescript", p, str(i), d) for i, (p, d) in enumerate(files.items())]
        assert sum(len(j.data) for j in jobs) >= MIN_POOL_BYTES
        with caplog.at_level("WARNING", logger="mnemosyne.parse.pool"):
            got = dict((j.path, r) for j, r in pool.parse(jobs))
        assert got == {j.path: parse_job(j) for j in jobs}
        assert pool._executor is None
        assert any("differs from the code this process runs" in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
    finally:
        pool.close()
