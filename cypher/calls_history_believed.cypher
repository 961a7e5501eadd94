// Every CALLS version out of and into a function as believed at wall-clock time $t (transaction
// time), oldest first: see symbol_history_believed for which versions count and when one still held.
// params: $fqn (fully qualified name), $t (epoch seconds), $late (hashes of the commits ingested after $t)
MATCH (a:Function {fully_qualified_name: $fqn})-[r:CALLS]->(b)
WHERE r.ingested_at <= $t AND (r.superseded_at IS NULL OR r.superseded_at > $t)
RETURN 'callee' AS direction, b.fully_qualified_name AS other, r.resolution AS resolution,
       r.confidence AS confidence, r.valid_from_seq AS from_seq,
       CASE WHEN r.ended_commit IN $late THEN null ELSE r.valid_to_seq END AS to_seq
ORDER BY from_seq
UNION ALL
MATCH (a)-[r:CALLS]->(b:Function {fully_qualified_name: $fqn})
WHERE r.ingested_at <= $t AND (r.superseded_at IS NULL OR r.superseded_at > $t)
RETURN 'caller' AS direction, a.fully_qualified_name AS other, r.resolution AS resolution,
       r.confidence AS confidence, r.valid_from_seq AS from_seq,
       CASE WHEN r.ended_commit IN $late THEN null ELSE r.valid_to_seq END AS to_seq
ORDER BY from_seq
