-- The topic ontology built after ingest (agent/ingest/topics.py): salient phrases of the chunks,
-- one row per surface form (fragments and synonyms stay separate rows; the matcher pools them),
-- each embedded once, and the links from chunks to their topics.
CREATE TABLE topics (
    topic_id    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    embedding   vector({dim}) NOT NULL,
    chunk_count integer NOT NULL DEFAULT 0  -- chunks linked now (kept by the triggers below)
);
CREATE INDEX topics_embedding_hnsw ON topics USING hnsw (embedding vector_cosine_ops);

CREATE TABLE chunk_topics (
    chunk_id text NOT NULL REFERENCES chunks ON DELETE CASCADE,
    topic_id integer NOT NULL REFERENCES topics ON DELETE CASCADE,
    weight   real NOT NULL DEFAULT 1,  -- the phrase's salience in the chunk
    PRIMARY KEY (chunk_id, topic_id)
);
CREATE INDEX chunk_topics_topic ON chunk_topics (topic_id);

-- Chunks the topic pass has read (also those that yielded no topic), so it runs once per chunk.
CREATE TABLE topic_scanned (
    chunk_id text PRIMARY KEY REFERENCES chunks ON DELETE CASCADE
);

CREATE FUNCTION chunk_topics_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE topics SET chunk_count = chunk_count + 1 WHERE topic_id = NEW.topic_id;
    ELSE
        UPDATE topics SET chunk_count = chunk_count - 1 WHERE topic_id = OLD.topic_id;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER chunk_topics_counted AFTER INSERT OR DELETE ON chunk_topics
    FOR EACH ROW EXECUTE FUNCTION chunk_topics_count();
