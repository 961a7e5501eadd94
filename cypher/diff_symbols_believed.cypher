// diff_symbols as Mnemosyne believed it at wall-clock time $t (transaction time): versions recorded by
// then and not superseded then; one closed by a commit ingested after $t (ended_commit in $late) was
// still open then. $a and $b are positions on the timeline believed at $t.
// params: $a (seq of the first commit on the timeline believed at $t), $b (the second), $lo (min of a, b),
// $hi (max of a, b), $prefix, $t (epoch seconds), $late (hashes of the commits ingested after $t:
// commits_ingested_after)
MATCH (p)-[d:DEFINES]->(s)
WHERE d.valid_from_seq > $lo AND d.valid_from_seq <= $hi
  AND d.ingested_at <= $t AND (d.superseded_at IS NULL OR d.superseded_at > $t)
WITH p, d, s,
     (d.valid_from_seq <= $a AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $a OR d.ended_commit IN $late)) AS in_a,
     (d.valid_from_seq <= $b AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $b OR d.ended_commit IN $late)) AS in_b
WHERE in_a <> in_b AND coalesce(d.file, '') STARTS WITH $prefix
RETURN s.fully_qualified_name AS fqn, CASE WHEN s:Class THEN 'class' ELSE coalesce(d.kind, s.kind) END AS kind,
       d.file AS file, d.signature AS signature, d.body_hash AS body_hash, s.line_start AS line_start,
       s.line_end AS line_end, in_a, in_b
UNION ALL
MATCH (p)-[d:DEFINES]->(s)
WHERE d.valid_to_seq > $lo AND d.valid_to_seq <= $hi AND d.valid_from_seq <= $lo
  AND d.ingested_at <= $t AND (d.superseded_at IS NULL OR d.superseded_at > $t)
WITH p, d, s,
     (d.valid_from_seq <= $a AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $a OR d.ended_commit IN $late)) AS in_a,
     (d.valid_from_seq <= $b AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $b OR d.ended_commit IN $late)) AS in_b
WHERE in_a <> in_b AND coalesce(d.file, '') STARTS WITH $prefix
RETURN s.fully_qualified_name AS fqn, CASE WHEN s:Class THEN 'class' ELSE coalesce(d.kind, s.kind) END AS kind,
       d.file AS file, d.signature AS signature, d.body_hash AS body_hash, s.line_start AS line_start,
       s.line_end AS line_end, in_a, in_b
