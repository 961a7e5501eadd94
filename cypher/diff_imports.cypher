// Imports added or removed between two timeline commits $a and $b.
// File -> file and file -> third-party package IMPORTS versions that hold at exactly one of them;
// only importing files starting with $prefix ('' = all).
// params: $a, $b (seqs of the two commits), $lo (min of a, b), $hi (max of a, b), $prefix ('' = all)
// Only versions that began or ended in (lo, hi] can hold at exactly one side: two index range scans.
// ==== diff_imports_believed ====
// diff_imports as Mnemosyne believed it at wall-clock time $t (transaction time): versions recorded by
// then and not superseded then; one closed by a commit ingested after $t (ended_commit in $late) was
// still open then. $a and $b are positions on the timeline believed at $t.
// params: $a (seq of the first commit on the timeline believed at $t), $b (the second), $lo (min of a, b),
// $hi (max of a, b), $prefix, $t (epoch seconds), $late (hashes of the commits ingested after $t:
// commits_ingested_after)
MATCH (f:File)-[r:IMPORTS]->(t)
WHERE @began_in(r, $lo, $hi) AND @believed(r)
WITH f, t, r,
     (@valid_at(r, $a)) AS in_a,
     (@valid_at(r, $b)) AS in_b
WHERE in_a <> in_b AND f.path STARTS WITH $prefix
RETURN f.path AS file, coalesce(t.path, t.key) AS target, CASE WHEN t:File THEN 'file' ELSE 'package' END AS target_kind,
       in_a, in_b
UNION ALL
MATCH (f:File)-[r:IMPORTS]->(t)
WHERE @ended_in(r, $lo, $hi) AND r.valid_from_seq <= $lo AND @believed(r)
WITH f, t, r,
     (@valid_at(r, $a)) AS in_a,
     (@valid_at(r, $b)) AS in_b
WHERE in_a <> in_b AND f.path STARTS WITH $prefix
RETURN f.path AS file, coalesce(t.path, t.key) AS target, CASE WHEN t:File THEN 'file' ELSE 'package' END AS target_kind,
       in_a, in_b
