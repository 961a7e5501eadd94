// Hashes of the commits Mnemosyne ingested after wall-clock time $t (the $late list of the *_believed
// queries: a version closed by one of them was still open at $t).
// params: $t (epoch seconds)
MATCH (c:Commit)
WHERE c.ingested_at > $t
RETURN c.hash AS hash
