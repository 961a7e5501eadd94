"""Identity across time on real git histories: renames and moves recorded by ingestion
(RENAMED_TO), formatting-only edits (REFORMATS), and ``history`` following them back."""

from __future__ import annotations

import pytest

from mnemosyne import query as Q
from mnemosyne.ingest import ingest_workspace

from .conftest import assert_invariant

HELPER = '''\
def parse_header(line):
    """Split one header line."""
    key, _, value = line.partition(":")
    key = key.strip().lower()
    if not key:
        raise ValueError("empty header name")
    return key, value.strip()
'''

SHAPES = '''\
class Shape:
    def __init__(self, sides):
        self.sides = sides
        self.name = "shape"

    def area(self):
        total = 0
        for side in self.sides:
            total += side * side
        return total / len(self.sides)

    def describe(self):
        return f"{self.name} with {len(self.sides)} sides and area {self.area()}"
'''

LOADER = '''\
def _load_rows(path, sep=","):
    rows = []
    with open(path) as fh:
        for line in fh:
            if line.strip():
                rows.append([c.strip() for c in line.split(sep)])
    return rows
'''


def _renamed_history(repo) -> dict[str, str]:
    hs: dict[str, str] = {}
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/helpers.py", HELPER)
    repo.write("pkg/main.py", "from pkg.helpers import parse_header\n\n\ndef run(lines):\n"
                              "    return [parse_header(x) for x in lines]\n")
    repo.write("pkg/shapes.py", SHAPES)
    repo.write("pkg/io.py", LOADER)
    hs["intro"] = repo.commit("introduce")
    repo.write("pkg/helpers.py", HELPER.replace("empty header name", "empty header"))
    hs["edit"] = repo.commit("edit the helper")
    # the helper module merged into its user: a move across files
    repo.rm("pkg/helpers.py")
    repo.write("pkg/main.py", HELPER.replace("empty header name", "empty header")
               + "\n\ndef run(lines):\n    return [parse_header(x) for x in lines]\n")
    hs["merge"] = repo.commit("merge helpers into main")
    # a class renamed: its methods are carried
    repo.write("pkg/shapes.py", SHAPES.replace("class Shape:", "class Polygon:"))
    hs["class"] = repo.commit("rename Shape to Polygon")
    # a private helper renamed to a public name, with a small edit
    repo.write("pkg/io.py", LOADER.replace("_load_rows", "load_rows").replace("rows.append", "rows.append")
               .replace('sep=","', 'sep=";"'))
    hs["rename"] = repo.commit("make load_rows public")
    # formatting only: re-wrapped, a comment, quote style
    repo.write("pkg/io.py", LOADER.replace("_load_rows", "load_rows").replace('sep=","', 'sep=";"')
               .replace("    rows = []\n", "    rows = []  # the result\n")
               .replace("rows.append([c.strip() for c in line.split(sep)])",
                        "rows.append(\n                    [c.strip() for c in line.split(sep)]\n                )"))
    hs["format"] = repo.commit("reformat")
    return hs


@pytest.fixture
def renamed(db, ws, make_repo):
    repo = make_repo()
    hs = _renamed_history(repo)
    info = ws(repo.path)
    ingest_workspace(db, info)
    return db, info, repo, hs


def _links(g) -> set[tuple]:
    return {tuple(r) for r in g.query(
        "MATCH (a)-[e:RENAMED_TO]->(b) RETURN a.fully_qualified_name, b.fully_qualified_name, e.kind, e.commit")}


def test_renames_and_moves_are_recorded(renamed):
    db, info, repo, hs = renamed
    g = db.graph(info.name)
    links = _links(g)
    assert ("pkg.helpers.parse_header", "pkg.main.parse_header", "move", hs["merge"]) in links
    assert ("pkg.shapes.Shape", "pkg.shapes.Polygon", "rename", hs["class"]) in links
    for m in ("__init__", "area", "describe"):
        assert (f"pkg.shapes.Shape.{m}", f"pkg.shapes.Polygon.{m}", "move", hs["class"]) in links
    assert ("pkg.io._load_rows", "pkg.io.load_rows", "rename", hs["rename"]) in links
    assert len(links) == 6, links  # nothing else is taken for a rename (run, the modules)
    fmt = g.query("MATCH (c:Commit)-[e:REFORMATS]->(s) RETURN c.hash, s.fully_qualified_name, e.seq")
    assert [r[:2] for r in fmt] == [[hs["format"], "pkg.io.load_rows"]]
    assert assert_invariant(g, repo.path) == len(hs)


