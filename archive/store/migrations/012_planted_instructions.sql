-- The planted instructions ingest found in each passage (names of text/injection.py's patterns;
-- empty for nearly every passage). A marked passage is shown to a chat model as quoted data with
-- its mark, is never copied into an offline answer, and an answer repeating it is flagged.
-- NULL: not yet read. Every passage written from now on is read before it is stored; those stored
-- before this migration are read by the next ingest (archive/ingest/instruction_scan.py), found
-- through the partial index.
ALTER TABLE chunks ADD COLUMN instructions text[];
CREATE INDEX chunks_instructions_unread ON chunks (chunk_id) WHERE instructions IS NULL;
