// "As of time T": the last timeline commit (highest seq up to $max_seq) whose committer time is <= $t.
// params: $t (epoch seconds), $max_seq (last ingested seq)
MATCH (c:Commit)
WHERE c.seq >= 0 AND c.seq <= $max_seq AND c.timestamp <= $t
RETURN c.hash AS hash, c.seq AS seq, c.timestamp AS timestamp, c.author AS author, c.message AS message,
       c.superseded_at AS superseded_at, c.old_seq AS old_seq
ORDER BY c.seq DESC
LIMIT 1
