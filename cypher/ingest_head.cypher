// The ingestion bookkeeping of a workspace graph (Meta): the default "HEAD" of every query.
// last ingested timeline position and commit, the tracked branch, a commit being written if any.
// params: (none)
MATCH (m:Meta {key: 'ingest'})
RETURN m.last_seq AS last_seq, m.last_commit AS last_commit, m.branch AS branch, m.in_progress_seq AS in_progress_seq
