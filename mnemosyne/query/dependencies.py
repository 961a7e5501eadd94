"""The history of third-party packages (``dependency_history``): when each was declared (with which
spec) and which versions were locked, changed and removed; ``normalize_package`` (PEP 503 names).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING

from mnemosyne.query.core import first_line, ingested_head, records, workspace_info
from mnemosyne.query.models import DependencyEvent, DependencyHistoryResult, DependencyState
from mnemosyne.query.reading import commit_map
from mnemosyne.store.rows import Record

if TYPE_CHECKING:
    from mnemosyne.store.connection import Database
    from mnemosyne.store.handles import WorkspaceRef


def normalize_package(name: str) -> str:
    """PEP 503 name normalisation (``Foo_Bar.baz`` -> ``foo-bar-baz``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def dependency_history(db: Database, ws: WorkspaceRef | None, package: str | None = None) -> DependencyHistoryResult:
    """When third-party packages were declared (and with which spec) and which versions were
    locked, changed and removed, oldest first; ``package`` narrows it to one package."""
    info = workspace_info(db, ws)
    g = db.graph(info.name)
    ingested_head(g, info)
    rows = records(g, "dependency_history", package=package or "")
    if package and not rows:
        norm = normalize_package(package)
        if norm != package:
            rows = records(g, "dependency_history", package=norm)
    groups: dict[tuple, list[Record]] = defaultdict(list)
    for r in rows:
        # one line of history per declaring manifest/lockfile (``source``): the same package may be
        # declared in pyproject.toml and requirements.txt at once, with different specs
        groups[(r.relation, r.package or "", r.ecosystem, r.name, r.source or "")].append(r)
    raw: list[dict] = []
    current: list[DependencyState] = []
    for (relation, pkg, eco, name, _source), versions in groups.items():
        versions.sort(key=lambda r: (r.from_seq, r.to_seq is None, r.to_seq or 0))
        prev = None
        for r in versions:
            f = r.from_seq
            base = {"relation": relation, "name": name, "ecosystem": eco, "package": pkg, "source": r.source,
                    "spec": r.spec, "scope": r.scope, "version": r.version}  # fmt: skip
            if prev is not None and (prev.to_seq is None or prev.to_seq >= f):
                if relation == "locks" and prev.version != r.version:
                    raw.append({**base, "kind": "version_changed", "seq": f, "old_version": prev.version})
                elif relation == "depends" and (prev.spec != r.spec or prev.scope != r.scope):
                    raw.append({**base, "kind": "spec_changed", "seq": f, "old_spec": prev.spec})
            else:
                if prev is not None:
                    raw.append({**_dep_base(prev, relation, pkg, eco, name), "kind": "removed", "seq": prev.to_seq})
                raw.append({**base, "kind": "added", "seq": f})
            prev = r
        if prev is not None:
            if prev.to_seq is not None:
                raw.append({**_dep_base(prev, relation, pkg, eco, name), "kind": "removed", "seq": prev.to_seq})
            else:
                current.append(DependencyState(name=name, ecosystem=eco, package=pkg, spec=prev.spec, scope=prev.scope,
                                               version=prev.version, source=prev.source))  # fmt: skip
    commits = commit_map(g, (e["seq"] for e in raw))
    events = []
    order = {"removed": 0, "added": 1, "spec_changed": 2, "version_changed": 3}
    for e in sorted(raw, key=lambda e: (e["seq"], e["name"], e["relation"], order[e["kind"]], e["package"])):
        c = commits.get(int(e["seq"]))
        events.append(DependencyEvent(**e, commit=c.hash if c else None, timestamp=c.timestamp if c else None,
                                      author=c.author if c else None, message=first_line(c.message) if c else None))  # fmt: skip
    current.sort(key=lambda s: (s.name, s.package, s.source or "", s.version or ""))
    return DependencyHistoryResult(workspace=info.name, package=package, events=events, current=current)


def _dep_base(r: Record, relation: str, pkg: str, eco: str, name: str) -> dict:
    return {"relation": relation, "name": name, "ecosystem": eco, "package": pkg, "source": r.source,
            "spec": r.spec, "scope": r.scope, "version": r.version}  # fmt: skip


