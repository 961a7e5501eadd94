"""Tools about the workspaces themselves: which are registered (``list_workspaces``) and how their
ingestion goes (``ingestion_status``); and the server's own latency (the ``mnemosyne://stats``
resource)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mnemosyne import query as Q
from mnemosyne.errors import MnemosyneError
from mnemosyne.mcp import models as M
from mnemosyne.mcp.tools.base import RO, NoArguments, Tool
from mnemosyne.mcp.tools.common import code
from mnemosyne.query.core import history_build_line

if TYPE_CHECKING:
    from mnemosyne.mcp.service import McpService


class ListWorkspaces(Tool[NoArguments, M.WorkspacesResult]):
    name = "list_workspaces"
    description = """The registered workspaces (repositories): path, tracked branch, ingested commit, how far
        behind the branch head, working-tree changes, and which one is the default."""
    input_model = NoArguments
    output_model = M.WorkspacesResult
    annotations = RO

    def apply(self, svc: McpService, args: NoArguments) -> tuple[M.WorkspacesResult, str]:
        entries = []
        for st in svc.workspaces_status():
            entries.append(M.WorkspaceEntry(
                **st.model_dump(include=set(Q.WorkspaceState.model_fields)),
                working_tree_dirty=bool(st.changed_files) if st.path_exists else None,
                changed_files=len(st.changed_files),
            ))  # fmt: skip
        default, note = None, None
        try:
            default = svc.info(None).name
        except MnemosyneError as err:
            note = str(err)
        res = M.WorkspacesResult(workspaces=entries, default_workspace=default, default_note=note)
        lines = [f"{len(entries)} workspace(s) registered" + (f"; default: {code(default)}" if default else "") + "\n"]
        for e in entries:
            state = f"ingested `{(e.ingested_commit or '-')[:10]}` (seq {e.ingested_seq})" if e.ingested_commit else "not ingested yet"
            behind = f", {e.commits_behind} commit(s) behind {code(e.branch)}" if e.commits_behind else ""
            dirty = f", {e.changed_files} changed file(s) in the working tree" if e.changed_files else ""
            lines.append(f"- {code(e.name)} ({code(e.path)}, branch {code(e.branch)}, state {e.state}): {state}{behind}{dirty}"
                         + (f" — error: {code(e.error)}" if e.error else ""))  # fmt: skip
        if note:
            lines.append(f"\nWithout a `workspace` argument: {note}")
        return res, "\n".join(lines) + "\n"


class IngestionStatus(Tool[NoArguments, M.IngestionStatus]):
    name = "ingestion_status"
    description = """Is the daemon running; its queue, running jobs with progress, failures; each workspace's
        ingested commit, how far behind its branch, and ingestion lag."""
    input_model = NoArguments
    output_model = M.IngestionStatus
    annotations = RO

    def apply(self, svc: McpService, args: NoArguments) -> tuple[M.IngestionStatus, str]:
        from mnemosyne.daemon import control
        from mnemosyne.daemon.paths import DaemonPaths

        sock = DaemonPaths.from_settings(svc.settings).control_socket
        try:
            st = control.request(sock, "status", timeout=3.0)
        except control.ControlUnavailable:
            st = None
        if st and st.get("ok"):
            def job(d: dict[str, Any]) -> M.JobInfo:
                return M.JobInfo(id=d.get("id", d.get("job")), workspace=str(d.get("workspace")), kind=str(d.get("kind")),
                                 state=d.get("state"), reason=d.get("reason"), started_at=d.get("started_at"),
                                 created_at=d.get("created_at"), progress=d.get("progress"), error=d.get("error"))  # fmt: skip

            wss = [M.WorkspaceIngestion(name=w.get("name"), state=w.get("state"),
                                        ingested_commit=w.get("last_ingested_commit"), branch_head=w.get("head"),
                                        commits_behind=w.get("commits_behind"), lag_s=w.get("lag_s"), error=w.get("error"))
                   for w in st.get("workspaces", [])]  # fmt: skip
            out = M.IngestionStatus(
                daemon_running=True, daemon_pid=st.get("pid"), uptime_s=st.get("uptime_s"),
                db_state=(st.get("db") or {}).get("state"), queue=st.get("queue") or {},
                queued=[job(j) for j in st.get("queued", [])][:50], running=[job(j) for j in st.get("running", [])],
                failed=[job(j) for j in st.get("failed", [])][:5], workspaces=wss,
            )  # fmt: skip
        else:
            out = M.IngestionStatus(daemon_running=False, note=(
                "no daemon is running: nothing is being ingested in the background. Ingest with "
                "`mnemosyne ingest --workspace NAME`, or start the daemon with `mnemosyne daemon start`."))  # fmt: skip
            try:
                for s in svc.workspaces_status():
                    out.workspaces.append(M.WorkspaceIngestion(
                        name=s.name, state=s.state, ingested_commit=s.ingested_commit, ingested_seq=s.ingested_seq,
                        branch_head=s.branch_head, commits_behind=s.commits_behind, error=s.error))  # fmt: skip
                out.db_state = "up"
            except MnemosyneError as err:
                out.db_state = "unavailable"
                out.note = f"{out.note or ''} The database is not reachable either: {err}"
        for w in out.workspaces:
            try:
                w.history = history_build_line(svc.db.graph(w.name))
            except MnemosyneError:
                pass
        out.server_stats = svc.stats.snapshot()
        md = [f"**daemon** {'running (pid ' + str(out.daemon_pid) + ')' if out.daemon_running else 'not running'}"
              + (f" · database {out.db_state}" if out.db_state else "")]  # fmt: skip
        if out.daemon_running:
            md.append("queue: " + (", ".join(f"{k} {v}" for k, v in out.queue.items()) or "empty"))
            for j in out.running:
                prog = j.progress or {}
                pct = ", ".join(f"{k}={v}" for k, v in prog.items() if isinstance(v, (int, float, str)) and k in
                                ("phase", "done", "total", "commits_done", "commits_total", "seq", "files_parsed"))  # fmt: skip
                md.append(f"- running: {j.kind} {code(j.workspace)}" + (f" ({code(pct)})" if pct else ""))
            for j in out.queued:
                md.append(f"- queued: {j.kind} {code(j.workspace)} ({code(j.reason)})")
        if out.note:
            md.append(out.note)
        for w in out.workspaces:
            behind = f"{w.commits_behind} commit(s) behind" if w.commits_behind else "up to date" if w.commits_behind == 0 else "?"
            md.append(f"- {code(w.name)}: {w.state}, ingested `{(w.ingested_commit or '-')[:10]}`, {behind}"
                      + (f", lag {w.lag_s:.0f}s" if w.lag_s is not None else "") + (f" — {code(w.error)}" if w.error else "")
                      + (f"; {w.history} (the head answers meanwhile)" if w.history else ""))  # fmt: skip
        if out.server_stats:
            md.append("server-side latency of this MCP server (ms, p50/p95, calls): " + ", ".join(
                f"{k} {v.p50_ms}/{v.p95_ms} ({v.count})" for k, v in out.server_stats.items()))  # fmt: skip
        return out, "\n".join(md) + "\n"


def server_stats(svc: McpService) -> tuple[M.ServerStats, str]:
    """Server-side latency per tool since this server started (the ``mnemosyne://stats`` resource)."""
    snap = svc.stats.snapshot()
    out = M.ServerStats(tools=snap)
    md = ["tool\tcount\terrors\tp50_ms\tp95_ms\tmax_ms"]
    md += [f"{k}\t{v.count}\t{v.errors}\t{v.p50_ms}\t{v.p95_ms}\t{v.max_ms}" for k, v in snap.items()]
    return out, "\n".join(md) + "\n"
