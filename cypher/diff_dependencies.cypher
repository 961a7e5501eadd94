// Dependencies and locked versions added or removed between two timeline commits $a and $b.
// DEPENDS_ON / LOCKS_VERSION versions that hold at exactly one of them (a changed spec or version
// shows as one removed and one added); only packages whose path starts with $prefix.
// params: $a, $b (seqs of the two commits), $lo (min of a, b), $hi (max of a, b), $prefix ('' = all)
MATCH (p:Package)-[r:DEPENDS_ON]->(t:ThirdPartyPackage)
WHERE r.valid_from_seq <= $hi AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $lo) AND r.superseded_at IS NULL
WITH p, t, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b)) AS in_b
WHERE in_a <> in_b AND p.path STARTS WITH $prefix
RETURN 'depends' AS relation, p.path AS package, t.ecosystem AS ecosystem, t.name AS name, r.spec AS spec,
       r.scope AS scope, null AS version, in_a, in_b
UNION ALL
MATCH (p:Package)-[r:LOCKS_VERSION]->(v:PackageVersion)
WHERE r.valid_from_seq <= $hi AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $lo) AND r.superseded_at IS NULL
WITH p, v, r,
     (r.valid_from_seq <= $a AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $a)) AS in_a,
     (r.valid_from_seq <= $b AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $b)) AS in_b
WHERE in_a <> in_b AND p.path STARTS WITH $prefix
RETURN 'locks' AS relation, p.path AS package, v.ecosystem AS ecosystem, v.name AS name, null AS spec,
       null AS scope, v.version_string AS version, in_a, in_b
