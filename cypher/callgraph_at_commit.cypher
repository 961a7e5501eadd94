// Every CALLS edge that holds at one timeline commit (the whole call graph at $seq).
// params: $seq (timeline position of the commit)
// Index: the CALLS interval index on valid_from_seq.
MATCH (a)-[r:CALLS]->(b)
WHERE r.valid_from_seq <= $seq AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $seq) AND r.superseded_at IS NULL
RETURN a.fully_qualified_name AS caller, b.fully_qualified_name AS callee
