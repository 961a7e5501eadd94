// The timeline positions in ($lo, $hi] at which a DEFINES version of the symbols $fqns starts (a
// commit changed what is versioned about them: body, signature, docstring, file). diff reads them
// with `reformats` to tell a body change made only of formatting edits.
// params: $fqns (list of fully qualified names), $lo, $hi (timeline positions, $lo < $hi)
MATCH (p)-[d:DEFINES]->(s:Function)
WHERE s.fully_qualified_name IN $fqns AND @believed(d) AND d.valid_from_seq > $lo AND d.valid_from_seq <= $hi
RETURN s.fully_qualified_name AS fqn, d.valid_from_seq AS seq
UNION
MATCH (p)-[d:DEFINES]->(s:Class)
WHERE s.fully_qualified_name IN $fqns AND @believed(d) AND d.valid_from_seq > $lo AND d.valid_from_seq <= $hi
RETURN s.fully_qualified_name AS fqn, d.valid_from_seq AS seq
