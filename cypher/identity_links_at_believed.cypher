// identity_links_at as believed at wall-clock time $t: the renames and moves recorded by the commits at
// the positions $seqs, ingested by $t and holding that seq then.
// params: $seqs (list of timeline positions), $t (epoch seconds)
MATCH (a)-[e:RENAMED_TO]->(b) WHERE e.seq IN $seqs
MATCH (c:Commit {hash: e.commit})
WHERE c.ingested_at <= $t AND (c.superseded_at IS NULL OR c.superseded_at > $t) AND coalesce(c.seq, c.old_seq) = e.seq
RETURN a.fully_qualified_name AS old, b.fully_qualified_name AS new, e.seq AS seq
