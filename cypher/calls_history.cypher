// Every believed CALLS version out of and into a function, oldest first (calls gained/lost).
// direction 'callee': what $fqn called; direction 'caller': who called $fqn. The code derives
// "calls gained" / "calls lost" events from the intervals.
// params: $fqn (fully qualified name)
// ==== calls_history_believed ====
// Every CALLS version out of and into a function as believed at wall-clock time $t (transaction
// time), oldest first: see symbol_history_believed for which versions count and when one still held.
// params: $fqn (fully qualified name), $t (epoch seconds), $late (hashes of the commits ingested after $t)
MATCH (a:Function {fully_qualified_name: $fqn})-[r:CALLS]->(b)
WHERE @believed(r)
RETURN 'callee' AS direction, b.fully_qualified_name AS other, r.resolution AS resolution,
       r.confidence AS confidence, r.valid_from_seq AS from_seq, @valid_to_seq(r) AS to_seq
ORDER BY from_seq
UNION ALL
MATCH (a)-[r:CALLS]->(b:Function {fully_qualified_name: $fqn})
WHERE @believed(r)
RETURN 'caller' AS direction, a.fully_qualified_name AS other, r.resolution AS resolution,
       r.confidence AS confidence, r.valid_from_seq AS from_seq, @valid_to_seq(r) AS to_seq
ORDER BY from_seq
