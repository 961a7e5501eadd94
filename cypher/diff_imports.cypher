// Imports added or removed between two timeline commits $a and $b.
// File -> file and file -> third-party package IMPORTS versions that hold at exactly one of them;
// only importing files starting with $prefix ('' = all).
// params: $a, $b (seqs of the two commits), $lo (min of a, b), $hi (max of a, b), $prefix ('' = all)
// Only versions that began or ended in (lo, hi] can hold at exactly one side: two index range scans.
MATCH (f:File)-[r:IMPORTS]->(t)
WHERE r.valid_from_seq > $lo AND r.valid_from_seq <= $hi AND r.superseded_at IS NULL
WITH f, t, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b)) AS in_b
WHERE in_a <> in_b AND f.path STARTS WITH $prefix
RETURN f.path AS file, coalesce(t.path, t.key) AS target, CASE WHEN t:File THEN 'file' ELSE 'package' END AS target_kind,
       in_a, in_b
UNION ALL
MATCH (f:File)-[r:IMPORTS]->(t)
WHERE r.valid_to_seq > $lo AND r.valid_to_seq <= $hi AND r.valid_from_seq <= $lo AND r.superseded_at IS NULL
WITH f, t, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b)) AS in_b
WHERE in_a <> in_b AND f.path STARTS WITH $prefix
RETURN f.path AS file, coalesce(t.path, t.key) AS target, CASE WHEN t:File THEN 'file' ELSE 'package' END AS target_kind,
       in_a, in_b
