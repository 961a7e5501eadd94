// Files that import any of the files $paths at timeline commit $seq (impact of changing a file).
// params: $paths (list of repo-relative file paths), $seq (timeline position of the commit)
UNWIND $paths AS target
MATCH (f:File)-[r:IMPORTS]->(t:File {path: target})
WHERE @holds_at(r, $seq)
RETURN DISTINCT f.path AS importer, t.path AS imported
