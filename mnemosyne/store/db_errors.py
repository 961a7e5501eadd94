"""redis / FalkorDB exceptions -> the typed errors of ``mnemosyne.errors``.

The one module that knows redis-py's exception classes and the texts FalkorDB answers with. The
store's boundaries (``Database``, ``Graph``, ``connect``) catch ``CONNECTION_ERRORS`` and
``redis.RedisError`` and raise what these functions build, chaining the original (``from err``):

- unreachable, refused, reset, socket timeout, still loading, bad credentials -> ``DatabaseUnavailable``
- ``MISCONF`` (the last background save failed: writes refused, reads served)  -> ``CannotSave``
- a read-only replica, out of memory (``maxmemory``)                          -> ``DatabaseError``
- a query stopped by its timeout                                                -> ``QueryTimeout``
- a query over the per-query memory cap                                         -> ``QueryTooLarge``
- an index procedure refusing its arguments (index missing or still building)  -> ``IndexNotReady``
- any other error answered to a query                                           -> ``QueryFailed``

Callers outside the store recognise database trouble by these types (e.g. ``StoreError.retry_later``
in the daemon), never by a redis class or an error message.
"""

from __future__ import annotations

import redis

from mnemosyne.errors import (
    CannotSave,
    DatabaseError,
    DatabaseUnavailable,
    IndexNotReady,
    QueryFailed,
    QueryTimeout,
    QueryTooLarge,
)

# What a lost or refused connection raises: redis-py's classes, or a bare socket error.
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (redis.ConnectionError, redis.TimeoutError, OSError)

# Texts of FalkorDB / redis answers (server error messages have no codes to match instead).
EMPTY_KEY = "empty key"  # reading a graph that does not exist yet
ALREADY_INDEXED = "already indexed"  # CREATE INDEX of an index that exists
RO_REJECTED = "to be executed only on read-only queries"  # a write sent as GRAPH.RO_QUERY
TIMED_OUT = "timed out"
MEM_EXCEEDED = "mem consumption exceeded capacity"
# an index procedure called while its index does not exist, is being built, or has another dimension
INDEX_PROCEDURE_REFUSED = "Invalid arguments for procedure 'db.idx."
CANNOT_SAVE = "MISCONF"  # redis: the last background save failed, writes (and PING) are refused


def is_cannot_save(err: BaseException) -> bool:
    """A redis ``MISCONF`` answer: the server runs and serves reads, but cannot save to disk."""
    return isinstance(err, redis.ResponseError) and str(err).startswith(CANNOT_SAVE)


def cannot_save_message(where: str) -> str:
    """One line for a refused write: what happened and what to do."""
    return (f"FalkorDB at {where} cannot save to disk (MISCONF: its last background save failed), so it refuses "
            "writes; reads still work. Free disk space or fix the permissions of its data directory (`mnemosyne db "
            "status` shows it; the cause is in its log): writes resume after the next save that succeeds")


def _reason(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__


def unreachable(address: str, err: BaseException, embedded: bool) -> DatabaseUnavailable:
    """Connecting failed: the address tried, why, and what to do."""
    if isinstance(err, redis.AuthenticationError):
        return DatabaseUnavailable(f"FalkorDB at {address} refused the credentials ({_reason(err)}); "
                                   "check the user and password in MNEMOSYNE_FALKORDB_URL")
    if isinstance(err, redis.BusyLoadingError):
        return loading(address, err)
    if embedded:
        hint = "run `mnemosyne db start` (or `mnemosyne db status`) and see the server log"
    else:
        hint = "start that server or fix MNEMOSYNE_FALKORDB_URL (unset it to use the embedded database)"
    return DatabaseUnavailable(f"cannot reach FalkorDB at {address} ({_reason(err)}); {hint}")


def lost(address: str, err: BaseException) -> DatabaseUnavailable:
    """A connection that worked failed during a command (reset, refused, socket timeout)."""
    if isinstance(err, redis.BusyLoadingError):
        return loading(address, err)
    return DatabaseUnavailable(f"lost connection to FalkorDB at {address} ({err}); run `mnemosyne db status`")


def loading(address: str, err: BaseException) -> DatabaseUnavailable:
    return DatabaseUnavailable(f"FalkorDB at {address} is still loading its data ({_reason(err)}); "
                               "retry in a moment (`mnemosyne db status` shows when it is ready)")


def server_refused(address: str, err: redis.RedisError, what: str) -> DatabaseError | None:
    """An answer about the server's state rather than the command: ``MISCONF``, a read-only
    replica, out of memory. None for anything else."""
    if is_cannot_save(err):
        return CannotSave(cannot_save_message(address))
    if isinstance(err, redis.ReadOnlyError):
        return DatabaseError(f"FalkorDB at {address} is a read-only replica and refused {what}; point "
                             "MNEMOSYNE_FALKORDB_URL at the primary")
    if isinstance(err, redis.exceptions.OutOfMemoryError):
        return DatabaseError(f"FalkorDB at {address} is out of memory (maxmemory) and refused {what}; free memory "
                             "(drop unused workspaces: `mnemosyne workspace remove`) or raise its maxmemory")
    return None


def command_failed(address: str, err: redis.RedisError, command: str) -> DatabaseError:
    """A raw server command (``Database.execute``) answered with an error."""
    return server_refused(address, err, command) or DatabaseError(f"FalkorDB error for {command}: {err}")


def query_failed(graph: str, name: str, err: redis.RedisError, timeout_ms: int | None, mem_cap_mb: int) -> QueryFailed:
    """A query's error answer (after the graph-level cases: empty key, read-only, MISCONF)."""
    msg = str(err)
    if MEM_EXCEEDED in msg.lower():
        return QueryTooLarge(f"query stopped: it needed more than the {mem_cap_mb} MB of server memory one query may "
                             f"use (query_mem_capacity_mb), in graph {graph}: {name}")
    if TIMED_OUT in msg.lower():
        limit = f" after {timeout_ms} ms" if timeout_ms else ""
        return QueryTimeout(f"query timed out{limit} in graph {graph}: {name}")
    if INDEX_PROCEDURE_REFUSED in msg:
        return IndexNotReady(f"FalkorDB error in graph {graph}, query {name!r}: {msg}")
    return QueryFailed(f"FalkorDB error in graph {graph}, query {name!r}: {msg}")
