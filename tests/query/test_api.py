"""The read API (mnemosyne.query) on the python_shop sample, ingested for real; expectations come
from sample_repos/python_shop/facts.json."""

from __future__ import annotations

import pytest

from mnemosyne import query as Q
from mnemosyne.errors import ConfigError, RevisionNotFound, SymbolNotFound, WorkspaceNotFound
from mnemosyne.samples import BASE_EPOCH, STEP_SECONDS


def callees(res: Q.CallsResult) -> set[str]:
    return {e.callee for e in res.edges}


def callers_of(res: Q.CallsResult) -> set[str]:
    return {e.caller for e in res.edges}


# --- at / as of --------------------------------------------------------------------------------


def test_resolve_at_head_and_revisions(shop):
    head = Q.resolve_at(shop.db, shop.name)
    assert head.hash == shop.head and head.on_timeline and not head.from_source
    assert head.seq == head.head_seq == len(shop.repo.timeline_steps) - 1 and head.behind_head == 0
    h = shop.step_hash("checkout")
    for rev in (h, h[:8], "HEAD~" + str(head.seq - shop.seq("checkout"))):
        at = Q.resolve_at(shop.db, shop.ws, at=rev)
        assert (at.hash, at.seq, at.on_timeline) == (h, shop.seq("checkout"), True)
        assert at.behind_head == head.seq - shop.seq("checkout")
    branch_tip = Q.resolve_at(shop.db, shop.name, at="feature/bulk-pricing")
    assert branch_tip.hash == shop.step_hash("bulk_tests")
    assert branch_tip.from_source and not branch_tip.on_timeline and branch_tip.seq is None


def test_as_of_time_is_last_timeline_commit_at_or_before(shop):
    step = shop.step("cli")
    committed = BASE_EPOCH + step * STEP_SECONDS
    at = Q.resolve_at(shop.db, shop.name, as_of=committed)
    assert at.hash == shop.step_hash("cli")
    at = Q.resolve_at(shop.db, shop.name, as_of=committed + 3600)  # an hour later, still that commit
    assert at.hash == shop.step_hash("cli")
    at = Q.resolve_at(shop.db, shop.name, as_of=committed - 1)  # a second before: the previous one
    assert at.seq == shop.seq("cli") - 1
    # a feature-branch commit is never an "as of" answer: the branch steps are skipped
    bulk = BASE_EPOCH + shop.step("bulk_pricing") * STEP_SECONDS
    assert Q.resolve_at(shop.db, shop.name, as_of=bulk + 60).hash == shop.step_hash("cli")
    iso = Q.resolve_at(shop.db, shop.name, as_of="2024-01-06T12:00:00Z")
    assert iso.hash == shop.step_hash("notifications")
    with pytest.raises(RevisionNotFound, match="at or before"):
        Q.resolve_at(shop.db, shop.name, as_of="2020-01-01")
    with pytest.raises(ConfigError):
        Q.resolve_at(shop.db, shop.name, as_of="yesterday-ish")


def test_calls_as_of(shop):
    removed = shop.facts["calls_removed"][0]
    before_drop = BASE_EPOCH + shop.step(removed["absent_at_step"]) * STEP_SECONDS - 10
    r = Q.calls(shop.db, shop.name, removed["caller"], as_of=before_drop)
    assert removed["callee"] in callees(r)
    r = Q.calls(shop.db, shop.name, removed["caller"], as_of=before_drop + 20)
    assert removed["callee"] not in callees(r)


# --- calls and callers -------------------------------------------------------------------------


@pytest.mark.parametrize("i", [0, 1])
def test_call_removed_is_present_then_absent(shop, i):
    fact = shop.facts["calls_removed"][i]
    present = shop.step_hash(fact["present_at_step"])
    absent = shop.step_hash(fact["absent_at_step"])
    r = Q.calls(shop.db, shop.name, fact["caller"], at=present)
    assert fact["callee"] in callees(r) and not r.from_source
    edge = next(e for e in r.edges if e.callee == fact["callee"])
    assert edge.resolution and edge.confidence and edge.lines and not edge.external
    assert fact["caller"] in callers_of(Q.callers(shop.db, shop.name, fact["callee"], at=present))
    assert fact["callee"] not in callees(Q.calls(shop.db, shop.name, fact["caller"], at=absent))
    try:  # the callee may be gone at that commit too (then: a SymbolNotFound naming its lifetime)
        assert fact["caller"] not in callers_of(Q.callers(shop.db, shop.name, fact["callee"], at=absent))
    except SymbolNotFound as err:
        assert "was defined at" in str(err)


