// The commits at a list of positions of the timeline believed at wall-clock time $t: ingested by
// then and not superseded then, at their seq then (old_seq for a commit superseded since).
// params: $seqs (list of timeline positions), $t (epoch seconds)
MATCH (c:Commit)
WHERE @believed_at(c, $t) AND coalesce(c.seq, c.old_seq) IN $seqs
RETURN coalesce(c.seq, c.old_seq) AS seq, c.hash AS hash, c.timestamp AS timestamp, c.author AS author,
       c.message AS message
