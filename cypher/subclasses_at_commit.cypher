// The classes inheriting directly from any of $fqns at timeline commit $seq (impact: a change to a
// base class reaches its subclasses, and through them theirs).
// params: $fqns (list of class FQNs), $seq (timeline position of the commit)
UNWIND $fqns AS target
MATCH (s:Class)-[r:INHERITS_FROM]->(c:Class {fully_qualified_name: target})
WHERE @holds_at(r, $seq)
RETURN DISTINCT s.fully_qualified_name AS sub, c.fully_qualified_name AS base, s.file AS file
