"""Collections of N chunks for benchmarks/scale.py, made from the shared data and loaded in bulk.

Text: every real passage of the shared data, as 120-word windows of the NTSB narratives, the IMO
casualty summaries, the TAIC reports and the USRP mailing-list bodies (about 40,000). Chunk i is
passage i mod P with about a third of its sentences replaced by sentences of a random other
passage and the sentence order rotated, so every chunk is a distinct real-language text whose
terms follow the real distribution (the vocabulary is the data's own: no new rare words appear
past ~40k chunks, where a real archive would keep adding some).
Vectors: ``--pool`` passages (taken from the four sources in turn) are embedded once with the
product's model and cached under ``$BOSUN_HOME/bench``; chunk i's vector is the normalised mix
0.7 v[i mod pool] + 0.3 v[random] plus Gaussian noise (sigma 0.02 per dimension). Vectors are
therefore real-model vectors but not the embedding of the chunk's own text: nothing timed here
depends on that (BM25 recall compares texts, HNSW recall compares vectors).
Documents hold ten chunks each; document j names vessel j mod 1000, so one vessel is 0.1 % of rows.

Bulk path (what "ingest chunks/s" measures): COPY of documents and chunks with the BM25 triggers
off, postings, term statistics and impacts built in set-based SQL (the same ``bm25_terms_of`` and
``bm25_impact`` the triggers use), then the indexes, HNSW, and the BM25 blocks (compaction,
archive/store/lexical_blocks.py) last.
"""

from __future__ import annotations

import csv
import email
import email.policy
import hashlib
import json
import logging
import re
import time
from pathlib import Path
from typing import Any

import numpy as np
from psycopg import AsyncConnection

from archive.store.lexical_blocks import BLOCK_SIZE, compact

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
WINDOW = 120  # words per pool passage
VESSELS = 1000
CHUNKS_PER_DOC = 10
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _windows(text: str) -> list[str]:
    words = text.split()
    return [" ".join(words[i : i + WINDOW]) for i in range(0, len(words), WINDOW)]


def _ntsb() -> list[str]:
    out: list[str] = []
    with (DATA / "ntsb" / "reports_2010_2016.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            out.extend(_windows(json.loads(line).get("narrative") or ""))
    return out


def _imo() -> list[str]:
    with (DATA / "maritime" / "imo_casualties.csv").open(encoding="utf-8", newline="") as fh:
        rows = csv.DictReader(fh)
        return [w for r in rows for w in _windows(r.get("SummaryOfEvents") or "")]


def _taic() -> list[str]:
    return [
        w
        for path in sorted((DATA / "maritime" / "taic_reports").glob("*.txt"))
        for w in _windows(path.read_text(encoding="utf-8", errors="replace"))
    ]


def _mail() -> list[str]:
    out: list[str] = []
    for path in sorted((DATA / "email" / "usrp-users").glob("*.eml")):
        with path.open("rb") as fh:
            msg = email.message_from_binary_file(fh, policy=email.policy.default)
        body = msg.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
        if body is not None:
            text = "\n".join(ln for ln in body.get_content().splitlines() if not ln.startswith(">"))
            out.extend(_windows(text))
    return out


def pool_texts(size: int | None = None, seed: int = 7) -> list[str]:
    """``size`` (default all) real passages, the four sources taken in turn (each shuffled)."""
    rng = np.random.default_rng(seed)
    sources = []
    for load in (_ntsb, _imo, _taic, _mail):
        texts = [t for t in load() if len(t.split()) >= 30]
        rng.shuffle(texts)  # type: ignore[arg-type]
        sources.append(texts)
    out: list[str] = []
    size = size or sum(len(t) for t in sources)
    while len(out) < size and any(sources):
        for texts in sources:
            if texts and len(out) < size:
                out.append(texts.pop())
    return out


def load_pool(home: Path, size: int, embed: Any) -> np.ndarray:
    """The vectors of ``size`` pool passages, embedded once and cached in ``home/bench``."""
    cache = home / "bench" / f"scale_pool_{size}.npz"
    if cache.is_file():
        return np.load(cache, allow_pickle=False)["vectors"]
    texts = pool_texts(size)
    started = time.perf_counter()
    vectors = np.asarray(embed(texts), dtype=np.float32)
    logger.info("embedded %d pool passages in %.0f s", len(texts), time.perf_counter() - started)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, vectors=vectors)
    return vectors


