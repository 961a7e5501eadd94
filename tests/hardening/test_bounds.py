"""Starvation and bounds (items 5-7): the read-only Cypher row cap, timeout and memory bound hold
whatever the query's text; stored agent strings and list arguments are bounded; workspace names
are bounded (and an over-long one registered earlier can still be found and removed).

Real parts only: the session's embedded FalkorDB, the python_shop sample ingested with the real
ingester, a real MCP client session."""

from __future__ import annotations

import json
import time
import uuid

import anyio
import pytest
from mcp import Client

from mnemosyne import limits as L
from mnemosyne.config import Settings
from mnemosyne.errors import ConfigError
from mnemosyne.store.connection import Database

FQN = "shop.checkout.checkout"


@pytest.fixture(scope="module")
def shop(db: Database):
    from shop_fixture import ingested_python_shop

    with ingested_python_shop(db, "bshop") as s:
        yield s


@pytest.fixture(scope="module")
def server(settings: Settings, shop):
    from mnemosyne.mcp.server import build_server

    srv = build_server(settings)
    yield srv
    srv.mnemosyne_service.close()


def call(server, name: str, **args):
    async def go():
        async with Client(server) as c:
            return await c.call_tool(name, args)

    return anyio.run(go)


def error_text(r) -> str:
    assert r.is_error, "the call should have been refused"
    return r.content[0].text


# --- 6. stored agent strings and list arguments are bounded ------------------------------------------


@pytest.mark.slow
def test_agent_strings_are_bounded(server, shop) -> None:
    big = "x" * 1_000_000
    assert "reason is too long" in error_text(call(server, "add_constraint", target=FQN, type="do_not_modify",
                                                    reason=big, workspace=shop.name))  # fmt: skip
    assert "agent_id is too long" in error_text(call(server, "lock_symbol", fqn=FQN, agent_id="a" * (L.MAX_AGENT_ID + 1),
                                                      workspace=shop.name))  # fmt: skip
    assert "task_id is too long" in error_text(call(server, "lock_symbol", fqn=FQN, agent_id="a", task_id=big,
                                                     workspace=shop.name))  # fmt: skip
    assert "owner is too long" in error_text(call(server, "add_constraint", target=FQN, type="t", reason="r",
                                                   owner=big, workspace=shop.name))  # fmt: skip
    assert "params (as JSON) is too long" in error_text(call(server, "add_constraint", target=FQN, type="t", reason="r",
                                                              params={"k": "v" * L.MAX_PARAMS_JSON}, workspace=shop.name))  # fmt: skip
    # nothing of it was stored
    cons = call(server, "list_constraints", workspace=shop.name).structured_content["constraints"]
    locks = call(server, "list_locks", workspace=shop.name).structured_content["locks"]
    assert cons == [] and locks == []
    # within the limits: stored and shown
    ok = call(server, "add_constraint", target=FQN, type="do_not_modify", reason="r" * L.MAX_REASON, workspace=shop.name)
    assert not ok.is_error, ok.content[0].text
    from mnemosyne.query.coordination import remove_constraint

    remove_constraint(shop.db, shop.name, ok.structured_content["constraint"]["id"])


def test_oversized_strings_stored_earlier_are_cut_on_the_way_out(server, shop) -> None:
    """A 1 MB reason and agent id written before the bounds held do not make others' answers huge."""
    g = shop.db.graph(shop.name)
    big = "y" * 1_000_000
    g.query("MATCH (f:Function {fully_qualified_name: $t}) CREATE (c:Constraint {id: 'con-legacy', type: $b, params: $b, "
            "reason: $b, severity: 'error', owner: $b, created_at: 1.0})-[:APPLIES_TO]->(f) "
            "CREATE (f)-[:IS_LOCKED_BY]->(:Lock {id: 'lock-legacy', lock_type: 'shared', agent_id: $b, task_id: $b, "
            "timestamp: 1.0, expires_at: $exp})", {"t": FQN, "b": big, "exp": time.time() + 600})  # fmt: skip
    try:
        for name, args in (("get_symbol", {"name_or_fqn": FQN}), ("impact", {"target": FQN})):
            r = call(server, name, workspace=shop.name, **args)
            assert not r.is_error, r.content[0].text
            size = len(json.dumps(r.structured_content)) + len(r.content[0].text)
            assert size < 60_000, (name, size)
    finally:
        g.query("MATCH (n) WHERE n.id IN ['con-legacy', 'lock-legacy'] DETACH DELETE n")


def test_list_arguments_are_bounded(server, shop) -> None:
    t0 = time.monotonic()
    r = call(server, "impact", target=[f"shop/f{i}.py" for i in range(100_000)], workspace=shop.name)
    assert "too many items" in error_text(r)
    assert time.monotonic() - t0 < 10  # refused up front (it took 48.6 s to answer before)
    r = call(server, "impact", target=["shop/pricing.py"] * 10, workspace=shop.name)
    assert not r.is_error, r.content[0].text
    long_key = "shop." + "a" * 5000
    assert "too long" in error_text(call(server, "get_symbol", name_or_fqn=long_key, workspace=shop.name))
    assert "too long" in error_text(call(server, "lock_symbol", fqn=long_key, agent_id="a", workspace=shop.name))


# --- 7. workspace names are bounded --------------------------------------------------------------------


