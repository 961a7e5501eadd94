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
