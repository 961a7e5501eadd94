"""LLM enrichment against a local OpenAI-compatible HTTP server started by the test: it speaks the
chat-completions API over real HTTP (through the real ``openai`` client), answers deterministic text
and counts requests, so the cache, the cost cap and the retries are checked by those counts."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from mnemosyne.config import Settings
from mnemosyne.enrich import ENRICH_AGENT, EnrichCache, enrich
from mnemosyne.errors import ConfigError
from mnemosyne.query import insights as I


class ChatServer:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.fail_next = 0  # answer HTTP 500 this many times
        self.garbage_next = 0  # answer a text that is not JSON this many times
        me = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):  # noqa: ANN002
                pass

            def do_POST(self):  # noqa: N802
                req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                me.requests.append({"path": self.path, **req})
                if me.fail_next > 0:
                    me.fail_next -= 1
                    return self._send(500, {"error": {"message": "boom", "type": "server_error"}})
                user = req["messages"][-1]["content"]
                items = re.findall(r"^### (\d+) (\S+) ", user, re.M)
                content = "not json at all" if me.garbage_next > 0 else json.dumps({"results": [
                    {"id": int(n), "summary": f"Summary of {fqn}.", "risk": "medium" if "total" in fqn else "low",
                     "risk_note": f"Because {fqn.rsplit('.', 1)[-1]}."} for n, fqn in items]})
                me.garbage_next = max(0, me.garbage_next - 1)
                self._send(200, {"id": "c1", "object": "chat.completion", "created": 0, "model": req["model"],
                                 "choices": [{"index": 0, "finish_reason": "stop",
                                              "message": {"role": "assistant", "content": content}}],
                                 "usage": {"prompt_tokens": 100, "completion_tokens": 20 * len(items),
                                           "total_tokens": 100 + 20 * len(items)}})

            def _send(self, code: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def chat():
    s = ChatServer()
    yield s
    s.httpd.shutdown()


def conf(settings: Settings, chat: ChatServer, **kw) -> Settings:
    return settings.model_copy(update={"enrich_model": "test-model", "enrich_base_url": chat.url,
                                       "enrich_backoff_s": 0.0, "enrich_batch_size": 2, **kw})


def test_off_by_default_says_what_to_set(proj, settings):
    with pytest.raises(ConfigError, match="MNEMOSYNE_ENRICH_MODEL"):
        enrich(proj.db, proj.name, settings.model_copy(update={"enrich_model": None}))
    p = subprocess.run([sys.executable, "-c", "import sys; from mnemosyne.cli import main; sys.exit(main())",
                        "enrich", "-w", proj.name], capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "LLM enrichment is off: set MNEMOSYNE_ENRICH_MODEL" in p.stderr


def test_enrich_writes_insights_and_never_sends_a_body_twice(proj, settings, chat, tmp_path):
    s = conf(settings, chat)
    cache = EnrichCache(tmp_path / "enrich.sqlite")
    rep = enrich(proj.db, proj.name, s, cache=cache)
    # pricing.net_price and pricing.Cart.total: one batch of 2
    assert (rep.candidates, rep.sent, rep.written, rep.requests, rep.failed) == (2, 2, 2, 1, {})
    assert chat.requests[0]["path"] == "/v1/chat/completions" and chat.requests[0]["model"] == "test-model"
    assert rep.tokens == 140
    ins = {i.key: i for i in I.insights_for(proj.db, proj.name, "pricing.Cart.total")}
    assert ins["llm_summary"].value == "Summary of pricing.Cart.total." and ins["llm_summary"].agent_id == ENRICH_AGENT
    assert ins["ai_risk_assessment"].value == "medium" and ins["llm_summary"].stale is False
    # a second run sends nothing: the summaries describe the current bodies
    rep2 = enrich(proj.db, proj.name, s, cache=cache)
    assert (rep2.up_to_date, rep2.sent, len(chat.requests)) == (2, 0, 1)
    # an edited function is sent again, alone (--changed-since the first commit)
    first = proj.git("rev-parse", "HEAD").strip()
    edited = proj.path.joinpath("pricing.py").read_text().replace("amount * (1 - rate)", "round(amount * (1 - rate), 2)")
    proj.commit("pricing.py", edited, "round")
    proj.ingest()
    assert I.insights_for(proj.db, proj.name, "pricing.net_price", key="llm_summary")[0].stale is True
    rep3 = enrich(proj.db, proj.name, s, cache=cache, changed_since=first)
    assert (rep3.candidates, rep3.sent, len(chat.requests)) == (1, 1, 2)
    assert "round(amount" in chat.requests[1]["messages"][-1]["content"]
    # the body changed back: its answer is in the cache, no request
    proj.commit("pricing.py", edited.replace("round(amount * (1 - rate), 2)", "amount * (1 - rate)"), "unround")
    proj.ingest()
    rep4 = enrich(proj.db, proj.name, s, cache=cache)
    assert (rep4.from_cache, rep4.sent, len(chat.requests)) == (1, 0, 2)
    hist = I.insights_for(proj.db, proj.name, "pricing.net_price", key="llm_summary", history=True)
    assert [i.version for i in hist] == [1, 2, 3] and hist[-1].stale is False
    cache.close()


def test_cost_cap_and_limit(proj, settings, chat, tmp_path):
    cache = EnrichCache(tmp_path / "enrich.sqlite")
    rep = enrich(proj.db, proj.name, conf(settings, chat, enrich_max_tokens_per_run=10), cache=cache)
    assert rep.stopped_by_cap and rep.sent == 0 and rep.remaining == 2 and chat.requests == []
    rep = enrich(proj.db, proj.name, conf(settings, chat, enrich_batch_size=1), cache=cache, limit=1)
    assert (rep.sent, rep.remaining, len(chat.requests)) == (1, 1, 1)
    # the remaining one goes through under a cap it fits in
    cap = rep.tokens + 400
    rep = enrich(proj.db, proj.name, conf(settings, chat, enrich_batch_size=1, enrich_max_tokens_per_run=cap),
                 cache=cache)  # fmt: skip
    assert (rep.sent, rep.stopped_by_cap) == (1, False) and len(chat.requests) == 2
    cache.close()


def test_failures_are_retried_then_reported(proj, settings, chat, tmp_path):
    cache = EnrichCache(tmp_path / "enrich.sqlite")
    slept: list[float] = []
    chat.fail_next, chat.garbage_next = 1, 1  # a 500, then a non-JSON answer, then a good one
    rep = enrich(proj.db, proj.name, conf(settings, chat, enrich_backoff_s=0.5), cache=cache, sleep=slept.append)
    assert (rep.written, rep.requests, rep.failed) == (2, 3, {}) and slept == [0.5, 1.0]
    chat.fail_next = 99
    rep = enrich(proj.db, proj.name, conf(settings, chat, enrich_retries=2), cache=cache, only="pricing.net_price",
                 sleep=slept.append)  # fmt: skip
    assert rep.up_to_date == 1 and rep.requests == 0  # already summarised: nothing sent
    edited = proj.path.joinpath("pricing.py").read_text().replace("rate > 1", "rate >= 1")
    proj.commit("pricing.py", edited, "edge")
    proj.ingest()
    rep = enrich(proj.db, proj.name, conf(settings, chat, enrich_retries=2), cache=cache, only="pricing.net_price",
                 sleep=slept.append)  # fmt: skip
    assert rep.requests == 3 and list(rep.failed) == ["pricing.net_price"] and "500" in rep.failed["pricing.net_price"]
    cache.close()


def test_cli_progress_and_report(proj, settings, chat, monkeypatch):
    env = {"MNEMOSYNE_ENRICH_MODEL": "test-model", "MNEMOSYNE_ENRICH_BASE_URL": chat.url}
    import os

    p = subprocess.run([sys.executable, "-c", "import sys; from mnemosyne.cli import main; sys.exit(main())",
                        "enrich", "-w", proj.name], capture_output=True, text=True, timeout=120, env={**os.environ, **env})
    assert p.returncode == 0, p.stderr
    assert "enrich: 2/2 function(s), 1 request(s)" in p.stderr
    assert "2 sent in 1 request(s)" in p.stdout and "2 written, 0 failed" in p.stdout
    p = subprocess.run([sys.executable, "-c", "import sys; from mnemosyne.cli import main; sys.exit(main())",
                        "enrich", "-w", proj.name, "--json"], capture_output=True, text=True, timeout=120, env={**os.environ, **env})
    assert json.loads(p.stdout)["up_to_date"] == 2 and len(chat.requests) == 1


def test_daemon_enrich_pass(proj, settings, chat, tmp_path):
    """The daemon's scheduled pass enriches every ingested workspace (called directly here: the
    timer is APScheduler's)."""
    from mnemosyne.daemon.core import Daemon

    s = conf(settings, chat, enrich_interval_s=3600, home=tmp_path / "home")
    d = Daemon(s, connect=lambda *_a, **_k: proj.db, only=[proj.name])
    d.get_db = lambda: proj.db  # the session's database
    out = d.enrich_pass()
    assert out[proj.name]["written"] == 2 and len(chat.requests) == 1