def synthesize(
    texts: list[str], vectors: np.ndarray, n: int, seed: int = 11
) -> tuple[list[str], np.ndarray]:
    """``n`` chunk texts mixed from ``texts`` and unit vectors from ``vectors`` (see the module
    docstring)."""
    rng = np.random.default_rng(seed)
    sentences = [_SENTENCE.split(t) for t in texts]
    a = np.arange(n) % len(texts)
    b = rng.integers(0, len(texts), n)
    out: list[str] = []
    for i in range(n):
        mine, other = sentences[a[i]], sentences[b[i]]
        mixed = [other[rng.integers(len(other))] if rng.random() < 0.33 else s for s in mine]
        shift = int(rng.integers(len(mixed)))
        out.append(" ".join(mixed[shift:] + mixed[:shift]))
    va, vb = np.arange(n) % len(vectors), rng.integers(0, len(vectors), n)
    mixed_vectors = 0.7 * vectors[va] + 0.3 * vectors[vb]
    mixed_vectors += rng.normal(0, 0.02, mixed_vectors.shape).astype(np.float32)
    mixed_vectors /= np.linalg.norm(mixed_vectors, axis=1, keepdims=True)
    return out, mixed_vectors.astype(np.float32)


def _hex(prefix: str, i: int) -> str:
    return hashlib.sha1(f"{prefix}{i}".encode()).hexdigest()[:12]


def doc_id(j: int) -> str:
    return _hex("doc", j)