def test_legacy_discount_call_absent_at_head(shop):
    fact = shop.facts["calls_removed"][0]
    assert fact["callee"] not in callees(Q.calls(shop.db, shop.name, fact["caller"]))
    with pytest.raises(SymbolNotFound, match="not defined at"):
        Q.callers(shop.db, shop.name, fact["callee"])


def test_calls_present_facts(shop):
    for fact in shop.facts["calls_present"]:
        r = Q.calls(shop.db, shop.name, fact["caller"], at=shop.step_hash(fact["at_step"]))
        assert fact["callee"] in callees(r), fact


def test_external_callees_and_their_callers(shop):
    r = Q.calls(shop.db, shop.name, "shop.checkout.checkout")
    ext = {e.callee for e in r.edges if e.external}
    assert "<builtin>.sum" in ext
    assert "shop.checkout.checkout" in callers_of(Q.callers(shop.db, shop.name, "<builtin>.sum"))


def test_merge_makes_branch_calls_true_on_the_timeline(shop):
    fact = shop.facts["calls_added_by_merge"][0]
    on_branch = Q.calls(shop.db, shop.name, fact["caller"], at=shop.step_hash(fact["committed_at_step"]))
    assert on_branch.from_source and on_branch.at.from_source and fact["callee"] in callees(on_branch)
    before_merge = Q.calls(shop.db, shop.name, fact["caller"], at=shop.step_hash("readme"))
    assert not before_merge.from_source and fact["callee"] not in callees(before_merge)
    merged = Q.calls(shop.db, shop.name, fact["caller"], at=shop.step_hash(fact["on_timeline_at_step"]))
    assert not merged.from_source and fact["callee"] in callees(merged)


def test_feature_branch_commit_answered_from_source(shop):
    h = shop.step_hash("bulk_pricing")
    sym = Q.get_symbol(shop.db, shop.name, "shop.pricing.bulk_discount", at=h)
    assert isinstance(sym, Q.SymbolResult) and sym.from_source and sym.at.seq is None
    assert sym.source and sym.source.startswith("def bulk_discount(")
    r = Q.callers(shop.db, shop.name, "shop.pricing.round_money", at=h)
    assert {"shop.pricing.bulk_discount", "shop.pricing.legacy_discount", "shop.pricing.apply_tax"} <= callers_of(r)
    cg = Q.callgraph_at(shop.db, shop.name, at=h)
    assert "shop.pricing.bulk_discount" in cg["shop.checkout.checkout"]
    with pytest.raises(SymbolNotFound):
        Q.calls(shop.db, shop.name, "shop.pricing.no_such_thing", at=h)


def test_call_tree(shop):
    t = Q.call_tree(shop.db, shop.name, "shop.pricing.round_money", direction="callers", depth=3)
    level1 = {c.fqn for c in t.root.children}
    assert {"shop.pricing.apply_tax", "shop.pricing.bulk_discount"} <= level1
    level2 = {g.fqn for c in t.root.children for g in c.children if not g.repeated}
    assert "shop.checkout.checkout" in level2
    down = Q.call_tree(shop.db, shop.name, "shop.cli.main", depth=2)
    checkout = next(c for c in down.root.children if c.fqn == "shop.checkout.checkout")
    assert "shop.pricing.apply_tax" in {c.fqn for c in checkout.children}
    with pytest.raises(ConfigError):
        Q.call_tree(shop.db, shop.name, "shop.cli.main", depth=9)


