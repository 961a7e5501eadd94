// One commit by its full hash: its timeline position (seq; null when superseded or not on the
// timeline), time, author and message.
// params: $hash (full 40-hex commit hash)
MATCH (c:Commit {hash: $hash})
RETURN c.hash AS hash, c.seq AS seq, c.timestamp AS timestamp, c.author AS author, c.message AS message,
       c.superseded_at AS superseded_at, c.old_seq AS old_seq
