// One commit by its full hash as believed at wall-clock time $t: its seq then (old_seq for a commit
// superseded since), and whether it was on the timeline then (ingested by $t, not superseded by $t).
// params: $hash (full 40-hex commit hash), $t (epoch seconds)
MATCH (c:Commit {hash: $hash})
RETURN c.hash AS hash, coalesce(c.seq, c.old_seq) AS seq, c.timestamp AS timestamp, c.author AS author,
       c.message AS message, c.superseded_at AS superseded_at,
       (@believed_at(c, $t)) AS believed
