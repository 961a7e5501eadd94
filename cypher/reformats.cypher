// Formatting-only changes (REFORMATS, recorded by ingestion) of the symbols $fqns: the commit at seq
// changed the body text but not the code (same normalized tokens). Believed: the commit holds that seq.
// params: $fqns (list of fully qualified names)
// ==== reformats_believed ====
// reformats as believed at wall-clock time $t: formatting-only changes of the symbols $fqns recorded by
// a commit ingested by $t and holding that seq then.
// params: $fqns (list of fully qualified names), $t (epoch seconds)
MATCH (c:Commit)-[e:REFORMATS]->(s:Function) WHERE s.fully_qualified_name IN $fqns AND @commit_at(c, e.seq)
RETURN s.fully_qualified_name AS fqn, e.seq AS seq
UNION
MATCH (c:Commit)-[e:REFORMATS]->(s:Class) WHERE s.fully_qualified_name IN $fqns AND @commit_at(c, e.seq)
RETURN s.fully_qualified_name AS fqn, e.seq AS seq
