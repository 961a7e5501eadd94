// Every CALLS edge that holds at one timeline commit (the whole call graph at $seq).
// params: $seq (timeline position of the commit)
// Index: the CALLS interval index on valid_from_seq.
// ==== callgraph_at_commit_believed ====
// Every CALLS edge that held at one commit as Mnemosyne believed it at wall-clock time $t.
// Belief rule: ingested_at <= $t, superseded_at IS NULL OR > $t, closed only by a commit ingested by $t.
// params: $seq (position in the timeline believed at $t), $t (epoch seconds), $late (hashes of the
// commits ingested after $t)
// Index: the CALLS interval index on valid_from_seq.
MATCH (a)-[r:CALLS]->(b)
WHERE @holds_at(r, $seq)
RETURN a.fully_qualified_name AS caller, b.fully_qualified_name AS callee