def vessel_docs(n: int, vessel: int) -> list[str]:
    """Document ids naming ``vessel`` in a collection of ``n`` chunks."""
    return [doc_id(j) for j in range(vessel, -(-n // CHUNKS_PER_DOC), VESSELS)]


def _vector_text(v: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.6f}" for x in v) + "]"


async def bulk_load(
    conn: AsyncConnection,
    texts: list[str],
    vectors: np.ndarray | None,
    *,
    hnsw: tuple[int, int],
    block_size: int = BLOCK_SIZE,
) -> dict[str, float]:
    """Load the chunks into the (empty, migrated) collection on ``conn``'s search_path; seconds
    per step. ``hnsw`` is (m, ef_construction); without ``vectors`` every chunk gets the same
    vector and no HNSW index is built (a BM25-only collection); ``block_size``: postings per
    BM25 block."""
    steps: dict[str, float] = {}
    n = len(texts)
    docs = -(-n // CHUNKS_PER_DOC)

    def step(name: str, started: float) -> float:
        steps[name] = round(time.perf_counter() - started, 2)
        logger.info("bulk %s: %.1f s", name, steps[name])
        return time.perf_counter()

    t = time.perf_counter()
    # The HNSW graph of a million 384-d vectors needs ~2 GB; past maintenance_work_mem the build
    # falls back to a far slower on-disk insert path.
    await conn.execute(f"SET maintenance_work_mem = '{'4GB' if n > 200_000 else '1GB'}'")
    await conn.execute("SET max_parallel_maintenance_workers = 1")
    for index in ("chunks_embedding_hnsw", "bm25_postings_chunk"):
        await conn.execute(f"DROP INDEX IF EXISTS {index}")
    await conn.execute("ALTER TABLE bm25_postings DROP CONSTRAINT IF EXISTS bm25_postings_pkey")
    await conn.execute("ALTER TABLE chunks DISABLE TRIGGER chunks_bm25_len")
    await conn.execute("ALTER TABLE chunks DISABLE TRIGGER chunks_bm25_index")
    await conn.execute("ALTER TABLE chunks DISABLE TRIGGER chunks_bm25_doc_index")
    await conn.execute("CREATE TEMP TABLE stage (chunk_id text, title text, content text)")
    titles = [f"Scale document {j}" for j in range(docs)]
    async with conn.cursor().copy("COPY stage FROM STDIN") as copy:
        for i, text in enumerate(texts):
            await copy.write_row((_hex("chunk", i), titles[i // CHUNKS_PER_DOC], text))
    await conn.execute(
        "CREATE TEMP TABLE stage_terms AS SELECT s.chunk_id, t.lexeme, t.tf"
        " FROM stage s, bm25_terms_of(s.title, s.content) t"
    )
    cur = await conn.execute("SELECT chunk_id, sum(tf)::int FROM stage_terms GROUP BY chunk_id")
    lengths = dict(await cur.fetchall())
    t = step("terms", t)

    async with conn.cursor().copy(
        "COPY documents (doc_id, kind, source_id, title, content_hash, archive_path, vessel_name,"
        " chunk_count) FROM STDIN"
    ) as copy:
        for j in range(docs):
            count = min(CHUNKS_PER_DOC, n - j * CHUNKS_PER_DOC)
            await copy.write_row(
                (doc_id(j), "scale", f"scale-{j}", titles[j], _hex("hash", j), f"scale/{j}",
                 f"VESSEL {j % VESSELS}", count)
            )  # fmt: skip
    async with conn.cursor().copy(
        "COPY chunks (chunk_id, content, embedding, doc_id, ordinal, kind, source_id, title,"
        " vessel_name, bm25_len) FROM STDIN"
    ) as copy:
        same = _vector_text(np.full(384, 384**-0.5))
        for i, text in enumerate(texts):
            j = i // CHUNKS_PER_DOC
            cid = _hex("chunk", i)
            vector = same if vectors is None else _vector_text(vectors[i])
            await copy.write_row(
                (cid, text, vector, doc_id(j), i % CHUNKS_PER_DOC, "scale", f"scale-{j}",
                 titles[j], f"VESSEL {j % VESSELS}", lengths.get(cid, 0))
            )  # fmt: skip
    t = step("copy", t)

    await conn.execute(
        "UPDATE bm25_stats SET n_chunks = s.n, total_len = s.total,"
        " ref_avgdl = greatest(s.total::float8 / greatest(s.n, 1), 1)"
        " FROM (SELECT count(*) AS n, coalesce(sum(bm25_len), 0) AS total FROM chunks) s"
    )
    await conn.execute(
        "INSERT INTO bm25_postings (lexeme, chunk_id, tf, len, impact)"
        " SELECT t.lexeme, t.chunk_id, t.tf, c.bm25_len,"
        " bm25_impact(t.tf, c.bm25_len, (SELECT ref_avgdl FROM bm25_stats))"
        " FROM stage_terms t JOIN chunks c USING (chunk_id)"
    )
    await conn.execute(
        "INSERT INTO bm25_terms (lexeme, df)"
        " SELECT lexeme, count(*) FROM bm25_postings GROUP BY lexeme"
    )
    t = step("postings", t)
    await conn.execute(
        "ALTER TABLE bm25_postings ADD CONSTRAINT bm25_postings_pkey"
        " PRIMARY KEY (lexeme, chunk_id) INCLUDE (tf, len)"
    )
    await conn.execute("CREATE INDEX bm25_postings_chunk ON bm25_postings (chunk_id)")
    await conn.execute("ALTER TABLE chunks ENABLE TRIGGER chunks_bm25_len")
    await conn.execute("ALTER TABLE chunks ENABLE TRIGGER chunks_bm25_index")
    await conn.execute("ALTER TABLE chunks ENABLE TRIGGER chunks_bm25_doc_index")
    await conn.execute("SELECT bm25_doc_rebuild()")  # document-level BM25 (migration 015)
    t = step("bm25_indexes", t)
    m, ef_construction = hnsw
    if vectors is None:
        t = step("hnsw", t)
    else:
        await conn.execute(
            f"CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops)"
            f" WITH (m = {int(m)}, ef_construction = {int(ef_construction)})"
        )
        t = step("hnsw", t)
    await conn.execute("VACUUM (ANALYZE) chunks")
    await conn.execute("VACUUM (ANALYZE) bm25_postings")
    await conn.execute("VACUUM (ANALYZE) bm25_terms")
    await conn.execute("VACUUM (ANALYZE) documents")
    t = step("vacuum", t)
    await conn.execute("SET work_mem = '256MB'")
    await compact(conn, block_size)
    step("bm25_blocks", t)
    return steps
