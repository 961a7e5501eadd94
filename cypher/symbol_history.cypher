// Every believed DEFINES version of a symbol, oldest first (its history).
// The code derives appeared / removed / re-added / signature_changed / moved events from them.
// params: $fqn (fully qualified name)
// ==== symbol_history_believed ====
// Every DEFINES version of a symbol as Mnemosyne believed it at wall-clock time $t (transaction
// time), oldest first: recorded by then (ingested_at <= $t), not superseded then (superseded_at IS
// NULL OR > $t); a version closed by a commit ingested after $t (its ended_commit is in $late) was
// still open then (to_seq null).
// params: $fqn (fully qualified name), $t (epoch seconds), $late (hashes of the commits ingested
// after $t: commits_ingested_after)
MATCH (p)-[d:DEFINES]->(s:Function {fully_qualified_name: $fqn})
WHERE @believed(d)
RETURN d.valid_from_seq AS from_seq, @valid_to_seq(d) AS to_seq, d.file AS file, d.signature AS signature,
       d.docstring AS docstring, s.line_start AS line_start, s.line_end AS line_end, d.body_hash AS body_hash,
       coalesce(p.fully_qualified_name, p.path) AS parent, coalesce(d.kind, s.kind) AS kind,
       d.source_commit AS source_commit, @ended_commit(d) AS ended_commit
ORDER BY from_seq
UNION ALL
MATCH (p)-[d:DEFINES]->(s:Class {fully_qualified_name: $fqn})
WHERE @believed(d)
RETURN d.valid_from_seq AS from_seq, @valid_to_seq(d) AS to_seq, d.file AS file, d.signature AS signature,
       d.docstring AS docstring, s.line_start AS line_start, s.line_end AS line_end, d.body_hash AS body_hash,
       coalesce(p.fully_qualified_name, p.path) AS parent, 'class' AS kind,
       d.source_commit AS source_commit, @ended_commit(d) AS ended_commit
ORDER BY from_seq
