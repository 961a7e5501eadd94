"""`diff` lists a module or class as changed in body only when its own code changed (imports,
module-level statements, class attributes, the class's decorators or docstring), not when only a
method or function in it did: on structlog 24.1 -> 24.4, 35 of 94 changed symbols were modules and
classes whose only change was inside their members."""

from __future__ import annotations

from mnemosyne import query as Q
from mnemosyne.ingest import ingest_workspace

PY = '''\
import os


class Store:
    """Keeps things."""

    limit = 10

    def get(self, key):
        return os.environ.get(key)

    def put(self, key, value):
        return None


def helper():
    return Store().get("HOME")
'''

TS = '''\
import { join } from "path";

export class Store {
  limit = 10;

  get(key: string): string {
    return join(key, "a");
  }
}

export function helper(): string {
  return new Store().get("HOME");
}
'''


def _changed(db, name: str, a: str, b: str) -> dict[str, list[str]]:
    return {s.fqn: s.changes for s in Q.diff_commits(db, name, a, b).symbols_changed}


def test_a_member_edit_leaves_its_class_and_module_unchanged(db, make_repo, ws):
    repo = make_repo()
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/store.py", PY)
    repo.write("web/store.ts", TS)
    c0 = repo.commit("first")
    # only members' bodies change, a method and a function are added (with their blank lines)
    repo.write("pkg/store.py", PY.replace("return None", "return key")
               + "\n\ndef extra():\n    return helper()\n")
    repo.write("web/store.ts", TS.replace('join(key, "a")', 'join(key, "b")').replace(
        "  limit = 10;\n", "  limit = 10;\n\n  size(): number {\n    return 1;\n  }\n"))
    c1 = repo.commit("members only")
    # the class's own code changes (an attribute), and the module's (an import)
    repo.write("pkg/store.py", PY.replace("limit = 10", "limit = 20").replace("import os", "import os\nimport sys"))
    repo.write("web/store.ts", TS.replace("limit = 10", "limit = 20"))
    c2 = repo.commit("own code")
    info = ws(repo.path)
    ingest_workspace(db, info)

    first = _changed(db, info.name, c0, c1)
    assert first == {"pkg.store.Store.put": ["body"], "web/store.Store.get": ["body"]}
    second = _changed(db, info.name, c1, c2)
    assert second["pkg.store.Store"] == ["body"] and second["pkg.store"] == ["body"]
    assert second["web/store.Store"] == ["body"]
    assert "web/store" not in second  # its own lines (the import, the class header) are the same
    assert second["pkg.store.Store.put"] == ["body"] and "pkg.store.Store.get" not in second

