"""A module's or class's own code: its lines outside the symbols it defines.

A class's body text holds its methods and a module's is its whole file, so an edit inside one
method changes the body hash of the method, its class and its module alike. ``diff`` reports a
module or class as changed in body only when its own code changed: the lines left once the lines
of the functions, classes and lambdas it defines directly are taken out (imports, module-level
statements, class attributes, decorators of the class, comments between members), blank lines and
trailing spaces ignored. The file is read and parsed alone at each commit (``query.positions``,
cached per blob), for the containers whose body hash differs only.
"""

from __future__ import annotations

from pathlib import Path

from mnemosyne.query.positions import file_positions

CONTAINER_KINDS = frozenset({"module", "class"})
# Reading and parsing two blobs per changed file: a diff over a whole release (Django 5.0 -> 5.1:
# ~1,500 changed files) would parse ~3,000 files alone to answer, so past this many files the
# remaining containers are reported as their body hashes say.
MAX_FILES = 400


def own_lines(repo: str | Path, commit: str, file: str, fqn: str) -> tuple[str, ...] | None:
    """The container ``fqn``'s own non-blank lines in ``file`` at ``commit`` (right-stripped), or
    None when the file or the symbol is not found there."""
    fp = file_positions(repo, commit, file)
    sym = fp.find(fqn) if fp is not None else None
    if fp is None or sym is None:
        return None
    owner = file if sym.kind == "module" else sym.fqn
    taken: set[int] = set()
    for s in fp.by_fqn.values():
        if s.parent == owner and s is not sym:
            taken.update(range(s.line_start, s.line_end + 1))
    lines = fp.text[sym.line_start - 1 : sym.line_end]
    return tuple(t.rstrip() for n, t in enumerate(lines, sym.line_start) if n not in taken and t.strip())


def members_only(repo: str | Path, changed: list[tuple[str, str, str, str, str]]) -> set[str]:
    """Of ``changed`` containers (fqn, commit a, file at a, commit b, file at b), whose body hash
    differs, those whose own lines are the same at both commits: only what they define changed."""
    out: set[str] = set()
    files: set[tuple[str, str]] = set()
    for fqn, ca, fa, cb, fb in changed:
        files.update(((ca, fa), (cb, fb)))
        if len(files) > MAX_FILES:
            break
        a = own_lines(repo, ca, fa, fqn)
        if a is not None and a == own_lines(repo, cb, fb, fqn):
            out.add(fqn)
    return out
