// What a function calls at one timeline commit (its outgoing CALLS versions that hold at $seq).
// params: $fqn (caller fully qualified name), $seq (timeline position of the commit)
// Index: Function(fully_qualified_name), then the caller's outgoing edges are filtered by the seq predicate.
// ==== calls_at_commit_believed ====
// What a function calls at one commit, as Mnemosyne believed it at wall-clock time $t (transaction time).
// A version counts when it was recorded by then (ingested_at <= $t), not yet superseded then
// (superseded_at IS NULL OR > $t), and holds at $seq; a version closed by a commit ingested after $t
// (its ended_commit is in $late) was still open at $t.
// params: $fqn (caller fully qualified name), $seq (position of the commit in the timeline believed at $t),
// $t (epoch seconds), $late (hashes of the commits ingested after $t: commits_ingested_after)
// Index: Function(fully_qualified_name), then the caller's outgoing edges are filtered (as calls_at_commit).
MATCH (a:Function {fully_qualified_name: $fqn})-[r:CALLS]->(b)
WHERE @holds_at(r, $seq)
RETURN b.fully_qualified_name AS callee, r.resolution AS resolution, r.confidence AS confidence,
       coalesce(b.external, false) AS external, r.valid_from_seq AS since_seq,
       r.rel_lines AS rel_lines, r.lines_hash AS lines_hash, a.line_start AS caller_line, a.body_hash AS caller_hash,
       a.file AS caller_file
ORDER BY callee
