-- The planted instructions ingest found in each passage (names of text/injection.py's patterns;
-- empty for nearly every passage). A marked passage is shown to a chat model as quoted data with
-- its mark, is never copied into an offline answer, and an answer repeating it is flagged.
-- A constant default: the column is added without rewriting the table.
ALTER TABLE chunks ADD COLUMN instructions text[] NOT NULL DEFAULT '{}';
