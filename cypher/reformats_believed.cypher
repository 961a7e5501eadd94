// reformats as believed at wall-clock time $t: formatting-only changes of the symbols $fqns recorded by
// a commit ingested by $t and holding that seq then.
// params: $fqns (list of fully qualified names), $t (epoch seconds)
MATCH (c:Commit)-[e:REFORMATS]->(s:Function)
WHERE s.fully_qualified_name IN $fqns AND c.ingested_at <= $t AND (c.superseded_at IS NULL OR c.superseded_at > $t)
  AND coalesce(c.seq, c.old_seq) = e.seq
RETURN s.fully_qualified_name AS fqn, e.seq AS seq
UNION
MATCH (c:Commit)-[e:REFORMATS]->(s:Class)
WHERE s.fully_qualified_name IN $fqns AND c.ingested_at <= $t AND (c.superseded_at IS NULL OR c.superseded_at > $t)
  AND coalesce(c.seq, c.old_seq) = e.seq
RETURN s.fully_qualified_name AS fqn, e.seq AS seq
