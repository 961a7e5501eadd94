// Who calls a function at one timeline commit (incoming CALLS versions that hold at $seq).
// params: $fqn (callee fully qualified name), $seq (timeline position of the commit)
// Index: Function(fully_qualified_name), then the callee's incoming edges are filtered by the seq predicate.
// ==== callers_at_commit_believed ====
// Who calls a function at one commit, as Mnemosyne believed it at wall-clock time $t (transaction time).
// Same belief rule as calls_at_commit_believed: ingested_at <= $t, not superseded by $t, and a version
// closed by a commit ingested after $t (ended_commit in $late) counts as still open.
// params: $fqn (callee fully qualified name), $seq (position in the timeline believed at $t),
// $t (epoch seconds), $late (hashes of the commits ingested after $t)
// Index: Function(fully_qualified_name), then the callee's incoming edges are filtered.
MATCH (a:Function)-[r:CALLS]->(b:Function {fully_qualified_name: $fqn})
WHERE @holds_at(r, $seq)
RETURN a.fully_qualified_name AS caller, r.resolution AS resolution, r.confidence AS confidence,
       coalesce(a.external, false) AS external, r.valid_from_seq AS since_seq,
       r.rel_lines AS rel_lines, r.lines_hash AS lines_hash, a.line_start AS caller_line, a.body_hash AS caller_hash,
       a.file AS caller_file
ORDER BY caller
