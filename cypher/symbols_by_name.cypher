// Functions and classes with short name $name (any commit); alive = defined at $seq.
// Used for "did you mean" suggestions and for looking a symbol up by its short name.
// params: $name (short name, e.g. 'checkout'), $seq (timeline position of the commit)
MATCH (s:Function {name: $name})
WHERE coalesce(s.external, false) = false
RETURN s.fully_qualified_name AS fqn, s.kind AS kind, s.file AS file,
       size([(s)<-[d:DEFINES]-() WHERE d.valid_from_seq <= $seq AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $seq) AND d.superseded_at IS NULL | 1]) > 0 AS alive
UNION ALL
MATCH (s:Class {name: $name})
WHERE coalesce(s.external, false) = false
RETURN s.fully_qualified_name AS fqn, 'class' AS kind, s.file AS file,
       size([(s)<-[d:DEFINES]-() WHERE d.valid_from_seq <= $seq AND (d.valid_to_seq IS NULL OR d.valid_to_seq > $seq) AND d.superseded_at IS NULL | 1]) > 0 AS alive
