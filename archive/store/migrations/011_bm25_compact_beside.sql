-- Compaction builds the next segment beside the live one and swaps it in at the end, so searches
-- keep reading blocks while it runs (on a million chunks it takes ~155 s; migration 009's
-- compaction truncated the segment first, and every search reading blocks waited that long).
--  * bm25_compact_build(size): under a SHARE lock on chunks (writers wait, readers do not), fills
--    bm25_docnos_next, bm25_blocks_next and bm25_heads_next, with their keys, foreign key and
--    trigger, exactly as 009 filled the live tables; returns the chunks compacted.
--  * bm25_compact_swap(size): drops the live tables, renames the next ones (and their
--    constraints) into place, empties the delta and the dead, records the segment. Catalog work
--    only: its ACCESS EXCLUSIVE locks last as long as the rest of the transaction.
-- A search reading blocks locks the segment's tables (ACCESS SHARE) before its snapshot, so it
-- reads either the old segment with its delta or the new one with an empty delta, never a mix
-- (archive/store/lexical_blocks.py). bm25_compact(size) is the two in one transaction.
CREATE FUNCTION bm25_compact_build(size integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    compacted bigint;
    mean float8;
    batch record;
BEGIN
    IF size < 1 THEN
        RAISE EXCEPTION 'block size must be positive, got %', size;
    END IF;
    LOCK TABLE chunks IN SHARE MODE;
    DROP TABLE IF EXISTS bm25_docnos_next, bm25_blocks_next, bm25_heads_next;
    CREATE TABLE bm25_docnos_next (chunk_no integer NOT NULL, chunk_id text NOT NULL);
    CREATE TABLE bm25_blocks_next (
        lexeme text NOT NULL, block integer NOT NULL, n integer NOT NULL, max_w float8 NOT NULL,
        data bytea NOT NULL
    );
    ALTER TABLE bm25_blocks_next ALTER COLUMN data SET STORAGE EXTERNAL;
    CREATE TABLE bm25_heads_next (lexeme text NOT NULL, bounds bytea NOT NULL);
    ALTER TABLE bm25_heads_next ALTER COLUMN bounds SET STORAGE EXTERNAL;

    INSERT INTO bm25_docnos_next (chunk_no, chunk_id)
        SELECT (row_number() OVER (ORDER BY chunk_id) - 1)::integer, chunk_id FROM chunks;
    GET DIAGNOSTICS compacted = ROW_COUNT;
    ALTER TABLE bm25_docnos_next
        ADD CONSTRAINT bm25_docnos_next_pkey PRIMARY KEY (chunk_no),
        ADD CONSTRAINT bm25_docnos_next_chunk_id_key UNIQUE (chunk_id),
        ADD CONSTRAINT bm25_docnos_next_chunk_id_fkey FOREIGN KEY (chunk_id)
            REFERENCES chunks ON DELETE CASCADE;
    CREATE TRIGGER bm25_docnos_dead AFTER DELETE ON bm25_docnos_next
        FOR EACH ROW EXECUTE FUNCTION bm25_docno_dead();
    ANALYZE bm25_docnos_next;
    SELECT greatest(total_len::float8 / greatest(n_chunks, 1), 1) INTO mean FROM bm25_stats;
    FOR batch IN
        SELECT min(lexeme) AS lo, max(lexeme) AS hi
        FROM (SELECT lexeme, sum(df) OVER (ORDER BY lexeme) / 1000000 AS part FROM bm25_terms) t
        GROUP BY part ORDER BY part
    LOOP
        INSERT INTO bm25_blocks_next (lexeme, block, n, max_w, data)
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
                    FROM bm25_postings p JOIN bm25_docnos_next d USING (chunk_id)
                    WHERE p.lexeme BETWEEN batch.lo AND batch.hi
                ) r
            ) s
            GROUP BY s.lexeme, s.rank / size;
    END LOOP;
    ALTER TABLE bm25_blocks_next ADD CONSTRAINT bm25_blocks_next_pkey PRIMARY KEY (lexeme, block);
    INSERT INTO bm25_heads_next (lexeme, bounds)
        SELECT lexeme, string_agg(float8send(max_w), ''::bytea ORDER BY block)
        FROM bm25_blocks_next GROUP BY lexeme;
    ALTER TABLE bm25_heads_next ADD CONSTRAINT bm25_heads_next_pkey PRIMARY KEY (lexeme);
    RETURN compacted;
END $$;

CREATE FUNCTION bm25_compact_swap(size integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF to_regclass('bm25_docnos_next') IS NULL THEN
        RAISE EXCEPTION 'no segment was built: run bm25_compact_build first';
    END IF;
    -- Chunks stored after the build would be in no block once the delta is emptied.
    IF NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'relation'
                   AND relation = 'chunks'::regclass AND pid = pg_backend_pid()
                   AND mode = 'ShareLock' AND granted) THEN
        RAISE EXCEPTION 'bm25_compact_swap must run in the transaction of bm25_compact_build';
    END IF;
    DROP TABLE bm25_docnos, bm25_blocks, bm25_heads;
    ALTER TABLE bm25_docnos_next RENAME TO bm25_docnos;
    ALTER TABLE bm25_docnos RENAME CONSTRAINT bm25_docnos_next_pkey TO bm25_docnos_pkey;
    ALTER TABLE bm25_docnos RENAME CONSTRAINT bm25_docnos_next_chunk_id_key
        TO bm25_docnos_chunk_id_key;
    ALTER TABLE bm25_docnos RENAME CONSTRAINT bm25_docnos_next_chunk_id_fkey
        TO bm25_docnos_chunk_id_fkey;
    ALTER TABLE bm25_blocks_next RENAME TO bm25_blocks;
    ALTER TABLE bm25_blocks RENAME CONSTRAINT bm25_blocks_next_pkey TO bm25_blocks_pkey;
    ALTER TABLE bm25_heads_next RENAME TO bm25_heads;
    ALTER TABLE bm25_heads RENAME CONSTRAINT bm25_heads_next_pkey TO bm25_heads_pkey;
    TRUNCATE bm25_delta, bm25_dead;
    UPDATE bm25_segment
    SET chunks = (SELECT count(*) FROM bm25_docnos), block_size = size,
        avgdl = (SELECT greatest(total_len::float8 / greatest(n_chunks, 1), 1) FROM bm25_stats),
        compacted_at = clock_timestamp();
END $$;

CREATE OR REPLACE FUNCTION bm25_compact(size integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    compacted bigint;
BEGIN
    compacted := bm25_compact_build(size);
    PERFORM bm25_compact_swap(size);
    RETURN compacted;
END $$;
