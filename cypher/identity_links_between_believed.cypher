// identity_links_between as believed at wall-clock time $t: the renames and moves recorded by the
// commits in ($lo, $hi] ingested by $t and holding that seq then, oldest first.
// params: $lo, $hi (timeline positions, lo < hi), $t (epoch seconds)
MATCH (a)-[e:RENAMED_TO]->(b) WHERE e.seq > $lo AND e.seq <= $hi
MATCH (c:Commit {hash: e.commit})
WHERE c.ingested_at <= $t AND (c.superseded_at IS NULL OR c.superseded_at > $t) AND coalesce(c.seq, c.old_seq) = e.seq
RETURN a.fully_qualified_name AS old, b.fully_qualified_name AS new, e.kind AS kind, e.similarity AS similarity,
       e.seq AS seq
ORDER BY seq
