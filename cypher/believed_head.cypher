// The last timeline commit as believed at wall-clock time $t: among the commits ingested by $t and not
// superseded by then, the one with the highest (old) seq. The "HEAD" of transaction-time questions.
// params: $t (epoch seconds)
MATCH (c:Commit)
WHERE @believed_at(c, $t)
  AND coalesce(c.seq, c.old_seq) IS NOT NULL
RETURN c.hash AS hash, coalesce(c.seq, c.old_seq) AS seq, c.timestamp AS timestamp, c.author AS author,
       c.message AS message, c.superseded_at AS superseded_at
ORDER BY seq DESC
LIMIT 1
