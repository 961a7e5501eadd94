// Symbols added, removed or changed between two timeline commits $a and $b.
// Returns the DEFINES versions that hold at exactly one of them (a symbol in both with different
// signature, file or body changed); only in files starting with $prefix ('' = all).
// params: $a, $b (seqs of the two commits), $lo (min of a, b), $hi (max of a, b), $prefix ('' = all)
// Only versions that began or ended in (lo, hi] can hold at exactly one side: two index range scans.
// ==== diff_symbols_believed ====
// diff_symbols as Mnemosyne believed it at wall-clock time $t (transaction time): versions recorded by
// then and not superseded then; one closed by a commit ingested after $t (ended_commit in $late) was
// still open then. $a and $b are positions on the timeline believed at $t.
// params: $a (seq of the first commit on the timeline believed at $t), $b (the second), $lo (min of a, b),
// $hi (max of a, b), $prefix, $t (epoch seconds), $late (hashes of the commits ingested after $t:
// commits_ingested_after)
MATCH (p)-[d:DEFINES]->(s)
WHERE @began_in(d, $lo, $hi) AND @believed(d)
WITH p, d, s,
     (@valid_at(d, $a)) AS in_a,
     (@valid_at(d, $b)) AS in_b
WHERE in_a <> in_b AND coalesce(d.file, '') STARTS WITH $prefix
RETURN s.fully_qualified_name AS fqn, CASE WHEN s:Class THEN 'class' ELSE coalesce(d.kind, s.kind) END AS kind,
       d.file AS file, d.signature AS signature, d.body_hash AS body_hash, s.line_start AS line_start,
       s.line_end AS line_end, in_a, in_b
UNION ALL
MATCH (p)-[d:DEFINES]->(s)
WHERE @ended_in(d, $lo, $hi) AND d.valid_from_seq <= $lo AND @believed(d)
WITH p, d, s,
     (@valid_at(d, $a)) AS in_a,
     (@valid_at(d, $b)) AS in_b
WHERE in_a <> in_b AND coalesce(d.file, '') STARTS WITH $prefix
RETURN s.fully_qualified_name AS fqn, CASE WHEN s:Class THEN 'class' ELSE coalesce(d.kind, s.kind) END AS kind,
       d.file AS file, d.signature AS signature, d.body_hash AS body_hash, s.line_start AS line_start,
       s.line_end AS line_end, in_a, in_b
