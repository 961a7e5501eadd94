// Calls added or removed between two timeline commits $a and $b.
// Returns the CALLS versions that hold at exactly one of $a and $b (in_a / in_b say which), only
// for callers whose file starts with $prefix ('' = all).
// params: $a (seq of the first commit), $b (seq of the second commit), $lo (min of a, b), $hi (max of a, b), $prefix
// A version holds at exactly one of lo and hi iff it began in (lo, hi] or ended in (lo, hi]: two range
// scans of the CALLS interval index (valid_from_seq, then valid_to_seq) read only the versions that
// changed between the two commits, not every version alive in [lo, hi].
// ==== diff_calls_believed ====
// diff_calls as Mnemosyne believed it at wall-clock time $t (transaction time): versions recorded by
// then and not superseded then; one closed by a commit ingested after $t (ended_commit in $late) was
// still open then. $a and $b are positions on the timeline believed at $t.
// params: $a (seq of the first commit on the timeline believed at $t), $b (the second), $lo (min of a, b),
// $hi (max of a, b), $prefix, $t (epoch seconds), $late (hashes of the commits ingested after $t:
// commits_ingested_after)
MATCH (x)-[r:CALLS]->(y)
WHERE @began_in(r, $lo, $hi) AND @believed(r)
WITH x, y, r,
     (@valid_at(r, $a)) AS in_a,
     (@valid_at(r, $b)) AS in_b
WHERE in_a <> in_b AND coalesce(x.file, '') STARTS WITH $prefix
RETURN x.fully_qualified_name AS caller, y.fully_qualified_name AS callee, r.resolution AS resolution,
       r.confidence AS confidence, coalesce(y.external, false) AS external, in_a, in_b
UNION ALL
MATCH (x)-[r:CALLS]->(y)
WHERE @ended_in(r, $lo, $hi) AND r.valid_from_seq <= $lo AND @believed(r)
WITH x, y, r,
     (@valid_at(r, $a)) AS in_a,
     (@valid_at(r, $b)) AS in_b
WHERE in_a <> in_b AND coalesce(x.file, '') STARTS WITH $prefix
RETURN x.fully_qualified_name AS caller, y.fully_qualified_name AS callee, r.resolution AS resolution,
       r.confidence AS confidence, coalesce(y.external, false) AS external, in_a, in_b
