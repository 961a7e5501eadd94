// Dependencies and locked versions added or removed between two timeline commits $a and $b.
// DEPENDS_ON / LOCKS_VERSION versions that hold at exactly one of them (a changed spec or version
// shows as one removed and one added); only packages whose path starts with $prefix.
// params: $a, $b (seqs of the two commits), $lo (min of a, b), $hi (max of a, b), $prefix ('' = all)
// ==== diff_dependencies_believed ====
// diff_dependencies as Mnemosyne believed it at wall-clock time $t (transaction time): versions recorded by
// then and not superseded then; one closed by a commit ingested after $t (ended_commit in $late) was
// still open then. $a and $b are positions on the timeline believed at $t.
// params: $a (seq of the first commit on the timeline believed at $t), $b (the second), $lo (min of a, b),
// $hi (max of a, b), $prefix, $t (epoch seconds), $late (hashes of the commits ingested after $t:
// commits_ingested_after)
MATCH (p:Package)-[r:DEPENDS_ON]->(t:ThirdPartyPackage)
WHERE r.valid_from_seq <= $hi AND @not_ended(r, $lo) AND @believed(r)
WITH p, t, r,
     (@valid_at(r, $a)) AS in_a,
     (@valid_at(r, $b)) AS in_b
WHERE in_a <> in_b AND p.path STARTS WITH $prefix
RETURN 'depends' AS relation, p.path AS package, t.ecosystem AS ecosystem, t.name AS name, r.spec AS spec,
       r.scope AS scope, null AS version, in_a, in_b
UNION ALL
MATCH (p:Package)-[r:LOCKS_VERSION]->(v:PackageVersion)
WHERE r.valid_from_seq <= $hi AND @not_ended(r, $lo) AND @believed(r)
WITH p, v, r,
     (@valid_at(r, $a)) AS in_a,
     (@valid_at(r, $b)) AS in_b
WHERE in_a <> in_b AND p.path STARTS WITH $prefix
RETURN 'locks' AS relation, p.path AS package, v.ecosystem AS ecosystem, v.name AS name, null AS spec,
       null AS scope, v.version_string AS version, in_a, in_b
