-- Impact-ordered postings for the pruned BM25 top k (archive/store/lexical.py): each term's
-- postings are read from the highest impact down, only so far. A posting's impact is its BM25
-- term weight without idf, tf (k1 + 1) / (tf + k1 (1 - b + b len / A0)), at a reference mean
-- length A0 (bm25_stats.ref_avgdl) fixed when the collection is made, so adding a chunk writes
-- its own postings and never rewrites other rows; as the true mean drifts from A0 the order is
-- still close (the query computes exact weights from tf and len). A bulk load may reset A0 and
-- recompute the impacts (benchmarks/scale_build.py does).
ALTER TABLE bm25_stats ADD COLUMN ref_avgdl float8;
UPDATE bm25_stats
SET ref_avgdl = CASE WHEN n_chunks > 0 THEN greatest(total_len::float8 / n_chunks, 1) ELSE 100 END;
ALTER TABLE bm25_stats ALTER COLUMN ref_avgdl SET NOT NULL;

CREATE FUNCTION bm25_impact(tf integer, len integer, ref_avgdl float8) RETURNS real
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len / ref_avgdl)))::real  -- k1 1.2, b 0.75
$$;

ALTER TABLE bm25_postings ADD COLUMN impact real;
UPDATE bm25_postings SET impact = bm25_impact(tf, len, (SELECT ref_avgdl FROM bm25_stats));
ALTER TABLE bm25_postings ALTER COLUMN impact SET NOT NULL;
CREATE INDEX bm25_postings_impact ON bm25_postings (lexeme, impact DESC) INCLUDE (chunk_id, tf, len);

CREATE OR REPLACE FUNCTION bm25_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bm25_postings (lexeme, chunk_id, tf, len, impact)
        SELECT t.lexeme, NEW.chunk_id, t.tf, NEW.bm25_len,
               bm25_impact(t.tf, NEW.bm25_len, (SELECT ref_avgdl FROM bm25_stats))
        FROM bm25_terms_of(NEW.title, NEW.content) t;
    INSERT INTO bm25_terms (lexeme, df)
        SELECT t.lexeme, 1 FROM bm25_terms_of(NEW.title, NEW.content) t
        ON CONFLICT (lexeme) DO UPDATE SET df = bm25_terms.df + 1;
    UPDATE bm25_stats SET n_chunks = n_chunks + 1, total_len = total_len + NEW.bm25_len;
    RETURN NULL;
END $$;
