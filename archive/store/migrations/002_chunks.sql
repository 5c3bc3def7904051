-- Passages with their vectors (the PGVectorStore table) and Okapi BM25 postings kept in step by triggers.
CREATE TABLE chunks (
    chunk_id           text PRIMARY KEY CHECK (chunk_id ~ '^[0-9a-f]{12}$'),
    content            text NOT NULL,
    embedding          vector({dim}) NOT NULL,
    doc_id             text NOT NULL REFERENCES documents ON DELETE CASCADE,
    ordinal            integer NOT NULL,
    kind               text NOT NULL,
    source_id          text NOT NULL,
    title              text NOT NULL,
    thread_id          text,
    date               date,
    sender             text,
    vessel_name        text,
    imo                text,
    vessel_type        text,
    vessel_class       text,
    report_no          text,
    section            text,
    page               integer,
    bm25_len           integer NOT NULL DEFAULT 0,
    langchain_metadata json
);
CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX chunks_doc ON chunks (doc_id);
CREATE INDEX chunks_kind ON chunks (kind);
CREATE INDEX chunks_report ON chunks (report_no);
CREATE INDEX chunks_imo ON chunks (imo);
CREATE INDEX chunks_vessel ON chunks (upper(vessel_name));
CREATE INDEX chunks_thread ON chunks (thread_id);
CREATE INDEX chunks_date ON chunks (date);

-- BM25 index: one row per (term, chunk) with the term frequency and the chunk length.
CREATE TABLE bm25_postings (
    lexeme   text NOT NULL,
    chunk_id text NOT NULL REFERENCES chunks ON DELETE CASCADE,
    tf       integer NOT NULL,
    len      integer NOT NULL,
    PRIMARY KEY (lexeme, chunk_id)
);
CREATE INDEX bm25_postings_chunk ON bm25_postings (chunk_id);

CREATE TABLE bm25_terms (
    lexeme text PRIMARY KEY,
    df     integer NOT NULL
);

CREATE TABLE bm25_stats (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    n_chunks  bigint NOT NULL,
    total_len bigint NOT NULL
);
INSERT INTO bm25_stats VALUES (true, 0, 0);

-- The terms BM25 sees: English stems of the title and passage, identifiers kept whole.
CREATE FUNCTION bm25_terms_of(title text, content text)
RETURNS TABLE (lexeme text, tf integer)
LANGUAGE sql IMMUTABLE AS $$
    SELECT t.lexeme, coalesce(array_length(t.positions, 1), 1)
    FROM unnest(to_tsvector('english', coalesce(title, '') || E'\n' || content)) AS t
$$;

CREATE FUNCTION bm25_before_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.bm25_len := coalesce((SELECT sum(t.tf) FROM bm25_terms_of(NEW.title, NEW.content) t), 0);
    RETURN NEW;
END $$;

CREATE FUNCTION bm25_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bm25_postings (lexeme, chunk_id, tf, len)
        SELECT t.lexeme, NEW.chunk_id, t.tf, NEW.bm25_len FROM bm25_terms_of(NEW.title, NEW.content) t;
    INSERT INTO bm25_terms (lexeme, df)
        SELECT t.lexeme, 1 FROM bm25_terms_of(NEW.title, NEW.content) t
        ON CONFLICT (lexeme) DO UPDATE SET df = bm25_terms.df + 1;
    UPDATE bm25_stats SET n_chunks = n_chunks + 1, total_len = total_len + NEW.bm25_len;
    RETURN NULL;
END $$;

CREATE FUNCTION bm25_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE bm25_terms SET df = bm25_terms.df - 1
        FROM bm25_terms_of(OLD.title, OLD.content) t WHERE bm25_terms.lexeme = t.lexeme;
    DELETE FROM bm25_terms WHERE df <= 0;
    UPDATE bm25_stats SET n_chunks = n_chunks - 1, total_len = total_len - OLD.bm25_len;
    RETURN NULL;
END $$;

CREATE FUNCTION chunks_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'chunk % is immutable: delete and re-insert it', OLD.chunk_id;
END $$;

CREATE TRIGGER chunks_bm25_len BEFORE INSERT ON chunks
    FOR EACH ROW EXECUTE FUNCTION bm25_before_insert();
CREATE TRIGGER chunks_bm25_index AFTER INSERT ON chunks
    FOR EACH ROW EXECUTE FUNCTION bm25_after_insert();
CREATE TRIGGER chunks_bm25_unindex AFTER DELETE ON chunks
    FOR EACH ROW EXECUTE FUNCTION bm25_after_delete();
CREATE TRIGGER chunks_no_update BEFORE UPDATE OF content, title ON chunks
    FOR EACH ROW EXECUTE FUNCTION chunks_immutable();
