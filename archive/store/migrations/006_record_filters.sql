-- Filter columns that do not depend on a source's spelling: the vessel's type family ("bulk
-- carrier" for "BULK CARRIER" and "Bulk Dry (general, ore) Carrier") and classification society
-- ("DNV" for "DNV GL AS (DNVGL)"), see archive/vessel_kinds.py; an NTSB record's aircraft
-- registration ("N3424Y"). Rows stored before this migration are filled in by the next ingest
-- (archive/ingest/vessel_tagging.py) or, for registrations, by re-ingesting the records.
ALTER TABLE vessels ADD COLUMN vessel_family text, ADD COLUMN class_society text;
ALTER TABLE documents ADD COLUMN vessel_family text, ADD COLUMN class_society text,
    ADD COLUMN registration text;
ALTER TABLE chunks ADD COLUMN vessel_family text, ADD COLUMN class_society text,
    ADD COLUMN registration text;
CREATE INDEX chunks_vessel_family ON chunks (vessel_family);
CREATE INDEX chunks_class_society ON chunks (class_society);
CREATE INDEX chunks_registration ON chunks (registration);
