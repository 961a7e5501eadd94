"""The temporal predicates of the graph, written once (docs/schema.md "Versioned edges").

Every versioned edge is a *version* with two times:

- **valid time**, in timeline positions: it is true from ``valid_from_seq`` (inclusive) to
  ``valid_to_seq`` (exclusive; null = still true);
- **transaction time**, in wall-clock seconds: it was recorded at ``ingested_at`` and stopped
  being believed at ``superseded_at`` (null = believed now; set when a history rewrite dropped
  the commits it came from).

Each function returns a Cypher boolean expression (or a column expression) over the graph
variable ``var``; the parameters (``$seq``, ``$t``, ``$late``) are the caller's. The expressions
are conjunctions: put them in parentheses inside an ``OR``. Python code writes them into its
inline Cypher with f-strings (``f"WHERE {holds_at('r')}"``); the ``cypher/*.cypher`` files write
them as ``@holds_at(r, $seq)`` and the named-query loader expands them through
:class:`TimeView` (the same text), once for the query and once for its ``_believed`` twin.

Transaction-time twins ("as Mnemosyne believed it at wall-clock time ``$t``"): a version counts
when it was recorded by then and not superseded by then (:func:`believed_at`); an open version
is closed *in place* when a later commit ends it, so a version closed by a commit ingested after
``$t`` (its ``ended_commit`` is in ``$late``) was still open at ``$t``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mnemosyne import vocabulary as V

SEQ = "$seq"  # the timeline position a question is asked at
T = "$t"  # the wall-clock time (epoch seconds) a transaction-time question is asked at
LATE = "$late"  # the hashes of the commits ingested after $t (named query commits_ingested_after)


# --- valid time -----------------------------------------------------------------------------------


def not_ended(var: str, seq: str = SEQ) -> str:
    """The version had not ended at ``seq``: still open, or closed by a later commit."""
    return f"({var}.{V.VALID_TO_SEQ} IS NULL OR {var}.{V.VALID_TO_SEQ} > {seq})"


def valid_at(var: str, seq: str = SEQ) -> str:
    """Valid time alone: the version's interval contains ``seq`` (superseded versions included)."""
    return f"{var}.{V.VALID_FROM_SEQ} <= {seq} AND {not_ended(var, seq)}"


def believed(var: str) -> str:
    """Transaction time now: the version (or commit) is believed, not superseded by a history rewrite."""
    return f"{var}.{V.SUPERSEDED_AT} IS NULL"


def holds_at(var: str, seq: str = SEQ) -> str:
    """This version holds at commit sequence ``seq``: valid then and believed now."""
    return f"{valid_at(var, seq)} AND {believed(var)}"


def began_in(var: str, lo: str, hi: str) -> str:
    """The version began in the commits ``(lo, hi]`` (a range scan of the interval index)."""
    return f"{var}.{V.VALID_FROM_SEQ} > {lo} AND {var}.{V.VALID_FROM_SEQ} <= {hi}"


def ended_in(var: str, lo: str, hi: str) -> str:
    """The version ended in the commits ``(lo, hi]`` (a range scan of the interval index)."""
    return f"{var}.{V.VALID_TO_SEQ} > {lo} AND {var}.{V.VALID_TO_SEQ} <= {hi}"


def is_open(var: str) -> str:
    """The version is still true at the latest commit written (``valid_to_seq`` null; superseded
    versions included: combine with :func:`believed`)."""
    return f"{var}.{V.VALID_TO_SEQ} IS NULL"


def holds_at_head(var: str) -> str:
    """The version holds at the last commit written: open and believed (what the writer closes)."""
    return f"{is_open(var)} AND {believed(var)}"


# --- transaction time ------------------------------------------------------------------------------


def believed_at(var: str, t: str = T) -> str:
    """The version (or commit) was believed at wall-clock time ``t``: recorded by then and not
    superseded by then."""
    return f"{var}.{V.INGESTED_AT} <= {t} AND ({var}.{V.SUPERSEDED_AT} IS NULL OR {var}.{V.SUPERSEDED_AT} > {t})"


