// Every function, method, lambda and module defined at one timeline commit (the pycg keys).
// A symbol is defined at $seq while one of its DEFINES versions holds; optionally only in files
// starting with $prefix.
// params: $seq (timeline position of the commit), $prefix ('' = all files)
// ==== defined_at_commit_believed ====
// Every function, method, lambda and module defined at one commit as believed at wall-clock time $t.
// The transaction-time twin of defined_at_commit (the pycg keys of callgraph_at with as_of_ingest).
// params: $seq (position in the timeline believed at $t), $prefix ('' = all files), $t (epoch seconds),
// $late (hashes of the commits ingested after $t)
MATCH (p)-[d:DEFINES]->(s:Function)
WHERE @holds_at(d, $seq)
  AND coalesce(d.file, '') STARTS WITH $prefix
RETURN s.fully_qualified_name AS fqn, coalesce(d.kind, s.kind) AS kind, d.file AS file, s.line_start AS line_start
