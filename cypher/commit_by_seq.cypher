// The timeline commit at one position.
// params: $seq (timeline position)
MATCH (c:Commit {seq: $seq})
RETURN c.hash AS hash, c.seq AS seq, c.timestamp AS timestamp, c.author AS author, c.message AS message,
       c.superseded_at AS superseded_at, c.old_seq AS old_seq
