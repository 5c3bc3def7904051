-- Tables of the web app and the turn runner, in the public schema next to the checkpoints
-- (conversations span collections, as checkpoints do). Applied at start; every statement is
-- idempotent.
CREATE TABLE IF NOT EXISTS bosun_threads (
    thread_id  text PRIMARY KEY,
    user_id    text NOT NULL,
    title      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS bosun_threads_user ON bosun_threads (user_id, updated_at DESC);

-- One row per answered turn: the trace feedback attaches to, the rendered citation payload.
CREATE TABLE IF NOT EXISTS bosun_turns (
    message_id text PRIMARY KEY,
    thread_id  text NOT NULL,
    user_id    text NOT NULL,
    trace_id   text NOT NULL,
    citations  jsonb NOT NULL DEFAULT '[]',
    meta       jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS bosun_turns_thread ON bosun_turns (thread_id);

-- A sliding one-minute window per client (user, or local user at an address) and route group,
-- shared by every worker and machine: the epoch seconds of the requests accepted in the last
-- minute (agent/server/ratelimit.py). It replaces fixed windows, which let twice the limit
-- through across a window edge; their counters are only ever a minute old, so they go.
DROP TABLE IF EXISTS bosun_rate_limits;
CREATE TABLE IF NOT EXISTS bosun_rate_windows (
    client text NOT NULL,
    bucket text NOT NULL,
    hits   float8[] NOT NULL DEFAULT '{}',
    PRIMARY KEY (client, bucket)
);

CREATE TABLE IF NOT EXISTS bosun_feedback (
    id          bigserial PRIMARY KEY,
    user_id     text NOT NULL,
    thread_id   text NOT NULL,
    message_id  text NOT NULL,
    trace_id    text,
    score       smallint NOT NULL CHECK (score IN (-1, 1)),
    comment     text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS bosun_feedback_message ON bosun_feedback (message_id);
CREATE INDEX IF NOT EXISTS bosun_feedback_thread ON bosun_feedback (thread_id);

-- Feedback as labels (docs/adapt.md, docs/web.md): one row per passage an answered turn showed
-- in its source list, with the question, the place it was shown at (``position``, 1-based: what
-- training corrects position bias with), its place in the reranked retrieval behind it, and what
-- the user then did with it (opened its citation, downloaded its original). Thumbs and comments
-- stay in bosun_feedback (per answer; joined by message_id). ``collection`` is the archive schema
-- the turn searched: `bosun adapt --collection C` reads C's rows from this table in the same
-- database. Rows go with their thread; nothing here is sent anywhere.
CREATE TABLE IF NOT EXISTS bosun_shown (
    message_id    text NOT NULL,
    chunk_id      text NOT NULL,
    thread_id     text NOT NULL,
    user_id       text NOT NULL,
    collection    text NOT NULL,
    question      text NOT NULL,
    query         text NOT NULL,
    position      smallint NOT NULL CHECK (position >= 1),
    rank          smallint CHECK (rank >= 1),
    source_id     text NOT NULL,
    archive_path  text NOT NULL,
    opened_at     timestamptz,
    downloaded_at timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (message_id, chunk_id)
);
CREATE INDEX IF NOT EXISTS bosun_shown_chunk ON bosun_shown (user_id, collection, chunk_id);
CREATE INDEX IF NOT EXISTS bosun_shown_path ON bosun_shown (user_id, collection, archive_path);
CREATE INDEX IF NOT EXISTS bosun_shown_thread ON bosun_shown (thread_id);
CREATE INDEX IF NOT EXISTS bosun_shown_collection ON bosun_shown (collection, created_at);

-- `bosun adapt` runs on feedback (by hand or on `bosun serve`'s schedule): when, on how many
-- labels, and whether the model it fitted was installed. The schedule counts labels that
-- arrived since the collection's last run.
CREATE TABLE IF NOT EXISTS bosun_adapt_runs (
    id          bigserial PRIMARY KEY,
    collection  text NOT NULL,
    started_at  timestamptz NOT NULL,
    finished_at timestamptz NOT NULL DEFAULT now(),
    labels      integer NOT NULL,
    outcome     text NOT NULL,
    before      float8,
    after       float8
);
CREATE INDEX IF NOT EXISTS bosun_adapt_runs_collection ON bosun_adapt_runs (collection, id DESC);
