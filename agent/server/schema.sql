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

-- Fixed one-minute windows per user and route group, shared by every worker and machine.
CREATE TABLE IF NOT EXISTS bosun_rate_limits (
    user_id      text NOT NULL,
    bucket       text NOT NULL,
    window_start timestamptz NOT NULL,
    hits         integer NOT NULL,
    PRIMARY KEY (user_id, bucket, window_start)
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
