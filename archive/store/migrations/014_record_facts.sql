-- Typed record facts for questions that count ("how many fatal accidents in Texas in 2011?"):
-- generated from the metadata every NTSB record and IMO casualty already stores, so they are
-- filled at ingest and, for rows stored before this migration, when it runs. NTSB records:
-- injuries ("fatal 1, serious 0, minor 2"), US state, make, model, aircraft category, weather.
-- IMO casualties: flag states ("PAN,LBR": one per ship), casualty severity, initial event and
-- consequences ("Loss of life,Total loss of the ship"). See archive/store/counts.py.
ALTER TABLE documents
    ADD COLUMN fatalities integer
        GENERATED ALWAYS AS ((substring(metadata->>'injuries' from 'fatal (\d+)'))::integer) STORED,
    ADD COLUMN serious_injuries integer
        GENERATED ALWAYS AS ((substring(metadata->>'injuries' from 'serious (\d+)'))::integer) STORED,
    ADD COLUMN minor_injuries integer
        GENERATED ALWAYS AS ((substring(metadata->>'injuries' from 'minor (\d+)'))::integer) STORED,
    ADD COLUMN region text GENERATED ALWAYS AS (upper(metadata->>'state')) STORED,
    ADD COLUMN make text GENERATED ALWAYS AS (upper(metadata->>'make')) STORED,
    ADD COLUMN model text GENERATED ALWAYS AS (upper(metadata->>'model')) STORED,
    ADD COLUMN aircraft_category text
        GENERATED ALWAYS AS (upper(metadata->>'aircraft_category')) STORED,
    ADD COLUMN weather text GENERATED ALWAYS AS (upper(metadata->>'weather')) STORED,
    ADD COLUMN flags text[]
        GENERATED ALWAYS AS (string_to_array(upper(metadata->>'flag'), ',')) STORED,
    ADD COLUMN severity text GENERATED ALWAYS AS (lower(metadata->>'casualty_type')) STORED,
    ADD COLUMN initial_event text GENERATED ALWAYS AS (lower(metadata->>'initial_event')) STORED,
    ADD COLUMN consequences text GENERATED ALWAYS AS (lower(metadata->>'consequences')) STORED;
CREATE INDEX documents_kind_date ON documents (kind, date);
CREATE INDEX documents_region ON documents (region);
CREATE INDEX documents_make ON documents (make);
CREATE INDEX documents_flags ON documents USING gin (flags);
