-- A compacted, impact-ordered copy of the BM25 postings, read block by block for an exact top k
-- that stops early (archive/store/lexical_blocks.py). bm25_postings stays the reference and the
-- source of everything else; compaction (bm25_compact) rebuilds this copy from it.
--  * bm25_segment: how many chunks were compacted, in blocks of how many postings, and the mean
--    chunk length A then.
--  * bm25_docnos: a dense number per compacted chunk (a column on chunks would rewrite the table
--    and its HNSW index).
--  * bm25_blocks: each term's postings sorted by their weight without idf at A, w = tf (k1 + 1)
--    / (tf + k1 (1 - b + b len / A)) with k1 1.2, b 0.75 (ties by chunk_no), cut into blocks of
--    ``block_size`` postings; ``data`` packs per posting chunk_no int4, tf int2, len int4
--    (big-endian, 10 bytes), stored uncompressed so reading it costs no decompression; ``max_w``
--    is the block's first (largest) w. At a later mean A', a weight is at most w A'/A (and at
--    most w if A' < A), so idf max_w max(1, A'/A) bounds every weight of the block.
--  * bm25_heads: per term, its blocks' max_w (float8, big-endian) in block order, so a query
--    reads every bound of a term in one row.
--  * bm25_delta: postings of chunks stored since the last compaction (filled by the insert
--    trigger once a segment exists), scored by exact SQL; bm25_dead: compacted chunks deleted
--    since, left out before the top k is taken. Statistics stay global (bm25_terms, bm25_stats),
--    so block and delta scores are the same exact BM25.
CREATE TABLE bm25_segment (
    singleton    boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    chunks       bigint NOT NULL,  -- chunks compacted; 0: never compacted (no delta is kept)
    block_size   integer NOT NULL,
    avgdl        float8 NOT NULL,  -- mean chunk length at compaction (A)
    compacted_at timestamptz
);
INSERT INTO bm25_segment VALUES (true, 0, 1024, 1, NULL);

CREATE TABLE bm25_docnos (
    chunk_no integer PRIMARY KEY,
    chunk_id text NOT NULL UNIQUE REFERENCES chunks ON DELETE CASCADE
);

CREATE TABLE bm25_blocks (
    lexeme text NOT NULL,
    block  integer NOT NULL,
    n      integer NOT NULL,
    max_w  float8 NOT NULL,
    data   bytea NOT NULL,
    PRIMARY KEY (lexeme, block)
);
ALTER TABLE bm25_blocks ALTER COLUMN data SET STORAGE EXTERNAL;

CREATE TABLE bm25_heads (
    lexeme text PRIMARY KEY,
    bounds bytea NOT NULL
);
ALTER TABLE bm25_heads ALTER COLUMN bounds SET STORAGE EXTERNAL;

CREATE TABLE bm25_delta (
    lexeme   text NOT NULL,
    chunk_id text NOT NULL REFERENCES chunks ON DELETE CASCADE,
    tf       integer NOT NULL,
    len      integer NOT NULL,
    PRIMARY KEY (lexeme, chunk_id) INCLUDE (tf, len)
);
CREATE INDEX bm25_delta_chunk ON bm25_delta (chunk_id);

CREATE TABLE bm25_dead (
    chunk_no integer PRIMARY KEY
);

CREATE FUNCTION bm25_docno_dead() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bm25_dead (chunk_no) VALUES (OLD.chunk_no) ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER bm25_docnos_dead AFTER DELETE ON bm25_docnos
    FOR EACH ROW EXECUTE FUNCTION bm25_docno_dead();

