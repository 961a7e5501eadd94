// Every rename and move (RENAMED_TO) recorded by the commits at the timeline positions $seqs (believed:
// the commit still holds that seq). A history maps the calls a renamed callee lost to the new name.
// params: $seqs (list of timeline positions)
// ==== identity_links_at_believed ====
// identity_links_at as believed at wall-clock time $t: the renames and moves recorded by the commits at
// the positions $seqs, ingested by $t and holding that seq then.
// params: $seqs (list of timeline positions), $t (epoch seconds)
MATCH (a)-[e:RENAMED_TO]->(b) WHERE e.seq IN $seqs
MATCH (c:Commit {hash: e.commit}) WHERE @commit_at(c, e.seq)
RETURN a.fully_qualified_name AS old, b.fully_qualified_name AS new, e.seq AS seq
