// The methods of the classes $fqns at timeline commit $seq, and what those methods nest (impact: a
// change to a class reaches the callers of its methods; every DEFINES step must hold at $seq).
// params: $fqns (list of class FQNs), $seq (timeline position of the commit)
UNWIND $fqns AS target
MATCH chain = (c:Class {fully_qualified_name: target})-[:DEFINES*1..5]->(m:Function)
WHERE all(d IN relationships(chain) WHERE @holds_at(d, $seq))
RETURN DISTINCT c.fully_qualified_name AS cls, m.fully_qualified_name AS member