def test_callers_of_a_class_are_its_constructors(shop):
    """Instantiating a class calls its constructor: asked about the class, calls and callers answer
    for the constructor it declares, and say so; a class declaring none has no edges of its own."""
    cls = "shop.repositories.InMemoryRepository"
    r = Q.callers(shop.db, shop.name, cls)
    assert (r.class_fqn, r.fqn) == (cls, cls + ".__init__")
    assert "shop.cli.demo_repository" in callers_of(r)  # OrderRepository() runs the inherited __init__
    t = Q.call_tree(shop.db, shop.name, cls, direction="callers", depth=2)
    assert t.class_fqn == cls and "shop.cli.demo_repository" in {c.fqn for c in t.root.children}
    bare = Q.callers(shop.db, shop.name, "shop.repositories.OrderRepository")
    assert bare.class_fqn is None and bare.edges == []
    old = "shop.repository.InMemoryRepository"  # off the timeline, answered from the source
    src = Q.callers(shop.db, shop.name, old, at=shop.step_hash("bulk_pricing"))
    assert src.from_source and (src.class_fqn, src.fqn) == (old, old + ".__init__")
    assert "shop.cli.demo_repository" in callers_of(src)
    # the symbol of the class counts its constructor's callers, and names it
    sym = Q.get_symbol(shop.db, shop.name, cls, with_source=False)
    assert isinstance(sym, Q.SymbolResult) and sym.label == "Class"
    assert sym.callers_of == cls + ".__init__" and sym.callers_count == len(r.edges) >= 1
    old_sym = Q.get_symbol(shop.db, shop.name, old, at=shop.step_hash("bulk_pricing"), with_source=False)
    assert isinstance(old_sym, Q.SymbolResult) and old_sym.callers_of == old + ".__init__"
    assert old_sym.callers_count == len(src.edges) >= 1
    bare_sym = Q.get_symbol(shop.db, shop.name, "shop.repositories.OrderRepository", with_source=False)
    assert isinstance(bare_sym, Q.SymbolResult) and bare_sym.callers_of is None and bare_sym.callers_count == 0


# --- symbols -----------------------------------------------------------------------------------


def test_get_symbol_at_commits(shop):
    s = Q.get_symbol(shop.db, shop.name, "shop.checkout.checkout")
    assert isinstance(s, Q.SymbolResult)
    assert (s.kind, s.file, s.label) == ("function", "shop/checkout.py", "Function")
    assert s.signature == "(order: Order) -> int" and s.docstring.startswith("Total to charge")
    assert s.source.startswith("def checkout(order: Order) -> int:") and "legacy_discount" not in s.source
    assert s.callers_count >= 1 and s.callees_count >= 3
    old = Q.get_symbol(shop.db, shop.name, "shop.checkout.checkout", at=shop.step_hash("checkout"))
    assert "legacy_discount" in old.source and old.line_end - old.line_start < s.line_end - s.line_start
    cls = Q.get_symbol(shop.db, shop.name, "OrderRepository")
    assert isinstance(cls, Q.SymbolResult) and cls.fqn == "shop.repositories.OrderRepository" and cls.kind == "class"
    before = Q.get_symbol(shop.db, shop.name, "OrderRepository", at=shop.step_hash("repository"))
    assert before.fqn == "shop.repository.OrderRepository"


def test_short_names_give_candidates(shop):
    c = Q.get_symbol(shop.db, shop.name, "get")
    assert isinstance(c, Q.Candidates)
    assert {x.fqn for x in c.candidates} == {"shop.repositories.BaseRepository.get",
                                            "shop.repositories.InMemoryRepository.get"}
    one = Q.get_symbol(shop.db, shop.name, "InMemoryRepository.get")
    assert isinstance(one, Q.SymbolResult) and "self._data.get" in one.source


def test_unknown_symbol_has_suggestions(shop):
    with pytest.raises(SymbolNotFound) as err:
        Q.calls(shop.db, shop.name, "shop.checkout.chekout")
    assert "shop.checkout.checkout" in err.value.suggestions and "did you mean" in str(err.value)
    with pytest.raises(SymbolNotFound) as err:
        Q.get_symbol(shop.db, shop.name, "format_reciept")
    assert "shop.notifications.format_receipt" in err.value.suggestions
    found = Q.find_symbols(shop.db, shop.name, "compute_retry_delay")
    names = [c.fqn for c in found.candidates]
    assert names[0] == "shop.util.retry.compute_retry_delay" and "shop.retry.compute_retry_delay" in names
    assert found.candidates[0].alive and not found.candidates[names.index("shop.retry.compute_retry_delay")].alive


