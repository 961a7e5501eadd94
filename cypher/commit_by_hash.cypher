// One commit by its full hash: seq (null when superseded or off the timeline), time, author, message.
// params: $hash (full 40-hex commit hash)
MATCH (c:Commit {hash: $hash})
RETURN c.hash AS hash, c.seq AS seq, c.timestamp AS timestamp, c.author AS author, c.message AS message,
       c.superseded_at AS superseded_at, c.old_seq AS old_seq
