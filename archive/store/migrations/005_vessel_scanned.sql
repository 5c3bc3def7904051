-- Documents the vessel tagger has read (also those that name no vessel), with the fingerprint of
-- the vessel registry it read them against: a rerun after a kill tags only what is left, and a
-- registry that gained vessels makes the untagged documents be read again.
CREATE TABLE vessel_scanned (
    doc_id   text PRIMARY KEY REFERENCES documents ON DELETE CASCADE,
    registry text NOT NULL
);
