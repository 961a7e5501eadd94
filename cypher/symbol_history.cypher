// Every believed DEFINES version of a symbol, oldest first (its history).
// The code derives appeared / removed / re-added / signature_changed / moved events from them.
// params: $fqn (fully qualified name)
MATCH (p)-[d:DEFINES]->(s:Function {fully_qualified_name: $fqn})
WHERE d.superseded_at IS NULL
RETURN d.valid_from_seq AS from_seq, d.valid_to_seq AS to_seq, d.file AS file, d.signature AS signature,
       d.docstring AS docstring, s.line_start AS line_start, s.line_end AS line_end, d.body_hash AS body_hash,
       coalesce(p.fully_qualified_name, p.path) AS parent, coalesce(d.kind, s.kind) AS kind,
       d.source_commit AS source_commit, d.ended_commit AS ended_commit
ORDER BY from_seq
UNION ALL
MATCH (p)-[d:DEFINES]->(s:Class {fully_qualified_name: $fqn})
WHERE d.superseded_at IS NULL
RETURN d.valid_from_seq AS from_seq, d.valid_to_seq AS to_seq, d.file AS file, d.signature AS signature,
       d.docstring AS docstring, s.line_start AS line_start, s.line_end AS line_end, d.body_hash AS body_hash,
       coalesce(p.fully_qualified_name, p.path) AS parent, 'class' AS kind,
       d.source_commit AS source_commit, d.ended_commit AS ended_commit
ORDER BY from_seq
