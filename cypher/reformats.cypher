// Formatting-only changes (REFORMATS, recorded by ingestion) of the symbols $fqns: the commit at seq
// changed the body text but not the code (same normalized tokens). Believed: the commit holds that seq.
// params: $fqns (list of fully qualified names)
MATCH (c:Commit)-[e:REFORMATS]->(s:Function) WHERE s.fully_qualified_name IN $fqns AND c.seq = e.seq
RETURN s.fully_qualified_name AS fqn, e.seq AS seq
UNION
MATCH (c:Commit)-[e:REFORMATS]->(s:Class) WHERE s.fully_qualified_name IN $fqns AND c.seq = e.seq
RETURN s.fully_qualified_name AS fqn, e.seq AS seq
