// rename_candidates as believed at wall-clock time $t (transaction time): the DEFINES versions
// recorded by then and not superseded then; one closed by a commit ingested after $t had not ended.
// params: $name (short name), $fqn (the symbol itself, excluded), $ends (list of seqs), $begins (list of seqs),
// $t (epoch seconds), $late (hashes of the commits ingested after $t)
MATCH (p)-[d:DEFINES]->(s:Function {name: $name})
WHERE s.fully_qualified_name <> $fqn AND d.ingested_at <= $t AND (d.superseded_at IS NULL OR d.superseded_at > $t)
WITH s, d, CASE WHEN d.ended_commit IN $late THEN null ELSE d.valid_to_seq END AS to_seq
WHERE to_seq IN $ends OR d.valid_from_seq IN $begins
RETURN s.fully_qualified_name AS fqn, d.valid_from_seq AS from_seq, to_seq, d.file AS file,
       d.signature AS signature, d.body_hash AS body_hash
UNION ALL
MATCH (p)-[d:DEFINES]->(s:Class {name: $name})
WHERE s.fully_qualified_name <> $fqn AND d.ingested_at <= $t AND (d.superseded_at IS NULL OR d.superseded_at > $t)
WITH s, d, CASE WHEN d.ended_commit IN $late THEN null ELSE d.valid_to_seq END AS to_seq
WHERE to_seq IN $ends OR d.valid_from_seq IN $begins
RETURN s.fully_qualified_name AS fqn, d.valid_from_seq AS from_seq, to_seq, d.file AS file,
       d.signature AS signature, d.body_hash AS body_hash
