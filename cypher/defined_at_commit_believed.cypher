// Every function, method, lambda and module defined at one commit as believed at wall-clock time $t.
// The transaction-time twin of defined_at_commit (the pycg keys of callgraph_at with as_of_ingest).
// params: $seq (position in the timeline believed at $t), $prefix ('' = all files), $t (epoch seconds),
// $late (hashes of the commits ingested after $t)
MATCH (p)-[d:DEFINES]->(s:Function)
WHERE d.valid_from_seq <= $seq AND d.ingested_at <= $t AND (d.superseded_at IS NULL OR d.superseded_at > $t)
  AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $seq OR d.ended_commit IN $late)
  AND coalesce(d.file, '') STARTS WITH $prefix
RETURN s.fully_qualified_name AS fqn, coalesce(d.kind, s.kind) AS kind, d.file AS file, s.line_start AS line_start
