-- Document-level BM25 (archive/store/document_bm25.py): a document is scored as one BM25
-- document, its term counts and length summed over its chunks (the chunks' overlap counts twice),
-- against the other documents' statistics. Kept in step with every chunk insert and delete by
-- the triggers below, beside the chunk postings (which stay what the top k is found from).
--  * bm25_doc_postings: per (term, document) the summed tf; read by (lexeme, doc_id) probes.
--  * bm25_doc_terms: per term, how many documents hold it (the document df).
--  * bm25_doc_lens: per document, its length in terms (sum of its chunks' bm25_len) and chunks.
--  * bm25_doc_stats: documents with at least one chunk and their total length.
CREATE TABLE bm25_doc_postings (
    lexeme text NOT NULL,
    doc_id text NOT NULL,
    tf     integer NOT NULL,
    PRIMARY KEY (lexeme, doc_id) INCLUDE (tf)
);

CREATE TABLE bm25_doc_terms (
    lexeme text PRIMARY KEY,
    df     integer NOT NULL
);

CREATE TABLE bm25_doc_lens (
    doc_id text PRIMARY KEY,
    len    bigint NOT NULL,
    chunks integer NOT NULL
);

CREATE TABLE bm25_doc_stats (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    n_docs    bigint NOT NULL,
    total_len bigint NOT NULL
);

-- Every document-level table rebuilt from the chunk postings: the backfill below, and bulk
-- loads that turn the row trigger off (benchmarks/scale_build.py).
CREATE FUNCTION bm25_doc_rebuild() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    documents bigint;
BEGIN
    TRUNCATE bm25_doc_postings, bm25_doc_terms, bm25_doc_lens, bm25_doc_stats;
    INSERT INTO bm25_doc_postings (lexeme, doc_id, tf)
        SELECT p.lexeme, c.doc_id, sum(p.tf)
        FROM bm25_postings p JOIN chunks c USING (chunk_id)
        GROUP BY p.lexeme, c.doc_id;
    INSERT INTO bm25_doc_terms (lexeme, df)
        SELECT lexeme, count(*) FROM bm25_doc_postings GROUP BY lexeme;
    INSERT INTO bm25_doc_lens (doc_id, len, chunks)
        SELECT doc_id, sum(bm25_len), count(*) FROM chunks GROUP BY doc_id;
    GET DIAGNOSTICS documents = ROW_COUNT;
    INSERT INTO bm25_doc_stats (n_docs, total_len)
        SELECT count(*), coalesce(sum(len), 0) FROM bm25_doc_lens;
    RETURN documents;
END $$;

-- A chunk stored: its terms' counts added to its document's (a term new to the document counts
-- one more document), its length to the document's (a first chunk counts one more document).
CREATE FUNCTION bm25_doc_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bm25_doc_terms (lexeme, df)
        SELECT t.lexeme, 1 FROM bm25_terms_of(NEW.title, NEW.content) t
        WHERE NOT EXISTS (SELECT 1 FROM bm25_doc_postings p
                          WHERE p.lexeme = t.lexeme AND p.doc_id = NEW.doc_id)
        ON CONFLICT (lexeme) DO UPDATE SET df = bm25_doc_terms.df + 1;
    INSERT INTO bm25_doc_postings (lexeme, doc_id, tf)
        SELECT t.lexeme, NEW.doc_id, t.tf FROM bm25_terms_of(NEW.title, NEW.content) t
        ON CONFLICT (lexeme, doc_id) DO UPDATE SET tf = bm25_doc_postings.tf + EXCLUDED.tf;
    IF NOT EXISTS (SELECT 1 FROM bm25_doc_lens WHERE doc_id = NEW.doc_id) THEN
        UPDATE bm25_doc_stats SET n_docs = n_docs + 1;
    END IF;
    INSERT INTO bm25_doc_lens (doc_id, len, chunks) VALUES (NEW.doc_id, NEW.bm25_len, 1)
        ON CONFLICT (doc_id) DO UPDATE
        SET len = bm25_doc_lens.len + EXCLUDED.len, chunks = bm25_doc_lens.chunks + 1;
    UPDATE bm25_doc_stats SET total_len = total_len + NEW.bm25_len;
    RETURN NULL;
END $$;

-- A chunk deleted (alone, or with its document): the same subtracted; a term gone from the
-- document counts one document fewer, a document left without chunks is no document.
CREATE FUNCTION bm25_doc_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE bm25_doc_postings p SET tf = p.tf - t.tf
        FROM bm25_terms_of(OLD.title, OLD.content) t
        WHERE p.lexeme = t.lexeme AND p.doc_id = OLD.doc_id;
    WITH gone AS (
        DELETE FROM bm25_doc_postings p USING bm25_terms_of(OLD.title, OLD.content) t
        WHERE p.lexeme = t.lexeme AND p.doc_id = OLD.doc_id AND p.tf <= 0
        RETURNING p.lexeme
    )
    UPDATE bm25_doc_terms d SET df = d.df - 1 FROM gone WHERE d.lexeme = gone.lexeme;
    DELETE FROM bm25_doc_terms d USING bm25_terms_of(OLD.title, OLD.content) t
        WHERE d.lexeme = t.lexeme AND d.df <= 0;
    UPDATE bm25_doc_lens SET len = len - OLD.bm25_len, chunks = chunks - 1
        WHERE doc_id = OLD.doc_id;
    UPDATE bm25_doc_stats SET total_len = total_len - OLD.bm25_len;
    WITH emptied AS (
        DELETE FROM bm25_doc_lens WHERE doc_id = OLD.doc_id AND chunks <= 0 RETURNING doc_id
    )
    UPDATE bm25_doc_stats SET n_docs = n_docs - (SELECT count(*) FROM emptied);
    RETURN NULL;
END $$;

CREATE TRIGGER chunks_bm25_doc_index AFTER INSERT ON chunks
    FOR EACH ROW EXECUTE FUNCTION bm25_doc_after_insert();
CREATE TRIGGER chunks_bm25_doc_unindex AFTER DELETE ON chunks
    FOR EACH ROW EXECUTE FUNCTION bm25_doc_after_delete();

SELECT bm25_doc_rebuild();
ANALYZE bm25_doc_postings, bm25_doc_terms, bm25_doc_lens;
