-- Documents, the vessel registry and the settings the store was built with.
CREATE TABLE meta (
    key   text PRIMARY KEY,
    value text NOT NULL
);

CREATE TABLE documents (
    doc_id         text PRIMARY KEY CHECK (doc_id ~ '^[0-9a-f]{12}$'),
    kind           text NOT NULL,
    source_id      text NOT NULL,
    title          text NOT NULL,
    content_hash   text NOT NULL,
    archive_path   text NOT NULL,
    parent_id      text,
    thread_id      text,
    message_id     text,
    date           date,
    sender         text,
    subject        text,
    report_no      text,
    vessel_name    text,
    imo            text,
    vessel_type    text,
    vessel_class   text,
    embedding_mode text NOT NULL DEFAULT 'full',
    summary        text NOT NULL DEFAULT '',
    metadata       jsonb NOT NULL DEFAULT '{}',
    chunk_count    integer NOT NULL,
    ingested_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (kind, source_id)
);
CREATE INDEX documents_thread ON documents (thread_id);

CREATE TABLE vessels (
    vessel_key   text PRIMARY KEY,  -- IMO number, or "name:" || upper(name) when unknown
    name         text NOT NULL,
    imo          text,
    vessel_type  text,
    vessel_class text
);
CREATE INDEX vessels_name ON vessels (upper(name));

CREATE TABLE document_vessels (
    doc_id     text NOT NULL REFERENCES documents ON DELETE CASCADE,
    vessel_key text NOT NULL REFERENCES vessels,
    PRIMARY KEY (doc_id, vessel_key)
);
CREATE INDEX document_vessels_vessel ON document_vessels (vessel_key);