def test_unknown_commit_and_workspace(shop):
    for rev in ("deadbeefdeadbeef", "no-such-branch", "HEAD~99"):
        with pytest.raises(RevisionNotFound, match="not found"):
            Q.calls(shop.db, shop.name, "shop.checkout.checkout", at=rev)
    with pytest.raises(WorkspaceNotFound):
        Q.calls(shop.db, "no_such_workspace_xyz", "shop.checkout.checkout")


# --- history -----------------------------------------------------------------------------------


def _events(h: Q.HistoryResult, kind: str) -> list[Q.Event]:
    return [e for e in h.events if e.kind == kind]


def test_history_removed_and_readded(shop):
    fact = shop.facts["functions_removed_and_readded"][0]
    h = Q.symbol_history(shop.db, shop.name, fact["fqn"])
    assert h.exists_at_head and h.kind == "function"
    (appeared,) = _events(h, "appeared")
    (removed,) = _events(h, "removed")
    (readded,) = _events(h, "re-added")
    assert appeared.commit == shop.step_hash(fact["present_at_step"])
    assert removed.commit == shop.step_hash(fact["absent_at_step"])
    assert readded.commit == shop.step_hash(fact["readded_at_step"])
    assert appeared.seq < removed.seq < readded.seq
    assert removed.author == "Alice Example" and readded.author == "Bob Builder"
    assert removed.message.startswith("Inline receipt formatting") and removed.timestamp
    lost = _events(h, "callers_lost")
    assert lost and lost[0].seq == removed.seq and "shop.notifications.send_receipt" in lost[0].details["callers"]


def test_history_removed_function(shop):
    fact = shop.facts["functions_removed"][0]
    h = Q.symbol_history(shop.db, shop.name, fact["fqn"])
    assert not h.exists_at_head
    assert [e.kind for e in h.events if e.kind in ("appeared", "removed")] == ["appeared", "removed"]
    assert _events(h, "removed")[0].commit == shop.step_hash(fact["absent_at_step"])


def test_history_calls_gained_lost_and_moves(shop):
    h = Q.symbol_history(shop.db, shop.name, "shop.checkout.checkout")
    gained = {c for e in _events(h, "calls_gained") for c in e.details["callees"]}
    lost = {c for e in _events(h, "calls_lost") for c in e.details["callees"]}
    assert "shop.pricing.bulk_discount" in gained and "shop.pricing.legacy_discount" in lost
    merge = next(e for e in _events(h, "calls_gained") if "shop.pricing.bulk_discount" in e.details["callees"])
    assert merge.commit == shop.step_hash("merge_bulk")
    for ren in shop.facts["renames"]:
        moved = _events(Q.symbol_history(shop.db, shop.name, ren["symbol_after"]), "moved")
        assert moved and moved[0].details["from_fqn"] == ren["symbol_before"], ren
        assert moved[0].details["from_file"] == ren["from"] and moved[0].commit == shop.step_hash(ren["step"])
        old = Q.symbol_history(shop.db, shop.name, ren["symbol_before"])
        assert not old.exists_at_head and _events(old, "moved")[0].details["to_fqn"] == ren["symbol_after"]


def test_history_signature_change(shop):
    h = Q.symbol_history(shop.db, shop.name, "shop.pricing.apply_tax")
    assert not _events(h, "signature_changed")  # unchanged in this history
    assert _events(h, "appeared")[0].details["signature"] == "(cents: int, rate: float = TAX_RATE) -> int"


def test_history_unknown_symbol(shop):
    with pytest.raises(SymbolNotFound) as err:
        Q.symbol_history(shop.db, shop.name, "shop.pricing.legacy_discont")
    assert "shop.pricing.legacy_discount" in err.value.suggestions


# --- diff --------------------------------------------------------------------------------------


def test_diff_between_commits(shop):
    fact = shop.facts["calls_removed"][0]
    d = Q.diff_commits(shop.db, shop.name, shop.step_hash("merge_bulk"), shop.step_hash("drop_legacy"))
    assert not d.from_source
    assert (fact["caller"], fact["callee"]) in {(c.caller, c.callee) for c in d.calls_removed}
    assert "shop.pricing.legacy_discount" in {s.fqn for s in d.symbols_removed}
    changed = {s.fqn: s for s in d.symbols_changed}
    assert "body" in changed["shop.checkout.checkout"].changes
    assert not d.calls_added and not d.symbols_added
    back = Q.diff_commits(shop.db, shop.name, shop.step_hash("drop_legacy"), shop.step_hash("merge_bulk"))
    assert {(c.caller, c.callee) for c in back.calls_added} == {(c.caller, c.callee) for c in d.calls_removed}


