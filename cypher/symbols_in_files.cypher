// Functions, methods, modules and classes defined in the files $paths at timeline commit $seq
// (top level, methods and nested definitions: every DEFINES step must hold at $seq).
// params: $paths (list of repo-relative file paths), $seq (timeline position of the commit)
UNWIND $paths AS path
MATCH chain = (f:File {path: path})-[:DEFINES*1..6]->(s)
WHERE all(d IN relationships(chain) WHERE @holds_at(d, $seq))
RETURN DISTINCT s.fully_qualified_name AS fqn, CASE WHEN s:Class THEN 'class' ELSE s.kind END AS kind, f.path AS file