def _kinds(h) -> list[tuple[str, int]]:
    return [(e.kind, e.seq) for e in h.events if not e.kind.startswith(("calls_", "callers_"))]


def test_history_follows_a_move_across_files(renamed):
    db, info, _repo, _hs = renamed
    h = Q.symbol_history(db, info.name, "pkg.main.parse_header")
    assert _kinds(h) == [("appeared", 0), ("body_changed", 1), ("moved", 2)]
    (moved,) = [e for e in h.events if e.kind == "moved"]
    assert moved.details["from_fqn"] == "pkg.helpers.parse_header" and moved.details["from_file"] == "pkg/helpers.py"
    assert moved.message == "merge helpers into main" and h.exists_at_head
    # the old name's history says where it went
    old = Q.symbol_history(db, info.name, "pkg.helpers.parse_header")
    assert _kinds(old)[-1] == ("moved", 2)
    assert [e for e in old.events if e.kind == "moved"][0].details["to_fqn"] == "pkg.main.parse_header"


def test_history_follows_a_class_rename_to_its_methods(renamed):
    db, info, _repo, _hs = renamed
    h = Q.symbol_history(db, info.name, "pkg.shapes.Polygon.area")
    assert _kinds(h) == [("appeared", 0), ("moved", 3)]
    assert [e for e in h.events if e.kind == "moved"][0].details["from_parent"] == "pkg.shapes.Shape"
    # a call kept across the rename is not lost and gained again
    d = Q.symbol_history(db, info.name, "pkg.shapes.Polygon.describe")
    assert not [e for e in d.events if e.kind.startswith("calls_") and e.seq == 3]
    c = Q.symbol_history(db, info.name, "pkg.shapes.Polygon")
    assert _kinds(c)[:2] == [("appeared", 0), ("renamed", 3)]


def test_history_follows_a_rename_and_labels_formatting(renamed):
    db, info, _repo, _hs = renamed
    h = Q.symbol_history(db, info.name, "pkg.io.load_rows")
    assert _kinds(h) == [("appeared", 0), ("renamed", 4), ("signature_changed", 4), ("body_changed", 4),
                         ("formatting_only", 5)]
    (r,) = [e for e in h.events if e.kind == "renamed"]
    assert r.details["from_fqn"] == "pkg.io._load_rows" and r.details["change"] == "rename"
    assert 0.6 <= r.details["similarity"] < 1.0


def test_a_caller_of_a_renamed_function_keeps_its_call(db, ws, make_repo):
    repo = make_repo()
    repo.write("app.py", LOADER + "\n\ndef main():\n    return _load_rows('x.csv')\n")
    repo.commit("one")
    repo.write("app.py", LOADER.replace("_load_rows", "load_rows") + "\n\ndef main():\n    return load_rows('x.csv')\n")
    repo.commit("two")
    info = ws(repo.path)
    ingest_workspace(db, info)
    h = Q.symbol_history(db, info.name, "app.main")
    assert [(e.kind, e.seq) for e in h.events] == [("appeared", 0), ("calls_gained", 0), ("body_changed", 1)]


SHAPES_TS = '''\
export class Shape {
  constructor(private sides: number[]) {}

  area(): number {
    let total = 0;
    for (const side of this.sides) {
      total += side * side;
    }
    return total / this.sides.length;
  }
}
'''

LOAD_TS = '''\
export const readRows = (text: string, sep = ","): string[][] => {
  const rows: string[][] = [];
  for (const line of text.split("\\\\n")) {
    if (line.trim()) rows.push(line.split(sep).map((c) => c.trim()));
  }
  return rows;
};
'''

UTIL_TS = '''\
export function clamp(value: number, lo: number, hi: number): number {
  if (value < lo) return lo;
  if (value > hi) return hi;
  return Math.round(value * 100) / 100;
}
'''


