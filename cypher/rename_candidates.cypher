// Rename/move partners of a symbol, in one query: the believed DEFINES versions of the other symbols
// with the same short name $name that ended at one of $ends (the symbol appeared there: moved from?)
// or began at one of $begins (the symbol was removed there: moved to?). symbol_history compares
// their body hash and signature. Replaces one symbol_history query per same-named symbol.
// params: $name (short name), $fqn (the symbol itself, excluded), $ends (list of seqs), $begins (list of seqs)
// Index: Function(name) / Class(name), then each candidate's incoming DEFINES are filtered.
MATCH (p)-[d:DEFINES]->(s:Function {name: $name})
WHERE s.fully_qualified_name <> $fqn AND d.superseded_at IS NULL
  AND (d.valid_to_seq IN $ends OR d.valid_from_seq IN $begins)
RETURN s.fully_qualified_name AS fqn, d.valid_from_seq AS from_seq, d.valid_to_seq AS to_seq, d.file AS file,
       d.signature AS signature, d.body_hash AS body_hash
UNION ALL
MATCH (p)-[d:DEFINES]->(s:Class {name: $name})
WHERE s.fully_qualified_name <> $fqn AND d.superseded_at IS NULL
  AND (d.valid_to_seq IN $ends OR d.valid_from_seq IN $begins)
RETURN s.fully_qualified_name AS fqn, d.valid_from_seq AS from_seq, d.valid_to_seq AS to_seq, d.file AS file,
       d.signature AS signature, d.body_hash AS body_hash
