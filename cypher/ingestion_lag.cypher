// Timeline commits ingested more than $minutes minutes after they were committed.
// Lag = ingested_at - timestamp (both epoch seconds), oldest first.
// params: $minutes (threshold in minutes; 0 lists every ingested commit)
MATCH (c:Commit)
WHERE c.seq >= 0 AND c.ingested_at IS NOT NULL AND c.ingested_at - c.timestamp > $minutes * 60
RETURN c.hash AS hash, c.seq AS seq, c.timestamp AS timestamp, c.ingested_at AS ingested_at,
       c.ingested_at - c.timestamp AS lag_s, c.author AS author, c.message AS message
ORDER BY seq
