// Renames and moves (RENAMED_TO, recorded by ingestion) into or out of the symbols $fqns: old is new
// from commit seq on. Believed: the commit still holds that seq (a superseded commit's links are not).
// params: $fqns (list of fully qualified names)
// ==== identity_links_believed ====
// identity_links as believed at wall-clock time $t: renames and moves (RENAMED_TO) into or out of the symbols $fqns: old is new
// from commit seq on, recorded by a commit ingested by $t and holding that seq then.
// params: $fqns (list of fully qualified names), $t (epoch seconds)
MATCH (a:Function)-[e:RENAMED_TO]->(b) WHERE a.fully_qualified_name IN $fqns
MATCH (c:Commit {hash: e.commit}) WHERE @commit_at(c, e.seq)
RETURN a.fully_qualified_name AS old, b.fully_qualified_name AS new, e.kind AS kind, e.similarity AS similarity,
       e.seq AS seq, e.commit AS commit
UNION
MATCH (a:Class)-[e:RENAMED_TO]->(b) WHERE a.fully_qualified_name IN $fqns
MATCH (c:Commit {hash: e.commit}) WHERE @commit_at(c, e.seq)
RETURN a.fully_qualified_name AS old, b.fully_qualified_name AS new, e.kind AS kind, e.similarity AS similarity,
       e.seq AS seq, e.commit AS commit
UNION
MATCH (a)-[e:RENAMED_TO]->(b:Function) WHERE b.fully_qualified_name IN $fqns
MATCH (c:Commit {hash: e.commit}) WHERE @commit_at(c, e.seq)
RETURN a.fully_qualified_name AS old, b.fully_qualified_name AS new, e.kind AS kind, e.similarity AS similarity,
       e.seq AS seq, e.commit AS commit
UNION
MATCH (a)-[e:RENAMED_TO]->(b:Class) WHERE b.fully_qualified_name IN $fqns
MATCH (c:Commit {hash: e.commit}) WHERE @commit_at(c, e.seq)
RETURN a.fully_qualified_name AS old, b.fully_qualified_name AS new, e.kind AS kind, e.similarity AS similarity,
       e.seq AS seq, e.commit AS commit
