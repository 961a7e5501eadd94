// Every believed DEPENDS_ON and LOCKS_VERSION version, oldest first (dependency history).
// DEPENDS_ON = a declared dependency (spec, scope, manifest); LOCKS_VERSION = a locked version
// (lockfile). For one third-party package ($package = its normalised name) or all ($package = '').
// params: $package (normalised package name, '' for every package)
MATCH (p:Package)-[r:DEPENDS_ON]->(t:ThirdPartyPackage)
WHERE @believed(r) AND ($package = '' OR t.name = $package)
RETURN 'depends' AS relation, p.path AS package, t.ecosystem AS ecosystem, t.name AS name, r.spec AS spec,
       r.scope AS scope, null AS version, r.source AS source, r.valid_from_seq AS from_seq, @valid_to_seq(r) AS to_seq
ORDER BY name, from_seq
UNION ALL
MATCH (p:Package)-[r:LOCKS_VERSION]->(v:PackageVersion)
WHERE @believed(r) AND ($package = '' OR v.name = $package)
RETURN 'locks' AS relation, p.path AS package, v.ecosystem AS ecosystem, v.name AS name, null AS spec,
       null AS scope, v.version_string AS version, r.source AS source, r.valid_from_seq AS from_seq, @valid_to_seq(r) AS to_seq
ORDER BY name, from_seq