def test_diff_dependencies_imports_and_prefix(shop):
    d = Q.diff_commits(shop.db, shop.name, shop.step_hash("drop_format"), shop.step_hash("drop_requests"))
    removed = {(x.relation, x.name, x.spec, x.version) for x in d.dependencies_removed}
    assert ("depends", "requests", ">=2.32", None) in removed and ("locks", "requests", None, "2.32.3") in removed
    assert ("shop/notifications.py", "pypi:requests") in {(i.file, i.target) for i in d.imports_removed}
    assert "shop.notifications.post_json" in {s.fqn for s in d.symbols_added}
    narrow = Q.diff_commits(shop.db, shop.name, shop.step_hash("init"), "HEAD", path_prefix="tests/")
    assert {s.fqn for s in narrow.symbols_added} >= {"tests.test_pricing.test_subtotal"}
    assert all(s.file.startswith("tests/") for s in narrow.symbols_added + narrow.symbols_removed)
    assert not narrow.dependencies_added and all(c.caller.startswith("tests.") for c in narrow.calls_added)


def test_diff_with_a_commit_off_the_timeline(shop):
    d = Q.diff_commits(shop.db, shop.name, shop.step_hash("cli"), "feature/bulk-pricing")
    assert d.from_source
    assert ("shop.checkout.checkout", "shop.pricing.bulk_discount") in {(c.caller, c.callee) for c in d.calls_added}
    assert "tests.test_pricing.test_bulk_discount_tiers" in {s.fqn for s in d.symbols_added}


# --- dependencies and lag ----------------------------------------------------------------------


def test_dependency_history_requests(shop):
    fact = shop.facts["dependencies"][0]
    r = Q.dependency_history(shop.db, shop.name, fact["name"])
    by = {(e.kind, e.relation, e.source): e for e in r.events}
    added = by[("added", "depends", "pyproject.toml")]
    assert added.commit == shop.step_hash(fact["added_at_step"]) and added.spec == ">=2.31"
    bump = by[("spec_changed", "depends", "pyproject.toml")]
    assert (bump.old_spec, bump.spec, bump.commit) == (">=2.31", ">=2.32", shop.step_hash(fact["bumped_at_step"]))
    lock = by[("version_changed", "locks", "uv.lock")]
    assert (lock.old_version, lock.version) == tuple(fact["locked"]["uv.lock"])
    gone = by[("removed", "depends", "pyproject.toml")]
    assert gone.commit == shop.step_hash(fact["removed_at_step"]) and gone.author == "Carol Reviewer"
    assert by[("removed", "locks", "uv.lock")].commit == shop.step_hash(fact["removed_at_step"])
    assert not [s for s in r.current if s.name == "requests"]
    assert Q.dependency_history(shop.db, shop.name, "Requests").events  # PEP 503 normalisation
    everything = Q.dependency_history(shop.db, shop.name)
    assert {"requests", "urllib3", "pytest"} <= {e.name for e in everything.events}
    assert "pytest" in {s.name for s in everything.current}


def test_ingestion_lag(shop):
    every = Q.ingestion_lag(shop.db, shop.name, 0, include_backfill=True)
    assert every.count == len(shop.repo.timeline_steps)  # committed in 2024, ingested now
    assert all(c.lag_s == c.ingested_at - c.timestamp > 0 for c in every.commits)
    assert every.max_lag_s >= every.mean_lag_s > 0
    assert Q.ingestion_lag(shop.db, shop.name, 10**9).count == 0


# --- call graph, impact, status -------------------------------------------------------------------


