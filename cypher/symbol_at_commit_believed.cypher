// A function, method, module or class at one commit, as Mnemosyne believed it at wall-clock time $t.
// As symbol_at_commit, with the belief rule on the DEFINES version and on the counted CALLS:
// ingested_at <= $t, superseded_at IS NULL OR > $t, and closed only by a commit ingested by $t.
// params: $fqn (fully qualified name), $seq (position in the timeline believed at $t), $t (epoch seconds),
// $late (hashes of the commits ingested after $t)
MATCH (p)-[d:DEFINES]->(s:Function {fully_qualified_name: $fqn})
WHERE d.valid_from_seq <= $seq AND d.ingested_at <= $t AND (d.superseded_at IS NULL OR d.superseded_at > $t)
  AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $seq OR d.ended_commit IN $late)
RETURN s.fully_qualified_name AS fqn, 'Function' AS label, s.name AS name, coalesce(d.kind, s.kind) AS kind,
       d.file AS file, d.signature AS signature, d.docstring AS docstring, s.line_start AS line_start,
       s.line_end AS line_end, d.body_hash AS body_hash, coalesce(p.fully_qualified_name, p.path) AS parent,
       size([(s)-[out:CALLS]->() WHERE out.valid_from_seq <= $seq AND out.ingested_at <= $t AND (out.superseded_at IS NULL OR out.superseded_at > $t) AND (out.valid_to_seq IS NULL OR out.valid_to_seq > $seq OR out.ended_commit IN $late) | 1]) AS callees,
       size([(s)<-[inc:CALLS]-() WHERE inc.valid_from_seq <= $seq AND inc.ingested_at <= $t AND (inc.superseded_at IS NULL OR inc.superseded_at > $t) AND (inc.valid_to_seq IS NULL OR inc.valid_to_seq > $seq OR inc.ended_commit IN $late) | 1]) AS callers,
       d.valid_from_seq AS since_seq, d.complexity AS complexity, d.loc AS loc, d.params AS params,
       d.nesting AS nesting
UNION ALL
MATCH (p)-[d:DEFINES]->(s:Class {fully_qualified_name: $fqn})
WHERE d.valid_from_seq <= $seq AND d.ingested_at <= $t AND (d.superseded_at IS NULL OR d.superseded_at > $t)
  AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $seq OR d.ended_commit IN $late)
RETURN s.fully_qualified_name AS fqn, 'Class' AS label, s.name AS name, 'class' AS kind,
       d.file AS file, d.signature AS signature, d.docstring AS docstring, s.line_start AS line_start,
       s.line_end AS line_end, d.body_hash AS body_hash, coalesce(p.fully_qualified_name, p.path) AS parent,
       0 AS callees,
       size([(s)<-[inc:CALLS]-() WHERE inc.valid_from_seq <= $seq AND inc.ingested_at <= $t AND (inc.superseded_at IS NULL OR inc.superseded_at > $t) AND (inc.valid_to_seq IS NULL OR inc.valid_to_seq > $seq OR inc.ended_commit IN $late) | 1]) AS callers,
       d.valid_from_seq AS since_seq, d.complexity AS complexity, d.loc AS loc, d.params AS params,
       d.nesting AS nesting
