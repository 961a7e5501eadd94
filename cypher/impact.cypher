// One step of impact analysis: the functions that call any of $fqns at timeline commit $seq.
// The code repeats it breadth-first up to the requested depth, so each symbol is reported once,
// at its shortest call distance.
// params: $fqns (list of fully qualified names), $seq (timeline position of the commit)
UNWIND $fqns AS target
MATCH (a:Function)-[r:CALLS]->(b:Function {fully_qualified_name: target})
WHERE @holds_at(r, $seq)
RETURN DISTINCT a.fully_qualified_name AS caller, b.fully_qualified_name AS callee, a.file AS file