CREATE OR REPLACE FUNCTION bm25_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bm25_postings (lexeme, chunk_id, tf, len, impact)
        SELECT t.lexeme, NEW.chunk_id, t.tf, NEW.bm25_len,
               bm25_impact(t.tf, NEW.bm25_len, (SELECT ref_avgdl FROM bm25_stats))
        FROM bm25_terms_of(NEW.title, NEW.content) t;
    IF (SELECT chunks FROM bm25_segment) > 0 THEN
        INSERT INTO bm25_delta (lexeme, chunk_id, tf, len)
            SELECT p.lexeme, p.chunk_id, p.tf, p.len FROM bm25_postings p
            WHERE p.chunk_id = NEW.chunk_id;
    END IF;
    INSERT INTO bm25_terms (lexeme, df)
        SELECT t.lexeme, 1 FROM bm25_terms_of(NEW.title, NEW.content) t
        ON CONFLICT (lexeme) DO UPDATE SET df = bm25_terms.df + 1;
    UPDATE bm25_stats SET n_chunks = n_chunks + 1, total_len = total_len + NEW.bm25_len;
    RETURN NULL;
END $$;

-- Rebuild the segment from bm25_postings: every chunk gets a number, every term its blocks; the
-- delta and the dead are emptied. Terms are taken in batches of about a million postings (ranges
-- of the primary key, index-only), so each batch sorts in memory. Writers of chunks
-- wait (SHARE lock) so none is lost between the copy and the emptying; searches reading blocks
-- wait for the commit.
CREATE FUNCTION bm25_compact(size integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    compacted bigint;
    mean float8;
    batch record;
BEGIN
    IF size < 1 THEN
        RAISE EXCEPTION 'block size must be positive, got %', size;
    END IF;
    LOCK TABLE chunks IN SHARE MODE;
    TRUNCATE bm25_blocks, bm25_heads, bm25_delta, bm25_dead, bm25_docnos;
    INSERT INTO bm25_docnos (chunk_no, chunk_id)
        SELECT (row_number() OVER (ORDER BY chunk_id) - 1)::integer, chunk_id FROM chunks;
    GET DIAGNOSTICS compacted = ROW_COUNT;
    ANALYZE bm25_docnos;
    SELECT greatest(total_len::float8 / greatest(n_chunks, 1), 1) INTO mean FROM bm25_stats;
    FOR batch IN
        SELECT min(lexeme) AS lo, max(lexeme) AS hi
        FROM (SELECT lexeme, sum(df) OVER (ORDER BY lexeme) / 1000000 AS part FROM bm25_terms) t
        GROUP BY part ORDER BY part
    LOOP
        INSERT INTO bm25_blocks (lexeme, block, n, max_w, data)
            SELECT s.lexeme, s.rank / size, count(*), max(s.w),
                   string_agg(int4send(s.chunk_no) || int2send(s.tf::int2) || int4send(s.len),
                              ''::bytea ORDER BY s.rank)
            FROM (
                SELECT r.*, (row_number() OVER (PARTITION BY r.lexeme ORDER BY r.w DESC,
                                                r.chunk_no) - 1)::integer AS rank
                FROM (
                    SELECT p.lexeme, d.chunk_no, p.tf, p.len,
                           p.tf * 2.2::float8 / (p.tf + 1.2::float8 * (0.25::float8
                               + 0.75::float8 * p.len / mean)) AS w
                    FROM bm25_postings p JOIN bm25_docnos d USING (chunk_id)
                    WHERE p.lexeme BETWEEN batch.lo AND batch.hi
                ) r
            ) s
            GROUP BY s.lexeme, s.rank / size;
    END LOOP;
    INSERT INTO bm25_heads (lexeme, bounds)
        SELECT lexeme, string_agg(float8send(max_w), ''::bytea ORDER BY block)
        FROM bm25_blocks GROUP BY lexeme;
    UPDATE bm25_segment
    SET chunks = compacted, block_size = size, avgdl = mean, compacted_at = now();
    RETURN compacted;
END $$;

-- The impact index served the pruned SQL top k, which the blocks replace; dropping it spares
-- every posting insert. (The impact column stays, written by the insert trigger.)
DROP INDEX IF EXISTS bm25_postings_impact;