def test_long_workspace_name_refused_and_legacy_one_removable(db: Database, tmp_path) -> None:
    from mnemosyne.workspaces import add_workspace

    long_name = "w" * 5000
    with pytest.raises(ConfigError, match=f"at most {L.MAX_WORKSPACE_NAME} characters"):
        add_workspace(db.registry, long_name, tmp_path)
    with pytest.raises(ConfigError, match="at most"):
        db.registry.add(long_name, tmp_path, "main")
    ok_name = "w" * L.MAX_WORKSPACE_NAME  # the longest name allowed is found and removed like any other
    legacy = f"legacy_{uuid.uuid4().hex[:6]}_" + "z" * 5000
    reg = db.registry
    for name in (ok_name, legacy):  # registered as an older version did, without the bound
        reg.graph.query("CREATE (:Workspace {name: $n, path: $p, default_branch: 'main', state: 'registered', "
                        "added_at: 1, updated_at: 1})", {"n": name, "p": str(tmp_path / name[:20])})  # fmt: skip
    try:
        for name in (ok_name, legacy):
            assert reg.find(name) is not None
            assert reg.get(name).name == name
            reg.remove(name, drop_graph=True)
            assert reg.find(name) is None
    finally:
        reg.graph.query("MATCH (w:Workspace) WHERE w.name IN $n DELETE w", {"n": [ok_name, legacy]})


# --- 5. the row cap, timeout and memory bound hold whatever the query's text ----------------------------


@pytest.mark.slow
@pytest.mark.parametrize("cypher", [
    "UNWIND range(1, 1000000) AS x RETURN {a: x}",  # a map in the final RETURN
    "UNWIND range(1, 1000000) AS x RETURN x LIMIT 1000000",  # its own LIMIT
    "UNWIND range(1, 1000000) AS x RETURN x LIMIT $k",
    "UNWIND range(1, 1000000) AS x RETURN x UNION UNWIND range(1, 3) AS x RETURN x",
    "UNWIND range(1, 1000000) AS x RETURN x, {b: x} AS m ORDER BY x DESC LIMIT 999999;",
])  # fmt: skip
def test_row_cap_holds_on_the_server(db: Database, shop, cypher: str) -> None:
    from mnemosyne.store.readonly import run_readonly

    t0 = time.monotonic()
    res = run_readonly(db.graph(shop.name), cypher, {"k": 1_000_000}, timeout_ms=5000, max_rows=50)
    assert res.row_count == 51 and len(res.rows) == 50 and res.truncated  # the server stopped at cap+1
    assert time.monotonic() - t0 < 4
    if "ORDER BY x DESC" in cypher:
        assert res.columns == ["x", "m"] and res.rows[0] == [1_000_000, {"b": 1_000_000}]  # order kept


def test_cypher_that_cannot_be_bounded_is_refused(db: Database, shop) -> None:
    from mnemosyne.errors import ReadOnlyViolation
    from mnemosyne.store.readonly import run_readonly

    g = db.graph(shop.name)
    for cypher, params in (("RETURN size(range(1, 200000000))", {}), ("UNWIND range(1, $n) AS x RETURN count(x)",
                           {"n": 100_000_000}), ("CALL db.labels()", {})):  # fmt: skip
        t0 = time.monotonic()
        with pytest.raises(ReadOnlyViolation):
            run_readonly(g, cypher, params, timeout_ms=5000)
        assert time.monotonic() - t0 < 1
    assert run_readonly(g, "CALL db.labels() YIELD label RETURN label").rows  # the bounded form works


def test_mcp_run_cypher_is_capped(server, shop) -> None:
    t0 = time.monotonic()
    r = call(server, "run_cypher", query="UNWIND range(1, 1000000) AS x RETURN {a: x}", max_rows=100,
             workspace=shop.name)  # fmt: skip
    assert not r.is_error, r.content[0].text
    assert r.structured_content["row_count"] == 100 and r.structured_content["truncated"] is True
    assert time.monotonic() - t0 < 5


@pytest.mark.slow
def test_heavy_cypher_does_not_stall_other_tools(settings: Settings, shop) -> None:
    """Three agents' queries that each run until the timeout and one agent's get_calls, at once on
    one MCP server: the cypher calls queue among themselves (mcp_cypher_slots) and hold one
    FalkorDB thread at most, so get_calls answers at once (before: it waited for a query to time out)."""
    import threading

    from mnemosyne.mcp.server import build_server

    srv = build_server(settings.model_copy(update={"readonly_timeout_ms": 3000}))
    heavy = "UNWIND range(1, 1000000) AS x UNWIND range(1, 1000) AS y RETURN count(*) AS n"
    results: dict[str, object] = {}

    async def one(name: str, tool: str, **args):
        async with Client(srv) as c:
            t0 = time.monotonic()
            r = await c.call_tool(tool, args)
            results[name] = (time.monotonic() - t0, r)

    def run(name: str, tool: str, **args) -> threading.Thread:
        th = threading.Thread(target=lambda: anyio.run(lambda: one(name, tool, **args)))
        th.start()
        return th

    try:
        call(srv, "get_calls", fqn=FQN, workspace=shop.name)  # warm: database open, caches
        threads = [run(f"q{i}", "run_cypher", query=heavy, workspace=shop.name) for i in range(3)]
        time.sleep(0.5)  # the queries are running
        threads.append(run("calls", "get_calls", fqn=FQN, workspace=shop.name))
        for th in threads:
            th.join(60)
    finally:
        srv.mnemosyne_service.close()
    took, r = results["calls"]
    assert not r.is_error and r.structured_content["edges"]
    assert took < 1.5, f"get_calls waited {took:.1f} s behind the agents' queries"
    for i in range(3):
        _, q = results[f"q{i}"]
        assert q.is_error and "timed out" in q.content[0].text
