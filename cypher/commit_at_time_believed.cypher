// "As of time $time" in the timeline believed at wall-clock time $t: the believed commit with the highest
// (old) seq up to $max_seq whose committer time is <= $time.
// params: $time (committer time, epoch seconds), $t (belief time, epoch seconds), $max_seq (believed head seq)
MATCH (c:Commit)
WHERE c.timestamp <= $time AND @believed_at(c, $t)
  AND coalesce(c.seq, c.old_seq) <= $max_seq
RETURN c.hash AS hash, coalesce(c.seq, c.old_seq) AS seq, c.timestamp AS timestamp, c.author AS author,
       c.message AS message, c.superseded_at AS superseded_at
ORDER BY seq DESC
LIMIT 1
