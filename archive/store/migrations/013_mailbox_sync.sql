-- A live IMAP mailbox kept in sync (archive/mailbox): what each synced folder was when last
-- read, and which archived message each of its UIDs is. A message is stored once however many
-- folders hold it (documents are keyed by Message-ID); it leaves the archive when no folder
-- holds it any more.
CREATE TABLE mailbox_folders (
    mailbox text NOT NULL,           -- user@host:port
    folder text NOT NULL,
    uidvalidity bigint NOT NULL,     -- a change means every UID below is void
    last_uid bigint NOT NULL DEFAULT 0,        -- every UID up to this one has been read
    highest_modseq bigint,           -- CONDSTORE: flags changed after this are read next time
    synced_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (mailbox, folder)
);

CREATE TABLE mailbox_messages (
    mailbox text NOT NULL,
    folder text NOT NULL,
    uidvalidity bigint NOT NULL,     -- rows of an older UIDVALIDITY go once its resync is done
    uid bigint NOT NULL,
    source_id text,                  -- the archived message; NULL when it could not be read
    flags text[] NOT NULL DEFAULT '{}',
    error text,                      -- why it could not be read (never retried for this UID)
    gone boolean NOT NULL DEFAULT false,  -- left the folder (or its UIDVALIDITY): the message is
                                          -- deleted unless another folder holds it, then the row
    PRIMARY KEY (mailbox, folder, uidvalidity, uid),
    FOREIGN KEY (mailbox, folder) REFERENCES mailbox_folders ON DELETE CASCADE
);
CREATE INDEX mailbox_messages_source ON mailbox_messages (source_id);
