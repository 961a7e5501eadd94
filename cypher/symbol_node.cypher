// Whether a symbol node exists at all (any commit) and whether it is external (library/builtin).
// params: $fqn (fully qualified name)
MATCH (s:Function {fully_qualified_name: $fqn})
RETURN s.fully_qualified_name AS fqn, 'Function' AS label, coalesce(s.external, false) AS external, s.kind AS kind
UNION ALL
MATCH (s:Class {fully_qualified_name: $fqn})
RETURN s.fully_qualified_name AS fqn, 'Class' AS label, coalesce(s.external, false) AS external, 'class' AS kind
