// A function, method, module or class as it was at one timeline commit.
// The DEFINES version that holds at $seq carries its file, signature, docstring, line range and
// body hash at that commit; callers/callees count the CALLS that hold at $seq.
// params: $fqn (fully qualified name), $seq (timeline position of the commit)
// (Each pattern comprehension needs its own edge variable name: FalkorDB 4.16 mixes up reused ones.)
// ==== symbol_at_commit_believed ====
// A function, method, module or class at one commit, as Mnemosyne believed it at wall-clock time $t.
// As symbol_at_commit, with the belief rule on the DEFINES version and on the counted CALLS:
// ingested_at <= $t, superseded_at IS NULL OR > $t, and closed only by a commit ingested by $t.
// params: $fqn (fully qualified name), $seq (position in the timeline believed at $t), $t (epoch seconds),
// $late (hashes of the commits ingested after $t)
MATCH (p)-[d:DEFINES]->(s:Function {fully_qualified_name: $fqn})
WHERE @holds_at(d, $seq)
RETURN s.fully_qualified_name AS fqn, 'Function' AS label, s.name AS name, coalesce(d.kind, s.kind) AS kind,
       d.file AS file, d.signature AS signature, d.docstring AS docstring, s.line_start AS line_start,
       s.line_end AS line_end, d.body_hash AS body_hash, coalesce(p.fully_qualified_name, p.path) AS parent,
       size([(s)-[out:CALLS]->() WHERE @holds_at(out, $seq) | 1]) AS callees,
       size([(s)<-[inc:CALLS]-() WHERE @holds_at(inc, $seq) | 1]) AS callers,
       d.valid_from_seq AS since_seq, d.complexity AS complexity, d.loc AS loc, d.params AS params,
       d.nesting AS nesting
UNION ALL
MATCH (p)-[d:DEFINES]->(s:Class {fully_qualified_name: $fqn})
WHERE @holds_at(d, $seq)
RETURN s.fully_qualified_name AS fqn, 'Class' AS label, s.name AS name, 'class' AS kind,
       d.file AS file, d.signature AS signature, d.docstring AS docstring, s.line_start AS line_start,
       s.line_end AS line_end, d.body_hash AS body_hash, coalesce(p.fully_qualified_name, p.path) AS parent,
       0 AS callees,
       size([(s)<-[inc:CALLS]-() WHERE @holds_at(inc, $seq) | 1]) AS callers,
       d.valid_from_seq AS since_seq, d.complexity AS complexity, d.loc AS loc, d.params AS params,
       d.nesting AS nesting
