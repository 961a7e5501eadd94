"""The graph's words: labels, edge types and property names, defined once (docs/schema.md).

Every module that writes or reads the graph takes its names from here, so a rename is one edit.
"""

from __future__ import annotations

# --- node labels -------------------------------------------------------------------------------
WORKSPACE = "Workspace"
PACKAGE = "Package"
APPLICATION = "Application"
FILE = "File"
CLASS = "Class"
FUNCTION = "Function"
COMMIT = "Commit"
BRANCH = "Branch"
PULL_REQUEST = "PullRequest"
TICKET = "Ticket"
CONSTRAINT = "Constraint"
LOCK = "Lock"
INSIGHT = "Insight"  # a free-form property an agent attached to a symbol (query/insights.py)
THIRD_PARTY_PACKAGE = "ThirdPartyPackage"
PACKAGE_VERSION = "PackageVersion"
DOCUMENT = "Document"
SECTION = "Section"
META = "Meta"  # one node per graph: ingestion progress, embedding model, schema version

# --- versioned edge types (docs/schema.md) -------------------------------------------------------
CALLS = "CALLS"
IMPORTS = "IMPORTS"
INHERITS_FROM = "INHERITS_FROM"
DEFINES = "DEFINES"
DEPENDS_ON = "DEPENDS_ON"
LOCKS_VERSION = "LOCKS_VERSION"
MENTIONS = "MENTIONS"
VERSIONED_EDGES = (CALLS, IMPORTS, INHERITS_FROM, DEFINES, DEPENDS_ON, LOCKS_VERSION)
# documentation versions (docs/search.md): versioned like the code edges (same interval
# properties, a ``vkey``), written by ``search.doc_store.apply_docs`` per timeline commit. Not in
# VERSIONED_EDGES, which are the code facts the invariant checker compares with a fresh parse.
HAS_SECTION = "HAS_SECTION"  # Document -> Section
NEXT = "NEXT"  # Section -> Section (reading order)
DOC_VERSIONED_EDGES = (HAS_SECTION, NEXT)
# every versioned edge type: what the resume rollback and the history-rewrite supersession cover
ALL_VERSIONED_EDGES = VERSIONED_EDGES + DOC_VERSIONED_EDGES

# --- unversioned edge types ----------------------------------------------------------------------
MODIFIES = "MODIFIES"
PARENT = "PARENT"
IN_BRANCH = "IN_BRANCH"
HEAD = "HEAD"
ADDRESSES = "ADDRESSES"
VERSION_OF = "VERSION_OF"
CONTAINS = "CONTAINS"
MERGED_BY = "MERGED_BY"
APPLIES_TO = "APPLIES_TO"
IS_LOCKED_BY = "IS_LOCKED_BY"
# identity across time (timeline/identity.py): facts of a commit, believed while that commit holds
# its seq (a superseded commit's facts are not): (old)-[:RENAMED_TO {commit, seq, kind, similarity}]->(new)
# and (:Commit)-[:REFORMATS {seq}]->(symbol) for a formatting-only body change
RENAMED_TO = "RENAMED_TO"
REFORMATS = "REFORMATS"
DESCRIBES = "DESCRIBES"  # Insight -> Function|Class

# --- version properties (docs/schema.md) ---------------------------------------------------------
VALID_FROM = "valid_from"
VALID_TO = "valid_to"
VALID_FROM_SEQ = "valid_from_seq"
VALID_TO_SEQ = "valid_to_seq"
SOURCE_COMMIT = "source_commit"
ENDED_COMMIT = "ended_commit"
INGESTED_AT = "ingested_at"
SUPERSEDED_AT = "superseded_at"

# --- keys -----------------------------------------------------------------------------------------
FQN = "fully_qualified_name"

# --- languages ------------------------------------------------------------------------------------
PYTHON = "python"
TYPESCRIPT = "typescript"
TSX = "tsx"
JAVASCRIPT = "javascript"

LANGUAGE_BY_SUFFIX: dict[str, str] = {
    ".py": PYTHON,
    ".pyi": PYTHON,
    ".ts": TYPESCRIPT,
    ".mts": TYPESCRIPT,
    ".cts": TYPESCRIPT,
    ".tsx": TSX,
    ".js": JAVASCRIPT,
    ".mjs": JAVASCRIPT,
    ".cjs": JAVASCRIPT,
    ".jsx": JAVASCRIPT,
}

BUILTIN_PREFIX = "<builtin>"

# vector properties (search/vectors.py; carried over to a rebuilt graph by store/switch.py)
EMBEDDING_PROP = "embedding"
#: a Function's or Class's second vector, of its docstring's first sentence (``text.first_sentence``),
#: and the hash it was embedded from; not indexed: hybrid reranks its top candidates by it
SENTENCE_PROP = "sentence_embedding"
SENTENCE_HASH_PROP = "sentence_hash"
