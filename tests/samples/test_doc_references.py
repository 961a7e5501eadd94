"""Docs, README and every --help text stand alone: no reference to a document that is not in the
repository (design notes kept elsewhere, shared folders), no reStructuredText markup in --help."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from mnemosyne.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
# documents that are not in the repository, as the texts used to cite them
OUTSIDE = re.compile(r"graph-model|tech-brief|\.\./shared|/work/shared|\bshared/docs\b")
RST = re.compile(r"``|:func:`|:class:`|:meth:`")


def help_texts() -> dict[str, str]:
    """`mnemosyne [SUB ...] --help` of every command and sub-command, by command line."""
    out: dict[str, str] = {}

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        out[name] = parser.format_help()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, p in action.choices.items():
                    walk(p, f"{name} {sub}")

    walk(build_parser(), "mnemosyne")
    return out


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_docs_cite_only_what_is_in_the_repository():
    bad = [f"{p.relative_to(ROOT)}:{i}: {ln.strip()}" for p in doc_files()
           for i, ln in enumerate(p.read_text().splitlines(), 1) if OUTSIDE.search(ln)]  # fmt: skip
    assert not bad, "\n".join(bad)


def test_relative_links_in_docs_exist():
    bad = []
    for p in doc_files():
        text = re.sub(r"`[^`\n]*`", "", p.read_text())  # a code span's `f[k](x)` is no link
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" not in target and not (p.parent / target).exists():
                bad.append(f"{p.relative_to(ROOT)} -> {target}")
    assert not bad, "\n".join(bad)


def test_help_texts_cite_nothing_outside_and_are_plain_text():
    texts = help_texts()
    assert len(texts) > 30  # every command and sub-command was reached
    bad = [f"{name}: {ln.strip()}" for name, t in texts.items() for ln in t.splitlines()
           if OUTSIDE.search(ln) or RST.search(ln)]  # fmt: skip
    assert not bad, "\n".join(bad)
