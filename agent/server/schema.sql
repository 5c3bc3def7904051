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
-- The thread's first question in full (one line, bidi controls removed): the list shows the
-- short title and this on hover. Threads registered before it have none (the title stands in).
ALTER TABLE bosun_threads ADD COLUMN IF NOT EXISTS question text;

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