def not_ended_believed(var: str, seq: str = SEQ, late: str = LATE) -> str:
    """:func:`not_ended` as believed when the commits ``late`` were not ingested yet."""
    return f"({var}.{V.VALID_TO_SEQ} IS NULL OR {var}.{V.VALID_TO_SEQ} > {seq} OR {var}.{V.ENDED_COMMIT} IN {late})"


def valid_at_believed(var: str, seq: str = SEQ, late: str = LATE) -> str:
    """:func:`valid_at` as believed when the commits ``late`` were not ingested yet."""
    return f"{var}.{V.VALID_FROM_SEQ} <= {seq} AND {not_ended_believed(var, seq, late)}"


def holds_at_believed(var: str, seq: str = SEQ, t: str = T, late: str = LATE) -> str:
    """This version held at ``seq`` as Mnemosyne believed it at wall-clock time ``t``."""
    return f"{var}.{V.VALID_FROM_SEQ} <= {seq} AND {believed_at(var, t)} AND {not_ended_believed(var, seq, late)}"


# --- one view per kind of question: what the cypher/ templates expand through ----------------------


@dataclass(frozen=True)
class TimeView:
    """The predicates of one kind of question: ``CURRENT`` (what is believed now) or ``AS_OF_INGEST``
    (what was believed at ``$t``, the ``_believed`` twins). Each method is a ``@name(...)`` macro of
    the ``cypher/`` files (docs/queries.md "Temporal predicates in the named queries")."""

    as_of_ingest: bool

    def holds_at(self, var: str, seq: str = SEQ) -> str:
        return holds_at_believed(var, seq) if self.as_of_ingest else holds_at(var, seq)

    def valid_at(self, var: str, seq: str = SEQ) -> str:
        return valid_at_believed(var, seq) if self.as_of_ingest else valid_at(var, seq)

    def not_ended(self, var: str, seq: str = SEQ) -> str:
        return not_ended_believed(var, seq) if self.as_of_ingest else not_ended(var, seq)

    def believed(self, var: str) -> str:
        return believed_at(var) if self.as_of_ingest else believed(var)

    def began_in(self, var: str, lo: str, hi: str) -> str:
        return began_in(var, lo, hi)

    def ended_in(self, var: str, lo: str, hi: str) -> str:
        return ended_in(var, lo, hi)

    def believed_at(self, var: str, t: str = T) -> str:
        """Transaction time in either view (the queries that only exist "as believed at ``t``")."""
        return believed_at(var, t)

    def valid_to_seq(self, var: str) -> str:
        """Column: the version's end (null while open; at ``$t``, null when it ended later)."""
        col = f"{var}.{V.VALID_TO_SEQ}"
        return f"CASE WHEN {var}.{V.ENDED_COMMIT} IN {LATE} THEN null ELSE {col} END" if self.as_of_ingest else col

    def ended_commit(self, var: str) -> str:
        """Column: the commit that ended the version (null while open; at ``$t``, as ``valid_to_seq``)."""
        col = f"{var}.{V.ENDED_COMMIT}"
        return f"CASE WHEN {col} IN {LATE} THEN null ELSE {col} END" if self.as_of_ingest else col

    def commit_seq(self, var: str) -> str:
        """Column: a commit's timeline position (at ``$t``: the one it had then, ``old_seq`` once superseded)."""
        return f"coalesce({var}.seq, {var}.old_seq)" if self.as_of_ingest else f"{var}.seq"

    def commit_at(self, var: str, seq: str) -> str:
        """The commit held timeline position ``seq`` (its facts, such as renames, are believed)."""
        if self.as_of_ingest:
            return f"{believed_at(var)} AND {self.commit_seq(var)} = {seq}"
        return f"{var}.seq = {seq}"


CURRENT = TimeView(as_of_ingest=False)
AS_OF_INGEST = TimeView(as_of_ingest=True)
