// Every rename and move (RENAMED_TO) recorded by the commits at the timeline positions $seqs (believed:
// the commit still holds that seq). A history maps the calls a renamed callee lost to the new name.
// params: $seqs (list of timeline positions)
MATCH (a)-[e:RENAMED_TO]->(b) WHERE e.seq IN $seqs
MATCH (c:Commit {hash: e.commit}) WHERE c.seq = e.seq
RETURN a.fully_qualified_name AS old, b.fully_qualified_name AS new, e.seq AS seq