def test_callgraph_at_matches_a_fresh_parse(shop):
    for rev in (None, shop.step_hash("checkout"), shop.step_hash("drop_config")):
        graph_cg = Q.callgraph_at(shop.db, shop.name, at=rev)
        at = Q.resolve_at(shop.db, shop.name, at=rev)
        snap = Q.snapshot(shop.ws, at.hash)
        fresh: dict[str, set[str]] = {}
        for f in snap.files.values():
            for s in f.symbols:
                if s.kind != "class":
                    fresh.setdefault(s.fqn, set())
            for c in f.calls:
                fresh.setdefault(c.caller, set()).add(c.callee)
        assert graph_cg == {k: sorted(v) for k, v in sorted(fresh.items())}
    head = Q.callgraph_at(shop.db, shop.name)
    assert "shop.pricing.legacy_discount" not in head and "shop.notifications.format_receipt" in head
    assert list(head) == sorted(head) and all(v == sorted(v) for v in head.values())


def test_impact(shop):
    r = Q.impact(shop.db, shop.name, fqns=["shop.pricing.round_money"], depth=3)
    by = {lv.distance: {i.name for i in lv.items} for lv in r.levels}
    assert {"shop.pricing.apply_tax", "shop.pricing.bulk_discount"} <= by[1]
    assert "shop.checkout.checkout" in by[2] and "shop.cli.main" in by[3]
    old = Q.impact(shop.db, shop.name, fqns=["shop.pricing.round_money"], depth=1, at=shop.step_hash("checkout"))
    assert "shop.pricing.legacy_discount" in {i.name for i in old.levels[0].items}
    f = Q.impact(shop.db, shop.name, files=["shop/models.py", "nope.py"], depth=2)
    assert "shop.models.Order.add" in f.targets and f.missing == ["nope.py"]
    level1 = {(i.kind, i.name) for i in f.levels[0].items}
    assert ("file", "shop/checkout.py") in level1 and ("symbol", "shop.cli.demo_repository") in level1


def test_impact_of_a_class_reaches_its_methods_callers_and_its_subclasses(shop):
    """A class stands for its methods (tenacity's wait_base was "nothing depends on it"): their
    callers are at distance 1 with its direct subclasses; a subclass reaches its own subclasses."""
    r = Q.impact(shop.db, shop.name, fqns=["shop.repositories.InMemoryRepository"], depth=2)
    one = {i.name: i.via for i in r.levels[0].items}
    assert one["shop.repositories.OrderRepository"] == ["shop.repositories.InMemoryRepository"]
    assert one["shop.repositories.OrderRepository.save"] == ["shop.repositories.InMemoryRepository.put"]
    assert one["shop.repositories.OrderRepository.find"] == ["shop.repositories.InMemoryRepository.get"]
    assert "shop.repositories.InMemoryRepository.__init__" in one["shop.cli.demo_repository"]
    assert not any(n.startswith("shop.repositories.InMemoryRepository.") for n in one)  # its own methods are it
    assert "shop.cli.main" in {i.name for i in r.levels[1].items}
    base = Q.impact(shop.db, shop.name, fqns=["shop.repositories.BaseRepository"], depth=2)
    by = {lv.distance: {i.name for i in lv.items} for lv in base.levels}
    assert "shop.repositories.InMemoryRepository" in by[1] and "shop.repositories.OrderRepository" in by[2]
    # off the timeline, answered from the source: the same reach
    old = Q.impact(shop.db, shop.name, fqns=["shop.repository.InMemoryRepository"], depth=1,
                   at=shop.step_hash("bulk_pricing"))  # fmt: skip
    assert old.from_source
    names = {i.name for i in old.levels[0].items}
    assert "shop.repository.OrderRepository" in names and "shop.cli.demo_repository" in names


def test_list_workspaces_status(shop):
    st = {s.name: s for s in Q.list_workspaces_status(shop.db)}[shop.name]
    assert st.ingested_commit == shop.head == st.branch_head and st.commits_behind == 0
    assert st.changed_files == [] and st.path_exists


def test_history_of_an_external_callee(shop):
    h = Q.symbol_history(shop.db, shop.name, "<builtin>.sum")
    assert h.kind == "external" and h.exists_at_head
    gained = {c: e.seq for e in _events(h, "callers_gained") for c in e.details["callers"]}
    assert gained["shop.pricing.compute_subtotal"] == 0
    assert gained["shop.checkout.checkout"] == shop.seq("merge_bulk")
    requests_post = Q.symbol_history(shop.db, shop.name, "requests.post")
    assert not requests_post.exists_at_head
    assert _events(requests_post, "callers_lost")[0].commit == shop.step_hash("drop_requests")
