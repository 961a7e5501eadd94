// Timeline commits at a list of positions (used to put hash, author and time on history events).
// params: $seqs (list of timeline positions)
UNWIND $seqs AS s
MATCH (c:Commit {seq: s})
RETURN c.seq AS seq, c.hash AS hash, c.timestamp AS timestamp, c.author AS author, c.message AS message
