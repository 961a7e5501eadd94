// Every DEFINES version of a symbol as Mnemosyne believed it at wall-clock time $t (transaction
// time), oldest first: recorded by then (ingested_at <= $t), not superseded then (superseded_at IS
// NULL OR > $t); a version closed by a commit ingested after $t (its ended_commit is in $late) was
// still open then (to_seq null).
// params: $fqn (fully qualified name), $t (epoch seconds), $late (hashes of the commits ingested
// after $t: commits_ingested_after)
MATCH (p)-[d:DEFINES]->(s:Function {fully_qualified_name: $fqn})
WHERE d.ingested_at <= $t AND (d.superseded_at IS NULL OR d.superseded_at > $t)
WITH p, d, s, d.ended_commit IN $late AS reopened
RETURN d.valid_from_seq AS from_seq, CASE WHEN reopened THEN null ELSE d.valid_to_seq END AS to_seq, d.file AS file,
       d.signature AS signature, d.docstring AS docstring, s.line_start AS line_start, s.line_end AS line_end,
       d.body_hash AS body_hash, coalesce(p.fully_qualified_name, p.path) AS parent, coalesce(d.kind, s.kind) AS kind,
       d.source_commit AS source_commit, CASE WHEN reopened THEN null ELSE d.ended_commit END AS ended_commit
ORDER BY from_seq
UNION ALL
MATCH (p)-[d:DEFINES]->(s:Class {fully_qualified_name: $fqn})
WHERE d.ingested_at <= $t AND (d.superseded_at IS NULL OR d.superseded_at > $t)
WITH p, d, s, d.ended_commit IN $late AS reopened
RETURN d.valid_from_seq AS from_seq, CASE WHEN reopened THEN null ELSE d.valid_to_seq END AS to_seq, d.file AS file,
       d.signature AS signature, d.docstring AS docstring, s.line_start AS line_start, s.line_end AS line_end,
       d.body_hash AS body_hash, coalesce(p.fully_qualified_name, p.path) AS parent, 'class' AS kind,
       d.source_commit AS source_commit, CASE WHEN reopened THEN null ELSE d.ended_commit END AS ended_commit
ORDER BY from_seq
