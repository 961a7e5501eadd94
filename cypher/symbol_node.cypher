// Whether a node with this fully qualified name exists at all (any commit), and whether it is an
// external (library/builtin) callee.
// params: $fqn (fully qualified name)
MATCH (s:Function {fully_qualified_name: $fqn})
RETURN s.fully_qualified_name AS fqn, 'Function' AS label, coalesce(s.external, false) AS external, s.kind AS kind
UNION
MATCH (s:Class {fully_qualified_name: $fqn})
RETURN s.fully_qualified_name AS fqn, 'Class' AS label, coalesce(s.external, false) AS external, 'class' AS kind
