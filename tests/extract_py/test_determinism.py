"""Facts do not depend on the interpreter's hash seed: the graph of one process (the daemon that
ingested) must equal a fresh parse in another (the invariant checker, `callgraph --from-source`).

Set iteration order follows PYTHONHASHSEED; where resolution meets a cycle, the order it explores
values in decided what got through. The standard library's importlib is cyclic enough to show
it (2 to 11 `sys.pycache_prefix.*` edges by seed before values were settled over cycles).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = r"""
import json, sys
from pathlib import Path
from mnemosyne.extract import extract_tree
from mnemosyne.callgraph import to_pycg
root = Path(sys.argv[1])
files = [(p.relative_to(root.parent).as_posix(), p.read_bytes()) for p in sorted(root.rglob("*.py"))]
print(json.dumps(to_pycg(extract_tree(files)), sort_keys=True))
"""


def _graph(root: Path, seed: int) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(root)], env=env, capture_output=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.slow
def test_call_graph_is_the_same_whatever_the_hash_seed() -> None:
    root = Path(sysconfig.get_paths()["stdlib"]) / "importlib"
    if not (root / "_bootstrap_external.py").is_file():
        pytest.skip("no standard library sources here")
    first = _graph(root, 1)
    assert sum(map(len, first.values())) > 100
    for seed in (4, 7):
        other = _graph(root, seed)
        diff = {k: sorted(set(first.get(k, [])) ^ set(other.get(k, []))) for k in set(first) | set(other)}
        assert not {k: v for k, v in diff.items() if v}, f"seed 1 vs {seed}"
