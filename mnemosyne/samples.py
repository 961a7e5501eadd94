"""Sample repositories with a scripted history, built as real Git repositories.

Each sample lives in ``sample_repos/<name>/``:

* ``history.py`` holds the history as data: ``STEPS``, a list of :class:`Step` (1-based step numbers,
  one commit each), whose operations write, edit, move and delete files; and ``facts(S)``, the
  "known facts" of the history (calls removed, functions removed and re-added, renames, dependency
  changes, tickets, the merge), written against step keys so that they cannot drift from the steps;
* ``facts.json`` is ``facts(S)`` written out (``python -m mnemosyne.samples --write-facts``; a test
  checks it is current), ``FACTS.md`` tells the same story for people.

:func:`build_sample_repo` replays the steps with the git CLI. Author and committer dates come
from a fixed epoch, identities and configuration are fixed, and the user's and the system's git
configuration are ignored, so the same steps always give the same commit hashes.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from mnemosyne.git.command import run_git

BASE_EPOCH = 1_704_103_200  # 2024-01-01T10:00:00Z; step N is committed N days (and N minutes) later
STEP_SECONDS = 86_400 + 60
DEFAULT_AUTHOR = ("Alice Example", "alice@example.com")

# --- the operations a step is made of ------------------------------------------------------------


@dataclass(frozen=True)
class Write:
    path: str
    content: str


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` (which must occur exactly once) by ``new`` in an existing file."""

    path: str
    old: str
    new: str


@dataclass(frozen=True)
class Delete:
    path: str


@dataclass(frozen=True)
class Move:
    """``git mv src dst`` (the content can be edited by later operations of the same step)."""

    src: str
    dst: str


Op = Write | Edit | Delete | Move


def W(path: str, content: str) -> Write:  # noqa: N802 - short names keep history.py readable
    return Write(path, _dedent(content))


def E(path: str, old: str, new: str) -> Edit:  # noqa: N802
    return Edit(path, old, new)


def D(path: str) -> Delete:  # noqa: N802
    return Delete(path)


def MV(src: str, dst: str) -> Move:  # noqa: N802
    return Move(src, dst)


def _dedent(text: str) -> str:
    import textwrap

    text = textwrap.dedent(text)
    if text.startswith("\n"):
        text = text[1:]
    return text


@dataclass(frozen=True)
class Step:
    """One commit. ``branch`` is where it is committed (created from main when new); a step with
    ``merge`` set merges that branch into main with ``git merge --no-ff`` (``ops`` must be empty)."""

    key: str
    message: str
    ops: tuple[Op, ...] = ()
    branch: str = "main"
    merge: str | None = None
    author: tuple[str, str] = DEFAULT_AUTHOR


# --- the built repository --------------------------------------------------------------------------


class SampleCommit(NamedTuple):
    step: int  # 1-based step number
    hash: str
    message: str


@dataclass
class SampleRepo:
    name: str
    path: Path
    commits: list[SampleCommit]
    branch: str = "main"
    facts: dict[str, Any] = field(default_factory=dict)
    step_branches: dict[int, str] = field(default_factory=dict)  # step -> branch it was committed on

    def hash_at(self, step: int) -> str:
        for c in self.commits:
            if c.step == step:
                return c.hash
        raise KeyError(f"{self.name}: no step {step} in this build")

    @property
    def head(self) -> str:
        return self.hash_at(max(s for s, b in self.step_branches.items() if b == self.branch))

    @property
    def timeline_steps(self) -> list[int]:
        """The steps on main's first-parent history, oldest first (docs/schema.md)."""
        return [s for s, b in sorted(self.step_branches.items()) if b == self.branch]


# --- discovery ----------------------------------------------------------------------------------


def samples_dir() -> Path:
    """The ``sample_repos`` folder (``MNEMOSYNE_SAMPLES_DIR`` overrides)."""
    env = os.environ.get("MNEMOSYNE_SAMPLES_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "sample_repos"


def list_samples() -> list[str]:
    root = samples_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "history.py").is_file())