def test_typescript_renames_moves_and_formatting(db, ws, make_repo):
    repo = make_repo()
    repo.write("src/shapes.ts", SHAPES_TS)
    repo.write("src/load.ts", LOAD_TS)
    repo.write("src/util.ts", UTIL_TS)
    repo.write("src/main.ts", "import { clamp } from './util';\nexport function main() { return clamp(1, 0, 2); }\n")
    repo.commit("introduce")
    repo.write("src/shapes.ts", SHAPES_TS.replace("class Shape", "class Polygon"))
    repo.commit("rename the class")
    repo.write("src/load.ts", LOAD_TS.replace("readRows", "parseRows").replace("c.trim()", "c.trim().toLowerCase()"))
    repo.commit("rename the const")
    repo.rm("src/util.ts")
    repo.write("src/main.ts", UTIL_TS + "export function main() { return clamp(1, 0, 2); }\n")
    repo.commit("inline util")
    repo.write("src/load.ts", LOAD_TS.replace("readRows", "parseRows").replace("c.trim()", "c.trim().toLowerCase()")
               .replace('sep = ","', "sep = ','").replace("  return rows;", "  // done\n  return rows")
               .replace("rows.push(line.split(sep).map((c) => c.trim().toLowerCase()));",
                        "rows.push(\n        line.split(sep).map((c) => c.trim().toLowerCase()),\n      );"))
    repo.commit("prettier")
    info = ws(repo.path)
    ingest_workspace(db, info)
    g = db.graph(info.name)
    links = {(a, b, k) for a, b, k, _c in _links(g)}
    assert links == {("src/shapes.Shape", "src/shapes.Polygon", "rename"),
                     ("src/shapes.Shape.constructor", "src/shapes.Polygon.constructor", "move"),
                     ("src/shapes.Shape.area", "src/shapes.Polygon.area", "move"),
                     ("src/load.readRows", "src/load.parseRows", "rename"),
                     ("src/util.clamp", "src/main.clamp", "move")}, links
    h = Q.symbol_history(db, info.name, "src/load.parseRows")
    assert _kinds(h) == [("appeared", 0), ("renamed", 2), ("body_changed", 2), ("formatting_only", 4)]
    assert _kinds(Q.symbol_history(db, info.name, "src/shapes.Polygon.area")) == [("appeared", 0), ("moved", 1)]
    assert _kinds(Q.symbol_history(db, info.name, "src/main.clamp")) == [("appeared", 0), ("moved", 3)]
    assert assert_invariant(g, repo.path) == 5


def test_diff_reports_renames_and_moves(renamed):
    db, info, _repo, hs = renamed
    d = Q.diff_commits(db, info.name, hs["intro"], hs["format"])
    got = {(r.old_fqn, r.fqn, r.change) for r in d.symbols_renamed}
    assert ("pkg.helpers.parse_header", "pkg.main.parse_header", "move") in got
    assert ("pkg.shapes.Shape", "pkg.shapes.Polygon", "rename") in got
    assert ("pkg.shapes.Shape.area", "pkg.shapes.Polygon.area", "move") in got
    assert ("pkg.io._load_rows", "pkg.io.load_rows", "rename") in got
    gone = {s.fqn for s in d.symbols_removed} | {s.fqn for s in d.symbols_added}
    assert not gone & ({o for o, _, _ in got} | {n for _, n, _ in got})
    (lr,) = [r for r in d.symbols_renamed if r.fqn == "pkg.io.load_rows"]
    assert lr.changes == ["signature", "body"]
    # asked newest first, the links are walked backwards
    back = Q.diff_commits(db, info.name, hs["format"], hs["intro"])
    assert ("pkg.io.load_rows", "pkg.io._load_rows", "rename") in {(r.old_fqn, r.fqn, r.change)
                                                                  for r in back.symbols_renamed}


def test_calls_at_an_old_commit_accept_todays_name(renamed):
    db, info, _repo, hs = renamed
    res = Q.callers(db, info.name, "pkg.main.parse_header", at=hs["intro"])
    assert res.asked_fqn == "pkg.main.parse_header" and res.fqn == "pkg.helpers.parse_header"
    assert [e.caller for e in res.edges] == ["pkg.main.run"]
    area = Q.callers(db, info.name, "pkg.shapes.Polygon.area", at=hs["edit"])
    assert area.fqn == "pkg.shapes.Shape.area" and [e.caller for e in area.edges] == ["pkg.shapes.Shape.describe"]
    tree = Q.call_tree(db, info.name, "pkg.shapes.Polygon.describe", at=hs["intro"])
    assert tree.asked_fqn and tree.root.fqn == "pkg.shapes.Shape.describe"
    assert "pkg.shapes.Shape.area" in {c.fqn for c in tree.root.children}
    # at the head, today's name is itself
    assert Q.callers(db, info.name, "pkg.main.parse_header").asked_fqn is None


