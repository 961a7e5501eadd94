"""Resolution on two cores (resolve/forked.py): a forked copy of the index resolves a share of a
batch; the facts, and what each resolution read (which later commits prune on), are exactly the
serial ones, and a child that dies or hangs costs time, never facts."""

from __future__ import annotations

import logging
import os
import signal
import time

import pytest

import mnemosyne.resolve.forked as forked
from mnemosyne.extract import Extractor, default_indexes, extract_tree, real_index
from mnemosyne.resolve.python import PythonIndex

from .test_parse_pool import _tree


@pytest.fixture
def always_fork(monkeypatch):
    """Small test trees are far below the batch size that is worth a fork in real use."""
    monkeypatch.setattr(forked, "MIN_FORK_SECONDS", 0.0)


def _py_tree() -> dict[str, bytes]:
    return {p: d for p, d in _tree().items() if p.endswith(".py")}


def _state(ex: Extractor) -> tuple:
    ix = ex.indexes[0]
    snap = ex.snapshot()
    return snap.files, sorted(snap.warnings), ix._book.state()  # reads, search answers, reverse dependencies


def test_split_by_cost_balances_the_two_shares():
    mine, theirs = forked.split_by_cost({"a": 5.0, "b": 3.0, "c": 2.0, "d": 1.0, "e": 1.0}, slowdown=1.0)
    assert sorted(mine + theirs) == ["a", "b", "c", "d", "e"]
    assert "a" in mine and {"b", "c"} <= set(theirs)
    assert abs(sum({"a": 5, "b": 3, "c": 2, "d": 1, "e": 1}[p] for p in mine) - 6) <= 1


@pytest.mark.slow
def test_forked_resolution_equals_serial(always_fork):
    files = _py_tree()
    serial = Extractor(indexes=[PythonIndex()])
    serial.update(files)
    par = Extractor(indexes=[PythonIndex()], resolve_workers=2)
    par.update(files)
    assert forked.resolve_on_two_cores(par.indexes[0], sorted(files)) > 0, "no file was resolved by the child"
    assert _state(par) == _state(serial)
    # the next commit prunes on what the adopted resolutions read: same affected files, same facts
    edit = {"pkg/m3.py": files["pkg/m3.py"].replace(b"helper(x)", b"helper(x) * 2"),
            "pkg/m7.py": files["pkg/m7.py"].replace(b"class C7(m8.C8)", b"class C7")}
    affected = par.update(edit)
    assert affected == serial.update(edit) and len(affected) > 2
    assert forked.resolve_on_two_cores(par.indexes[0], sorted(affected)) > 0
    assert _state(par) == _state(serial)


@pytest.mark.slow
def test_extract_tree_with_two_workers_resolves_on_two_cores(always_fork, caplog):
    files = _tree()
    with caplog.at_level(logging.DEBUG, logger="mnemosyne.resolve.forked"):
        want = extract_tree(files.items(), resolve_workers=1)
        assert "on a second process" not in caplog.text  # one core means one core
        got = extract_tree(files.items(), parse_workers=2, resolve_workers=2)
    assert "on a second process" in caplog.text
    assert got.files == want.files and sorted(got.warnings) == sorted(want.warnings)


def test_resolve_workers_default_follows_the_cores(monkeypatch):
    """A daemon resolves its rare big batches on two cores by default: the child exists only
    while such a batch is resolved."""
    from mnemosyne.config import Settings

    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert Settings().resolve_workers == 2
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert Settings().resolve_workers == 1
    monkeypatch.setenv("MNEMOSYNE_RESOLVE_WORKERS", "1")
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert Settings().resolve_workers == 1


class _DyingIndex(PythonIndex):
    """Its forked copy is killed while resolving (the OOM killer, a segfault in a parser)."""

    def export_facts(self, path: str) -> tuple | None:
        os.kill(os.getpid(), signal.SIGKILL)
        return None


class _HangingIndex(PythonIndex):
    """Its forked copy never answers (a deadlock on a lock some thread held at fork time)."""

    def export_facts(self, path: str) -> tuple | None:
        time.sleep(600)
        return None


@pytest.mark.slow
@pytest.mark.parametrize("cls", [_DyingIndex, _HangingIndex])
def test_a_child_that_dies_or_hangs_loses_nothing(always_fork, monkeypatch, caplog, cls):
    monkeypatch.setattr(forked, "CHILD_SLACK_SECONDS", 2.0)
    files = _py_tree()
    serial = Extractor(indexes=[PythonIndex()])
    serial.update(files)
    ex = Extractor(indexes=[cls()], resolve_workers=2)
    ex.update(files)
    t = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="mnemosyne.resolve.forked"):
        assert forked.resolve_on_two_cores(ex.indexes[0], sorted(files)) == 0
    assert time.monotonic() - t < 30
    assert "resolving its" in caplog.text and "in-process" in caplog.text
    assert _state(ex) == _state(serial)


@pytest.mark.slow
def test_ingest_with_forked_resolution_keeps_the_invariant(always_fork, settings, tmp_path, caplog):
    """History ingestion (read-ahead and write-behind threads running while it forks) writes the
    graph of a serial run."""
    from mnemosyne.ingest import ingest_workspace
    from mnemosyne.samples import build_sample_repo
    from mnemosyne.store.connection import connect
    from mnemosyne.workspaces import add_workspace
    from tests.history.conftest import assert_invariant, canonical_dump

    sample = build_sample_repo("python_shop", tmp_path / "shop")
    dumps = []
    for workers in (1, 2):
        with connect(settings.model_copy(update={"parse_workers": workers, "resolve_workers": workers})) as db:
            info = add_workspace(db.registry, f"fork_{workers}", sample.path, branch=sample.branch)
            try:
                with caplog.at_level(logging.DEBUG, logger="mnemosyne.resolve.forked"):
                    ingest_workspace(db, info)
                g = db.graph(info.name)
                if workers > 1:
                    assert "on a second process" in caplog.text
                    assert_invariant(g, sample.path, sample.branch)
                dumps.append([x for x in canonical_dump(g, ("ingested_at", "updated_at")) if "Workspace" not in x])
            finally:
                db.registry.remove(info.name, drop_graph=True)
    assert dumps[0] == dumps[1]


def test_default_indexes_can_fork():
    assert any(hasattr(real_index(ix), "export_facts") for ix in default_indexes())


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/oom_score_adj"), reason="Linux only")
def test_the_child_is_the_one_the_kernel_kills_first(always_fork, tmp_path):
    """Short of memory, losing the child costs time; losing the parent (a daemon) costs more."""
    seen = tmp_path / "oom"

    class _Probe(PythonIndex):
        def export_facts(self, path: str) -> tuple | None:
            seen.write_text(open("/proc/self/oom_score_adj").read().strip())
            return super().export_facts(path)

    ex = Extractor(indexes=[_Probe()], resolve_workers=2)
    files = _py_tree()
    ex.update(files)
    assert forked.resolve_on_two_cores(ex.indexes[0], sorted(files)) > 0
    assert seen.read_text() == "1000"
