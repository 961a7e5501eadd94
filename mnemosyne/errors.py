"""Typed errors with messages a user can act on. The CLI prints ``str(err)`` and exits non-zero;
the MCP layer turns them into tool errors. Each says what went wrong and what to do."""

from __future__ import annotations


class MnemosyneError(Exception):
    """Base of every error Mnemosyne raises on purpose."""

    exit_code = 1


class ConfigError(MnemosyneError):
    """A setting is invalid or contradictory."""


class DatabaseUnavailable(MnemosyneError):
    """FalkorDB cannot be reached at the address tried."""

    exit_code = 3


class DatabaseError(MnemosyneError):
    """FalkorDB answered with an error (bad query, timeout, ...)."""


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