def load_history(name: str) -> ModuleType:
    path = samples_dir() / name / "history.py"
    if not path.is_file():
        raise KeyError(f"unknown sample {name!r}; known: {', '.join(list_samples()) or 'none'}")
    spec = importlib.util.spec_from_file_location(f"mnemosyne_sample_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def step_numbers(steps: list[Step]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, s in enumerate(steps, 1):
        if s.key in out:
            raise ValueError(f"duplicate step key {s.key!r}")
        out[s.key] = i
    return out


def sample_facts(name: str) -> dict[str, Any]:
    """The known facts of a sample's history, computed from its ``history.py``."""
    h = load_history(name)
    steps: list[Step] = h.STEPS
    s = step_numbers(steps)
    facts = dict(h.facts(s))
    facts["name"] = name
    facts["steps"] = len(steps)
    facts["step_keys"] = {k: v for k, v in s.items()}
    facts["timeline_steps"] = [i for i, st in enumerate(steps, 1) if st.branch == "main"]
    facts["branch_steps"] = {b: [i for i, st in enumerate(steps, 1) if st.branch == b]
                             for b in sorted({st.branch for st in steps} - {"main"})}
    facts["merge_steps"] = [i for i, st in enumerate(steps, 1) if st.merge]
    facts["messages"] = {str(i): st.message.splitlines()[0] for i, st in enumerate(steps, 1)}
    return facts


# --- building -----------------------------------------------------------------------------------


class _Git:
    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.base_env = {
            k: v for k, v in os.environ.items() if not k.startswith("GIT_")
        } | {
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_TERMINAL_PROMPT": "0",
            "LC_ALL": "C",
            "TZ": "UTC",
        }
        self.config = [
            "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", "-c", "core.autocrlf=false",
            "-c", "core.filemode=true", "-c", "init.defaultBranch=main", "-c", "merge.ff=true",
            "-c", "core.hooksPath=" + os.devnull, "-c", "advice.detachedHead=false",
        ]

    def __call__(self, *args: str, env: Mapping[str, str] | None = None) -> str:
        # GitError is a RuntimeError
        return run_git(self.repo, *self.config, *args, env=self.base_env | dict(env or {}), timeout=None).stdout


def _identity_env(author: tuple[str, str], step: int) -> dict[str, str]:
    when = f"{BASE_EPOCH + step * STEP_SECONDS} +0000"
    name, email = author
    return {
        "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email, "GIT_COMMITTER_DATE": when,
    }


def _apply(repo: Path, git: _Git, op: Op, step: int) -> None:
    if isinstance(op, Write):
        target = repo / op.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(op.content, encoding="utf-8", newline="\n")
    elif isinstance(op, Edit):
        target = repo / op.path
        text = target.read_text(encoding="utf-8")
        if text.count(op.old) != 1:
            raise ValueError(f"step {step}: edit of {op.path}: expected text found {text.count(op.old)} times: {op.old!r}")
        target.write_text(text.replace(op.old, op.new), encoding="utf-8", newline="\n")
    elif isinstance(op, Delete):
        git("rm", "-q", "--", op.path)
    elif isinstance(op, Move):
        (repo / op.dst).parent.mkdir(parents=True, exist_ok=True)
        git("mv", "--", op.src, op.dst)
    else:  # pragma: no cover
        raise TypeError(op)


def build_sample_repo(name: str, dest: Path, upto_step: int | None = None) -> SampleRepo:
    """Build sample ``name`` as a Git repository at ``dest`` (created; must be absent or empty),
    replaying steps 1..``upto_step`` (all by default). Ends with ``main`` checked out."""
    h = load_history(name)
    steps: list[Step] = h.STEPS
    last = len(steps) if upto_step is None else max(0, min(upto_step, len(steps)))
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise FileExistsError(f"{dest} is not empty")
    dest.mkdir(parents=True, exist_ok=True)
    git = _Git(dest)
    git("init", "-q", "--template=", "-b", "main", ".")
    commits: list[SampleCommit] = []
    branches: dict[int, str] = {}
    current = "main"
    known_branches = {"main"}
    for i, step in enumerate(steps[:last], 1):
        env = _identity_env(step.author, i)
        if step.merge:
            if step.ops:
                raise ValueError(f"{name} step {i}: a merge step has no file operations")
            if current != "main":
                git("checkout", "-q", "main")
                current = "main"
            git("merge", "-q", "--no-ff", "--no-edit", "-m", step.message, step.merge, env=env)
        else:
            if step.branch != current:
                if step.branch in known_branches:
                    git("checkout", "-q", step.branch)
                else:
                    git("checkout", "-q", "-b", step.branch, "main")
                    known_branches.add(step.branch)
                current = step.branch
            for op in step.ops:
                _apply(dest, git, op, i)
            git("add", "-A", ".")
            git("commit", "-q", "--no-verify", "-m", step.message, env=env)
        commits.append(SampleCommit(i, git("rev-parse", "HEAD").strip(), step.message))
        branches[i] = "main" if step.merge else step.branch
    if current != "main" and commits:
        git("checkout", "-q", "main")
    facts_path = samples_dir() / name / "facts.json"
    facts = json.loads(facts_path.read_text()) if facts_path.is_file() else {}
    return SampleRepo(name=name, path=dest, commits=commits, branch="main", facts=facts, step_branches=branches)


def write_facts(name: str) -> Path:
    """Write ``facts.json``: the known facts plus the commit hash of every step (builds once)."""
    import tempfile

    facts = sample_facts(name)
    with tempfile.TemporaryDirectory(prefix=f"mnemosyne-sample-{name}-") as tmp:
        repo = build_sample_repo(name, Path(tmp) / name)
        facts["hashes"] = {str(c.step): c.hash for c in repo.commits}
    path = samples_dir() / name / "facts.json"
    path.write_text(json.dumps(facts, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def _main(argv: list[str]) -> int:
    import argparse
    import tempfile
    import time

    ap = argparse.ArgumentParser(prog="python -m mnemosyne.samples", description=__doc__.splitlines()[0])
    ap.add_argument("--write-facts", action="store_true", help="rewrite sample_repos/*/facts.json")
    ap.add_argument("--build", metavar="NAME", help="build a sample into --dest (default: a temp dir)")
    ap.add_argument("--dest", type=Path)
    ap.add_argument("--upto", type=int)
    args = ap.parse_args(argv)
    if args.write_facts:
        for n in list_samples():
            print(write_facts(n))
    if args.build:
        dest = args.dest or Path(tempfile.mkdtemp(prefix=f"{args.build}-"))
        t = time.perf_counter()
        repo = build_sample_repo(args.build, dest, args.upto)
        for c in repo.commits:
            print(f"{c.step:3d} {c.hash[:12]} [{repo.step_branches[c.step]}] {c.message.splitlines()[0]}")
        print(f"built {repo.path} in {time.perf_counter() - t:.2f}s")
    if not (args.write_facts or args.build):
        print("\n".join(list_samples()))
    return 0


if __name__ == "__main__":
    # run through the importable module, so that history.py's Step/W/E/... are the same classes
    from mnemosyne.samples import _main as _real_main

    sys.exit(_real_main(sys.argv[1:]))
