// Every internal function and class name (for fuzzy "did you mean" matching), capped at $limit.
// params: $limit (max rows)
MATCH (s:Function)
WHERE coalesce(s.external, false) = false
RETURN s.fully_qualified_name AS fqn
LIMIT $limit
UNION ALL
MATCH (s:Class)
WHERE coalesce(s.external, false) = false
RETURN s.fully_qualified_name AS fqn
LIMIT $limit
