"""Tickets and pull requests named in commit messages.

- Tickets: ``#123`` (optionally after fixes/closes/resolves, which sets ``kind='fixes'``) and
  tracker keys such as ``ABC-42`` (a well-known non-ticket prefix like UTF-8 or SHA-256 is not one).
- Pull requests: ``Merge pull request #N from owner/branch`` (title = the message's next
  non-empty line) and squash merges whose subject ends in ``(#N)`` (title = the subject without it).
  A PR's own number is not also reported as a ticket of that commit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HASH_REF = re.compile(
    r"(?<![\w/&])(?:(?P<verb>fix(?:e[sd])?|close[sd]?|resolve[sd]?)\s*:?\s+)?#(?P<num>\d{1,9})\b", re.I
)
_KEY_REF = re.compile(r"(?<![\w-])(?P<key>[A-Z][A-Z0-9]{1,9}-\d{1,7})(?![\w-])")
_MERGE_PR = re.compile(r"^Merge pull request #(\d+)(?: from (\S+))?", re.M)
_SQUASH_PR = re.compile(r"^(?P<title>.*?)\s*\(#(?P<num>\d+)\)\s*$")
_NOT_TICKETS = {
    "UTF", "SHA", "ISO", "RFC", "MD", "HTTP", "TLS", "SSL", "PEP", "AES", "RSA", "GPL", "LGPL", "AGPL",
    "CP", "WIN", "ES", "ECMA", "IEEE", "UCS", "X", "BSD", "CC", "API", "HTML", "CVE", "GH",
}


@dataclass(frozen=True, slots=True)
class TicketRef:
    key: str  # '#123' or 'ABC-42'
    kind: str  # 'fixes' | 'refs'


@dataclass(frozen=True, slots=True)
class PullRequestRef:
    number: int
    title: str
    status: str = "merged"


def pull_request(message: str) -> PullRequestRef | None:
    lines = message.splitlines()
    subject = lines[0] if lines else ""
    m = _MERGE_PR.match(subject)
    if m:
        title = next((ln.strip() for ln in lines[1:] if ln.strip()), "")
        return PullRequestRef(int(m.group(1)), title or subject)
    m = _SQUASH_PR.match(subject)
    if m:
        return PullRequestRef(int(m.group("num")), m.group("title").strip() or subject)
    return None


def tickets(message: str, pr: PullRequestRef | None = None) -> list[TicketRef]:
    found: dict[str, str] = {}
    for m in _HASH_REF.finditer(message):
        key = f"#{int(m.group('num'))}"
        if pr is not None and key == f"#{pr.number}":
            continue
        kind = "fixes" if m.group("verb") else "refs"
        if found.get(key) != "fixes":
            found[key] = kind
    for m in _KEY_REF.finditer(message):
        key = m.group("key")
        if key.split("-")[0] in _NOT_TICKETS:
            continue
        found.setdefault(key, "refs")
    return [TicketRef(k, v) for k, v in found.items()]
