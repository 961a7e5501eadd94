// Files present at one timeline commit, optionally under a path prefix.
// A file exists while the DEFINES of its module function holds.
// params: $seq (timeline position of the commit), $prefix ('' = all files)
MATCH (f:File)-[d:DEFINES]->(m:Function)
WHERE @holds_at(d, $seq)
  AND d.kind = 'module' AND f.path STARTS WITH $prefix
RETURN f.path AS path, f.language AS language, m.fully_qualified_name AS module
ORDER BY path
