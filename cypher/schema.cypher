// Indexes of every workspace graph (storage layout: docs/schema.md).
// Applied by Graph.ensure_schema(): it reads CALL db.indexes() and creates only what is missing,
// so this file may grow; never rename a property here without a migration.
// One statement per ';'-terminated block. Several properties in one range-index statement are
// independent single-property indexes (FalkorDB has no composite index).
// Vector indexes (Function/Class/Commit embedding) are NOT here: the search layer creates them
// at run time because their dimension depends on the embedding model.

// ---- node range indexes (stable keys and lookups) ----
CREATE INDEX FOR (w:Workspace) ON (w.name);
CREATE INDEX FOR (m:Meta) ON (m.key);
CREATE INDEX FOR (f:File) ON (f.path);
CREATE INDEX FOR (f:Function) ON (f.fully_qualified_name, f.name, f.file);
CREATE INDEX FOR (c:Class) ON (c.fully_qualified_name, c.name);
CREATE INDEX FOR (c:Commit) ON (c.hash, c.seq, c.timestamp);
CREATE INDEX FOR (p:Package) ON (p.name, p.path);
CREATE INDEX FOR (a:Application) ON (a.path);
CREATE INDEX FOR (t:ThirdPartyPackage) ON (t.name, t.key);
CREATE INDEX FOR (v:PackageVersion) ON (v.key);
CREATE INDEX FOR (b:Branch) ON (b.name);
CREATE INDEX FOR (t:Ticket) ON (t.key);
CREATE INDEX FOR (p:PullRequest) ON (p.number);
CREATE INDEX FOR (d:Document) ON (d.path);
CREATE INDEX FOR (s:Section) ON (s.key);
CREATE INDEX FOR (l:Lock) ON (l.id);
CREATE INDEX FOR (c:Constraint) ON (c.id);
CREATE INDEX FOR (i:Insight) ON (i.id, i.target, i.key, i.agent_id);

// ---- versioned edge interval indexes ("holds at seq s") ----
CREATE INDEX FOR ()-[r:CALLS]-() ON (r.valid_from_seq, r.valid_to_seq);
CREATE INDEX FOR ()-[r:IMPORTS]-() ON (r.valid_from_seq, r.valid_to_seq);
CREATE INDEX FOR ()-[r:INHERITS_FROM]-() ON (r.valid_from_seq, r.valid_to_seq);
CREATE INDEX FOR ()-[r:DEFINES]-() ON (r.valid_from_seq, r.valid_to_seq);
CREATE INDEX FOR ()-[r:DEPENDS_ON]-() ON (r.valid_from_seq, r.valid_to_seq);
CREATE INDEX FOR ()-[r:LOCKS_VERSION]-() ON (r.valid_from_seq, r.valid_to_seq);
CREATE INDEX FOR ()-[r:HAS_SECTION]-() ON (r.valid_from_seq, r.valid_to_seq);
CREATE INDEX FOR ()-[r:NEXT]-() ON (r.valid_from_seq, r.valid_to_seq);

// ---- full-text indexes (one per label; query with db.idx.fulltext.queryNodes(label, q)) ----
// search_text holds identifiers pre-split (getUserById -> get user by id): the tokenizer splits
// on '.', '/', '-' and spaces but not on '_' or camelCase.
CREATE FULLTEXT INDEX FOR (f:Function) ON (f.search_text, f.name, f.docstring);
CREATE FULLTEXT INDEX FOR (c:Class) ON (c.search_text, c.name, c.docstring);
CREATE FULLTEXT INDEX FOR (c:Commit) ON (c.message);
CREATE FULLTEXT INDEX FOR (t:Ticket) ON (t.title);
CREATE FULLTEXT INDEX FOR (s:Section) ON (s.text, s.search_text);
CREATE FULLTEXT INDEX FOR (i:Insight) ON (i.search_text);
