// Every CALLS edge that held at one commit as Mnemosyne believed it at wall-clock time $t.
// Belief rule: ingested_at <= $t, superseded_at IS NULL OR > $t, closed only by a commit ingested by $t.
// params: $seq (position in the timeline believed at $t), $t (epoch seconds), $late (hashes of the
// commits ingested after $t)
// Index: the CALLS interval index on valid_from_seq.
MATCH (a)-[r:CALLS]->(b)
WHERE r.valid_from_seq <= $seq AND r.ingested_at <= $t AND (r.superseded_at IS NULL OR r.superseded_at > $t)
  AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $seq OR r.ended_commit IN $late)
RETURN a.fully_qualified_name AS caller, b.fully_qualified_name AS callee
