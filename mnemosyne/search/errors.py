"""Typed errors of the search layer (all ``MnemosyneError``: the CLI prints them, MCP maps them)."""

from __future__ import annotations

from mnemosyne.errors import MnemosyneError


class SearchError(MnemosyneError):
    """A search request cannot be answered as asked (bad mode, kind, cursor)."""


class EmbeddingError(MnemosyneError):
    """The embedding provider failed (server down, rate limited past the retries, bad answer)."""


class EmbeddingModelUnavailable(EmbeddingError):
    """A model file (ONNX weights, tokenizer.json) is missing or does not match its pinned hash."""

    exit_code = 4


class EmbeddingDimensionMismatch(EmbeddingError):
    """Vectors of a dimension other than the index's were produced or asked for."""
