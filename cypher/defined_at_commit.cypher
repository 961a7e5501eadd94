// Every function, method, lambda and module defined at one timeline commit (the pycg keys).
// A symbol is defined at $seq while one of its DEFINES versions holds; optionally only in files
// starting with $prefix.
// params: $seq (timeline position of the commit), $prefix ('' = all files)
MATCH (p)-[d:DEFINES]->(s:Function)
WHERE d.valid_from_seq <= $seq AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $seq) AND d.superseded_at IS NULL
  AND coalesce(d.file, '') STARTS WITH $prefix
RETURN s.fully_qualified_name AS fqn, coalesce(d.kind, s.kind) AS kind, d.file AS file, s.line_start AS line_start
