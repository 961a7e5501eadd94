// diff_dependencies as Mnemosyne believed it at wall-clock time $t (transaction time): versions recorded by
// then and not superseded then; one closed by a commit ingested after $t (ended_commit in $late) was
// still open then. $a and $b are positions on the timeline believed at $t.
// params: $a (seq of the first commit on the timeline believed at $t), $b (the second), $lo (min of a, b),
// $hi (max of a, b), $prefix, $t (epoch seconds), $late (hashes of the commits ingested after $t:
// commits_ingested_after)
MATCH (p:Package)-[r:DEPENDS_ON]->(t:ThirdPartyPackage)
WHERE r.valid_from_seq <= $hi AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $lo OR r.ended_commit IN $late)
  AND r.ingested_at <= $t AND (r.superseded_at IS NULL OR r.superseded_at > $t)
WITH p, t, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a OR r.ended_commit IN $late)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b OR r.ended_commit IN $late)) AS in_b
WHERE in_a <> in_b AND p.path STARTS WITH $prefix
RETURN 'depends' AS relation, p.path AS package, t.ecosystem AS ecosystem, t.name AS name, r.spec AS spec,
       r.scope AS scope, null AS version, in_a, in_b
UNION ALL
MATCH (p:Package)-[r:LOCKS_VERSION]->(v:PackageVersion)
WHERE r.valid_from_seq <= $hi AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $lo OR r.ended_commit IN $late)
  AND r.ingested_at <= $t AND (r.superseded_at IS NULL OR r.superseded_at > $t)
WITH p, v, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a OR r.ended_commit IN $late)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b OR r.ended_commit IN $late)) AS in_b
WHERE in_a <> in_b AND p.path STARTS WITH $prefix
RETURN 'locks' AS relation, p.path AS package, v.ecosystem AS ecosystem, v.name AS name, null AS spec,
       null AS scope, v.version_string AS version, in_a, in_b
