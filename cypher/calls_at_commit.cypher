// What a function calls at one timeline commit (its outgoing CALLS versions that hold at $seq).
// params: $fqn (caller fully qualified name), $seq (timeline position of the commit)
// Index: Function(fully_qualified_name), then the caller's outgoing edges are filtered by the seq predicate.
MATCH (a:Function {fully_qualified_name: $fqn})-[r:CALLS]->(b)
WHERE r.valid_from_seq <= $seq AND (r.valid_to_seq IS NULL OR r.valid_to_seq > $seq) AND r.superseded_at IS NULL
RETURN b.fully_qualified_name AS callee, r.resolution AS resolution, r.confidence AS confidence,
       coalesce(b.external, false) AS external, r.valid_from_seq AS since_seq,
       r.rel_lines AS rel_lines, r.lines_hash AS lines_hash, a.line_start AS caller_line, a.body_hash AS caller_hash,
       a.file AS caller_file
ORDER BY callee
