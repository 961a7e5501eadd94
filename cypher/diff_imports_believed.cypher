// diff_imports as Mnemosyne believed it at wall-clock time $t (transaction time): versions recorded by
// then and not superseded then; one closed by a commit ingested after $t (ended_commit in $late) was
// still open then. $a and $b are positions on the timeline believed at $t.
// params: $a (seq of the first commit on the timeline believed at $t), $b (the second), $lo (min of a, b),
// $hi (max of a, b), $prefix, $t (epoch seconds), $late (hashes of the commits ingested after $t:
// commits_ingested_after)
MATCH (f:File)-[r:IMPORTS]->(t)
WHERE r.valid_from_seq > $lo AND r.valid_from_seq <= $hi
  AND r.ingested_at <= $t AND (r.superseded_at IS NULL OR r.superseded_at > $t)
WITH f, t, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a OR r.ended_commit IN $late)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b OR r.ended_commit IN $late)) AS in_b
WHERE in_a <> in_b AND f.path STARTS WITH $prefix
RETURN f.path AS file, coalesce(t.path, t.key) AS target, CASE WHEN t:File THEN 'file' ELSE 'package' END AS target_kind,
       in_a, in_b
UNION ALL
MATCH (f:File)-[r:IMPORTS]->(t)
WHERE r.valid_to_seq > $lo AND r.valid_to_seq <= $hi AND r.valid_from_seq <= $lo
  AND r.ingested_at <= $t AND (r.superseded_at IS NULL OR r.superseded_at > $t)
WITH f, t, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a OR r.ended_commit IN $late)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b OR r.ended_commit IN $late)) AS in_b
WHERE in_a <> in_b AND f.path STARTS WITH $prefix
RETURN f.path AS file, coalesce(t.path, t.key) AS target, CASE WHEN t:File THEN 'file' ELSE 'package' END AS target_kind,
       in_a, in_b
