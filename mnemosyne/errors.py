"""Typed errors with messages a user can act on. The CLI prints ``str(err)`` and exits non-zero;
the MCP layer turns them into tool errors. Each says what went wrong and what to do."""

from __future__ import annotations


class MnemosyneError(Exception):
    """Base of every error Mnemosyne raises on purpose."""

    exit_code = 1


class ConfigError(MnemosyneError):
    """A setting is invalid or contradictory."""


class StoreError(MnemosyneError):
    """Base of the errors of talking to FalkorDB. ``mnemosyne/store`` turns every redis/FalkorDB
    exception into one of these (the original chained as ``__cause__``), so callers catch these
    types and never a redis exception or an error message.

    ``retry_later``: the database is not there or not writable right now (a daemon backs off and
    runs the work again), as opposed to a query or a command that is wrong."""

    retry_later = False


class DatabaseUnavailable(StoreError):
    """FalkorDB cannot be reached at the address tried (refused, reset, timed out, still loading)."""

    exit_code = 3
    retry_later = True


class DatabaseError(StoreError):
    """FalkorDB answered with an error (a refused command, a failed query, ...)."""


class QueryFailed(DatabaseError):
    """FalkorDB refused or failed a Cypher query (syntax, unknown function, type error, ...); the
    message names the graph and the query (its file name or first line)."""


class QueryTimeout(QueryFailed):
    """A query ran longer than its timeout and was stopped (writes are rolled back)."""


class QueryTooLarge(QueryFailed):
    """A query needed more server memory than one query may use (``QUERY_MEM_CAPACITY``)."""


class IndexNotReady(QueryFailed):
    """An index procedure (``db.idx.*``, e.g. a vector k-NN) refused its arguments: the index does
    not exist, is still being built, or was made for another vector dimension."""


class CannotSave(DatabaseError):
    """The server refuses writes because its last background save failed (redis ``MISCONF``);
    reads still work, and writes resume once a save succeeds."""

    retry_later = True


class ReadOnlyViolation(MnemosyneError):
    """A query given as read-only tried to write or to read files."""


class WorkspaceNotFound(MnemosyneError):
    """No registered workspace matches the name or path given."""


class WorkspaceAmbiguous(MnemosyneError):
    """Several workspaces are registered and none was chosen."""


class RevisionNotFound(MnemosyneError):
    """A commit-ish did not resolve in the repository."""


class SymbolNotFound(MnemosyneError):
    """A fully qualified name is not in the graph at the commit asked for."""


class PathOutsideWorkspace(MnemosyneError):
    """A path given by a caller escapes every registered repository."""


class NotImplementedYet(MnemosyneError):
    """A command that a later milestone fills in."""

    exit_code = 2
