// The ingestion bookkeeping of a workspace graph: last ingested timeline position and commit
// (the default "HEAD" of every query), the tracked branch, and a commit being written if any.
// params: (none)
MATCH (m:Meta {key: 'ingest'})
RETURN m.last_seq AS last_seq, m.last_commit AS last_commit, m.branch AS branch, m.in_progress_seq AS in_progress_seq
