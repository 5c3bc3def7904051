-- Derived stages that read only what changed, so adding 1 % new documents to a large collection
-- rescans nothing global (archive/ingest/topics.py, digests.py, vessel_tagging.py):
--  * topic_pending: chunks the topic pass has not read yet, filled by a trigger as chunks are
--    stored (the pass used to walk every chunk to find the unread ones);
--  * digest_pending: threads whose emails or attachments were stored or deleted since their
--    digest was checked (the pass used to hash the members of every thread);
--  * vessels.added_seq: the order vessels entered the registry; documents already read are
--    looked at again only for vessels added since (found through the BM25 postings), not
--    re-read in full whenever the registry grows.
CREATE TABLE topic_pending (
    chunk_id text PRIMARY KEY REFERENCES chunks ON DELETE CASCADE
);
INSERT INTO topic_pending (chunk_id)
    SELECT c.chunk_id FROM chunks c
    WHERE NOT EXISTS (SELECT 1 FROM topic_scanned s WHERE s.chunk_id = c.chunk_id);

CREATE FUNCTION topic_pending_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO topic_pending (chunk_id) VALUES (NEW.chunk_id) ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER chunks_topic_pending AFTER INSERT ON chunks
    FOR EACH ROW EXECUTE FUNCTION topic_pending_add();

CREATE TABLE digest_pending (
    thread_id text PRIMARY KEY
);
INSERT INTO digest_pending (thread_id)
    SELECT DISTINCT thread_id FROM documents
    WHERE thread_id IS NOT NULL AND kind IN ('email', 'attachment', 'thread_digest');

CREATE FUNCTION digest_pending_add() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    row documents;
BEGIN
    row := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    IF row.thread_id IS NOT NULL AND row.kind IN ('email', 'attachment') THEN
        INSERT INTO digest_pending (thread_id) VALUES (row.thread_id) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER documents_digest_pending AFTER INSERT OR DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION digest_pending_add();

ALTER TABLE vessels ADD COLUMN added_seq bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX vessels_added_seq ON vessels (added_seq);
-- Documents read against an older registry are read once more, in full, by the next pass.
DELETE FROM vessel_scanned WHERE registry IS DISTINCT FROM (
    SELECT md5(string_agg(vessel_key || ':' || name || ':' || coalesce(imo, ''), ','
                          ORDER BY vessel_key)) FROM vessels);
INSERT INTO meta (key, value)
    SELECT 'vessel_tag_seq', coalesce(max(added_seq), 0)::text FROM vessels
    ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
