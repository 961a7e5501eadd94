// Every believed CALLS version out of and into a function, oldest first (calls gained/lost).
// direction 'callee': what $fqn called; direction 'caller': who called $fqn. The code derives
// "calls gained" / "calls lost" events from the intervals.
// params: $fqn (fully qualified name)
MATCH (a:Function {fully_qualified_name: $fqn})-[r:CALLS]->(b)
WHERE r.superseded_at IS NULL
RETURN 'callee' AS direction, b.fully_qualified_name AS other, r.resolution AS resolution,
       r.confidence AS confidence, r.valid_from_seq AS from_seq, r.valid_to_seq AS to_seq
ORDER BY from_seq
UNION ALL
MATCH (a)-[r:CALLS]->(b:Function {fully_qualified_name: $fqn})
WHERE r.superseded_at IS NULL
RETURN 'caller' AS direction, a.fully_qualified_name AS other, r.resolution AS resolution,
       r.confidence AS confidence, r.valid_from_seq AS from_seq, r.valid_to_seq AS to_seq
ORDER BY from_seq