def test_impact_at_an_old_commit_accepts_todays_name(renamed):
    db, info, _repo, hs = renamed
    res = Q.impact(db, info.name, fqns=["pkg.shapes.Polygon.area"], at=hs["intro"])
    assert res.names_then == {"pkg.shapes.Polygon.area": "pkg.shapes.Shape.area"} and not res.missing
    assert [i.name for i in res.levels[0].items] == ["pkg.shapes.Shape.describe"]



def test_a_class_whose_methods_are_only_reformatted_is_reformatted(db, ws, make_repo):
    repo = make_repo()
    repo.write("shapes.py", SHAPES)
    repo.commit("one")
    repo.write("shapes.py", SHAPES.replace("return total / len(self.sides)",
                                           "return total / len(\n            self.sides,\n        )  # the mean")
               .replace('self.name = "shape"', "self.name = 'shape'"))
    repo.commit("reformat")
    repo.write("shapes.py", SHAPES.replace("total += side * side", "total += side ** 2")
               .replace('self.name = "shape"', "self.name = 'shape'"))
    repo.commit("change the code")
    info = ws(repo.path)
    ingest_workspace(db, info)
    fmt = {tuple(r) for r in db.graph(info.name).query(
        "MATCH (c:Commit)-[e:REFORMATS]->(s) RETURN s.fully_qualified_name, e.seq")}
    assert fmt == {("shapes.Shape", 1), ("shapes.Shape.area", 1), ("shapes.Shape.__init__", 1)}
    assert _kinds(Q.symbol_history(db, info.name, "shapes.Shape")) == [
        ("appeared", 0), ("formatting_only", 1), ("body_changed", 2)]
    # diff says so too: across the reformat alone "formatting", across a code change too "body"
    one = Q.diff_commits(db, info.name, "HEAD~2", "HEAD~1")
    changed = {c.fqn: c.changes for c in one.symbols_changed}
    assert changed["shapes.Shape.area"] == ["formatting"]
    assert "shapes.Shape" not in changed  # only its methods changed: its own lines are the same
    both = {c.fqn: c.changes for c in Q.diff_commits(db, info.name, "HEAD~2", "HEAD").symbols_changed}
    assert both["shapes.Shape.area"] == ["body"] and both["shapes.Shape.__init__"] == ["formatting"]
    back = {c.fqn: c.changes for c in Q.diff_commits(db, info.name, "HEAD~1", "HEAD~2").symbols_changed}
    assert back["shapes.Shape.area"] == ["formatting"]


def test_a_superseded_commits_renames_are_not_believed(db, ws, make_repo):
    repo = make_repo()
    repo.write("io.py", LOADER)
    base = repo.commit("one")
    repo.write("io.py", LOADER.replace("_load_rows", "load_rows"))
    repo.commit("rename")
    info = ws(repo.path)
    ingest_workspace(db, info)
    assert _kinds(Q.symbol_history(db, info.name, "io.load_rows")) == [("appeared", 0), ("renamed", 1)]
    import time

    before_rewrite = int(time.time())
    time.sleep(1.1)
    # force-push: the rename is replaced by another commit that adds load_rows beside the old one
    repo.git("reset", "-q", "--hard", base)
    repo.write("io.py", LOADER + "\n\n" + LOADER.replace("_load_rows", "load_rows"))
    repo.commit("copy")
    ingest_workspace(db, info.name)
    g = db.graph(info.name)
    assert g.query("MATCH ()-[e:RENAMED_TO]->() RETURN count(e)") == [[1]]  # kept, not believed
    assert _kinds(Q.symbol_history(db, info.name, "io.load_rows")) == [("appeared", 1)]
    # as believed before the rewrite, it was a rename
    then = Q.symbol_history(db, info.name, "io.load_rows", as_of_ingest=before_rewrite)
    assert _kinds(then) == [("appeared", 0), ("renamed", 1)]
    assert Q.diff_commits(db, info.name, base, "HEAD").symbols_renamed == []
