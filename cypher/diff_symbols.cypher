// Symbols added, removed or changed between two timeline commits $a and $b.
// Returns the DEFINES versions that hold at exactly one of them (a symbol in both with different
// signature, file or body changed); only in files starting with $prefix ('' = all).
// params: $a, $b (seqs of the two commits), $lo (min of a, b), $hi (max of a, b), $prefix ('' = all)
// Only versions that began or ended in (lo, hi] can hold at exactly one side: two index range scans.
MATCH (p)-[d:DEFINES]->(s)
WHERE d.valid_from_seq > $lo AND d.valid_from_seq <= $hi AND d.superseded_at IS NULL
WITH p, d, s,
     (d.valid_from_seq <= $a AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $a)) AS in_a,
     (d.valid_from_seq <= $b AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $b)) AS in_b
WHERE in_a <> in_b AND coalesce(d.file, '') STARTS WITH $prefix
RETURN s.fully_qualified_name AS fqn, CASE WHEN s:Class THEN 'class' ELSE coalesce(d.kind, s.kind) END AS kind,
       d.file AS file, d.signature AS signature, d.body_hash AS body_hash, s.line_start AS line_start,
       s.line_end AS line_end, in_a, in_b
UNION ALL
MATCH (p)-[d:DEFINES]->(s)
WHERE d.valid_to_seq > $lo AND d.valid_to_seq <= $hi AND d.valid_from_seq <= $lo AND d.superseded_at IS NULL
WITH p, d, s,
     (d.valid_from_seq <= $a AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $a)) AS in_a,
     (d.valid_from_seq <= $b AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $b)) AS in_b
WHERE in_a <> in_b AND coalesce(d.file, '') STARTS WITH $prefix
RETURN s.fully_qualified_name AS fqn, CASE WHEN s:Class THEN 'class' ELSE coalesce(d.kind, s.kind) END AS kind,
       d.file AS file, d.signature AS signature, d.body_hash AS body_hash, s.line_start AS line_start,
       s.line_end AS line_end, in_a, in_b
