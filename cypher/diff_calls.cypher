// Calls added or removed between two timeline commits $a and $b.
// Returns the CALLS versions that hold at exactly one of $a and $b (in_a / in_b say which), only
// for callers whose file starts with $prefix ('' = all).
// params: $a (seq of the first commit), $b (seq of the second commit), $lo (min of a, b), $hi (max of a, b), $prefix
// A version holds at exactly one of lo and hi iff it began in (lo, hi] or ended in (lo, hi]: two range
// scans of the CALLS interval index (valid_from_seq, then valid_to_seq) read only the versions that
// changed between the two commits, not every version alive in [lo, hi].
MATCH (x)-[r:CALLS]->(y)
WHERE r.valid_from_seq > $lo AND r.valid_from_seq <= $hi AND r.superseded_at IS NULL
WITH x, y, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b)) AS in_b
WHERE in_a <> in_b AND coalesce(x.file, '') STARTS WITH $prefix
RETURN x.fully_qualified_name AS caller, y.fully_qualified_name AS callee, r.resolution AS resolution,
       r.confidence AS confidence, coalesce(y.external, false) AS external, in_a, in_b
UNION ALL
MATCH (x)-[r:CALLS]->(y)
WHERE r.valid_to_seq > $lo AND r.valid_to_seq <= $hi AND r.valid_from_seq <= $lo AND r.superseded_at IS NULL
WITH x, y, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b)) AS in_b
WHERE in_a <> in_b AND coalesce(x.file, '') STARTS WITH $prefix
RETURN x.fully_qualified_name AS caller, y.fully_qualified_name AS callee, r.resolution AS resolution,
       r.confidence AS confidence, coalesce(y.external, false) AS external, in_a, in_b
