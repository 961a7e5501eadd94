"""The incremental core (``mnemosyne.resolve.incremental``) on its own: name indexes, the reverse
dependency map, recorded reads and recorded search answers, with the rules both language indexes
rely on (the randomised incremental-equals-fresh tests of ``tests/extract_py`` and
``tests/extract_ts`` check them through the indexes)."""

from __future__ import annotations

from collections.abc import Callable

from mnemosyne.facts import FileFacts
from mnemosyne.resolve.incremental import FactBook, NameIndex, RecordedReads, Search, SharedReads

SUB = Search("<sub>")
CALLS_BY_MODULE = Search("<calls>", name_of=lambda key: key[1])


def _facts(path: str, *deps: str) -> FileFacts:
    return FileFacts(path=path, language="python", module=path, content_hash="h", depends_on=frozenset(deps))


def test_name_index_answers_sorted_and_follow_changes() -> None:
    ix = NameIndex()
    ix.add("b.py", {"run", "stop"})
    ix.add("a.py", {"run"})
    assert ix.files("run") == ("a.py", "b.py")
    assert ix.files("missing") == ()
    ix.remove("a.py", {"run"})
    assert ix.files("run") == ("b.py",)
    ix.add("c.py", {"missing"})
    assert ix.files("missing") == ("c.py",)
    ix.remove("b.py", {"run", "stop"})
    assert ix.files("run") == ()


def test_install_drop_and_dependents() -> None:
    book: FactBook[str, frozenset[str]] = FactBook((SUB,))
    book.install("a.py", _facts("a.py", "m", "<sub>Base"), {"m.py": ("v1", frozenset({"k"}))}, {SUB: {"Base": ("x.py",)}})
    book.install("b.py", _facts("b.py", "m"), {}, {SUB: {}})
    assert book.dependents("m") == {"a.py", "b.py"}
    assert book.answers(SUB, "a.py") == {"Base": ("x.py",)}
    assert set(book.reads.of("a.py")) == {"m.py"}
    book.drop("a.py")
    assert book.dependents("m") == {"b.py"}
    assert book.dependents("<sub>Base") == frozenset()
    assert book.answers(SUB, "a.py") == {}
    assert book.reads.of("a.py") == {}
    assert "a.py" not in book.facts
    book.clear()
    assert book.facts == {} and book.dependents("m") == frozenset()


def test_stale_searches_by_name() -> None:
    book: FactBook[str, frozenset[str]] = FactBook((SUB,))
    book.install("a.py", _facts("a.py", "<sub>Base"), {}, {SUB: {"Base": ("x.py",)}})
    book.install("b.py", _facts("b.py", "<sub>Other"), {}, {SUB: {"Other": ("y.py",)}})
    now = {"Base": ("x.py",), "Other": ("y.py", "z.py")}
    affected: set[str] = set()
    book.stale_searches(["Base", "Other", "Unsearched"], SUB, now.__getitem__, affected)
    assert affected == {"b.py"}
    # a dependent with no recorded answer for the name counts as changed (the safe side)
    book.install("c.py", _facts("c.py", "<sub>Base"), {}, {SUB: {}})
    affected = set()
    book.stale_searches(["Base"], SUB, now.__getitem__, affected)
    assert affected == {"c.py"}


def test_stale_searches_keyed_by_more_than_the_name() -> None:
    book: FactBook[str, frozenset[str]] = FactBook((CALLS_BY_MODULE,))
    answers = {("m1", "run"): ("p.py",), ("m2", "run"): ("q.py",), ("m1", "stop"): ("r.py",)}
    book.install("a.py", _facts("a.py", "<calls>run", "<calls>stop"), {}, {CALLS_BY_MODULE: dict(answers)})
    now = dict(answers)
    affected: set[str] = set()
    book.stale_searches(["run", "stop"], CALLS_BY_MODULE, now.__getitem__, affected)
    assert affected == set()
    now[("m2", "run")] = ("q.py", "s.py")
    book.stale_searches(["stop"], CALLS_BY_MODULE, now.__getitem__, affected)
    assert affected == set()  # only searches of the names given are compared
    book.stale_searches(["run"], CALLS_BY_MODULE, now.__getitem__, affected)
    assert affected == {"a.py"}


