// Functions and classes with short name $name (any commit); alive = defined at $seq.
// Used for "did you mean" suggestions and for looking a symbol up by its short name.
// params: $name (short name, e.g. 'checkout'), $seq (timeline position of the commit)
// ==== symbols_by_name_believed ====
// Functions and classes with short name $name; alive = defined at $seq as believed at wall-clock time $t.
// The transaction-time twin of symbols_by_name (short-name lookups of get_symbol with as_of_ingest).
// params: $name (short name), $seq (position in the timeline believed at $t), $t (epoch seconds),
// $late (hashes of the commits ingested after $t)
MATCH (s:Function {name: $name})
WHERE coalesce(s.external, false) = false
RETURN s.fully_qualified_name AS fqn, s.kind AS kind, s.file AS file,
       size([(s)<-[d:DEFINES]-() WHERE @holds_at(d, $seq) | 1]) > 0 AS alive
UNION ALL
MATCH (s:Class {name: $name})
WHERE coalesce(s.external, false) = false
RETURN s.fully_qualified_name AS fqn, 'class' AS kind, s.file AS file,
       size([(s)<-[d:DEFINES]-() WHERE @holds_at(d, $seq) | 1]) > 0 AS alive
