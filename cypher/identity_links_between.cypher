// The renames and moves (RENAMED_TO) recorded by the timeline commits in ($lo, $hi] (believed: the
// commit still holds that seq), oldest first. diff_commits chains them from the symbols removed to
// those added between two commits, so a rename is reported as one, not as a removal and an addition.
// params: $lo, $hi (timeline positions, lo < hi)
// ==== identity_links_between_believed ====
// identity_links_between as believed at wall-clock time $t: the renames and moves recorded by the
// commits in ($lo, $hi] ingested by $t and holding that seq then, oldest first.
// params: $lo, $hi (timeline positions, lo < hi), $t (epoch seconds)
MATCH (a)-[e:RENAMED_TO]->(b) WHERE e.seq > $lo AND e.seq <= $hi
MATCH (c:Commit {hash: e.commit}) WHERE @commit_at(c, e.seq)
RETURN a.fully_qualified_name AS old, b.fully_qualified_name AS new, e.kind AS kind, e.similarity AS similarity,
       e.seq AS seq
ORDER BY seq
