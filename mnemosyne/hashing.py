"""Content digests of source blobs: a leaf module, so parsers, resolvers and the orchestrator can all
use it without importing one another."""

from __future__ import annotations

import hashlib


def content_hash(data: bytes) -> str:
    """The digest a parsed file is known by (16-byte BLAKE2b, hex)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()