def _compare_for(old: str, new: str) -> Callable[[str, frozenset[str]], frozenset[str] | None]:
    """Versions are strings of ``key=answer`` words; keys answering the same are rebased as
    ``key@new`` to show the rebase happened."""

    def answers(version: str) -> dict[str, str]:
        return dict(w.split("=") for w in version.split())

    def compare(seen: str, keys: frozenset[str]) -> frozenset[str] | None:
        a, b = answers(seen), answers(new)
        if any(a.get(k.split("@")[0]) != b.get(k.split("@")[0]) for k in keys):
            return None
        return frozenset(k.split("@")[0] + "@" + new for k in keys)

    return compare


def test_stale_readers_prunes_and_rebases() -> None:
    reads: RecordedReads[str, frozenset[str]] = RecordedReads()
    v1 = "f=1 g=1"
    reads.record("a.py", {"m.py": (v1, frozenset({"f"}))})
    reads.record("b.py", {"m.py": (v1, frozenset({"g"}))})
    reads.record("c.py", {"m.py": (v1, frozenset({"g"}))})
    v2 = "f=1 g=2"
    affected = {"c.py"}
    reads.stale_readers({"m.py": v1}, {"m.py": v2}, _compare_for, affected)
    assert affected == {"b.py", "c.py"}
    assert reads.of("a.py") == {"m.py": (v2, frozenset({"f@f=1 g=2"}))}  # rebased onto the new version
    assert reads.of("c.py") == {"m.py": (v1, frozenset({"g"}))}  # already affected: not compared
    # a deleted file (no current version) is the dependency map's business, not the reads'
    affected = set()
    reads.stale_readers({"m.py": v2}, {}, _compare_for, affected)
    assert affected == set()
    reads.drop("a.py")
    reads.stale_readers({"m.py": v2}, {"m.py": "f=9 g=1"}, _compare_for, affected)
    assert affected == set()  # a.py, whose read of f answers differently, was dropped; b.py and c.py read g=1
    reads.stale_readers({"m.py": v2}, {"m.py": "f=9 g=3"}, _compare_for, affected)
    assert affected == {"b.py", "c.py"}


def test_shared_reads_kept_once_for_all_their_users() -> None:
    reads: RecordedReads[str, frozenset[str]] = RecordedReads()
    v1 = "f=1 g=1"
    shared = SharedReads({"m.py": (v1, frozenset({"g"})), "a.py": (v1, frozenset({"f"}))})
    reads.record("a.py", {"m.py": (v1, frozenset({"f"}))}, [shared])
    reads.record("b.py", {}, [shared])
    reads.record("c.py", {"m.py": (v1, frozenset({"f"}))})
    assert shared.users == {"a.py", "b.py"}
    # merged for export and comparison, the reader's own file left out
    assert reads.of("a.py") == {"m.py": (v1, {"f", "g"})}
    assert reads.of("b.py") == {"m.py": (v1, {"g"}), "a.py": (v1, {"f"})}
    affected: set[str] = set()
    v2 = "f=2 g=1"
    reads.stale_readers({"m.py": v1}, {"m.py": v2}, _compare_for, affected)
    assert affected == {"a.py", "c.py"}  # the shared keys answer alike: rebased once, for a.py and b.py
    assert shared.reads["m.py"] == (v2, frozenset({"g@f=2 g=1"}))
    v3 = "f=2 g=3"
    reads.stale_readers({"m.py": v2}, {"m.py": v3}, _compare_for, affected)
    assert affected == {"a.py", "b.py", "c.py"}  # the shared record's g changed: every user
    reads.drop("a.py")
    assert shared.users == {"b.py"} and reads.of("a.py") == {}
    reads.drop("b.py")
    assert shared.users == set() and reads._shared_readers == {}  # forgotten with its last user


def test_book_state_merges_shared_reads() -> None:
    book: FactBook[str, frozenset[str]] = FactBook(())
    shared = SharedReads({"m.py": ("v1", frozenset({"g"}))})
    book.install("a.py", _facts("a.py"), {"n.py": ("v1", frozenset({"h"}))}, {}, [shared])
    book.install("m.py", _facts("m.py"), {}, {}, [shared])
    reads, _answers, _rdeps = book.state()
    assert reads == {"a.py": {"n.py": {"h"}, "m.py": {"g"}}}  # m.py's own file is not a read of its own
