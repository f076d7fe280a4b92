-- Raw bodies, decoded texts and event bodies compressed with lz4 instead of pglz (issue 24): a value is compressed
-- only when its row passes about 2 KB (TOAST), which a padded replay or a long v3 notice does, and then pglz cost
-- about 3 times lz4's CPU on notice-like bodies of 2.5 to 64 KB for a larger result (measured on PostgreSQL 15,
-- 16 MB of bodies per method: pglz 575-1,200 ms, lz4 165-230 ms; lz4 53-84 % of the bytes stored, pglz 53-70 %).
-- Storing them uncompressed (STORAGE EXTERNAL) was not cheaper than lz4 and wrote twice the bytes, WAL included.
-- Rows of the usual notice size (under 1 KB) are never compressed either way.
--
-- SET COMPRESSION changes the catalog only: values already stored keep their method (PostgreSQL reads both), only
-- values written from now on use lz4; no rewrite, no scan, so it runs in moments on a table of any size. On the
-- partitioned notifications PostgreSQL 15 sets it on the parent only (a partition created later, by
-- NotificationPartitions' CREATE TABLE ... PARTITION OF, takes its columns' method from the parent), so each
-- existing partition is set here too.
--
-- A PostgreSQL built without lz4 (configure --without-lz4) refuses the method: the columns then stay pglz.
DO $$
DECLARE
    part regclass;
BEGIN
    BEGIN
        PERFORM set_config('default_toast_compression', 'lz4', true);
    EXCEPTION WHEN invalid_parameter_value THEN
        RAISE NOTICE 'this PostgreSQL has no lz4: bodies stay compressed with pglz';
        RETURN;
    END;
    ALTER TABLE notifications ALTER COLUMN raw_body SET COMPRESSION lz4, ALTER COLUMN decoded SET COMPRESSION lz4;
    FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'notifications'::regclass LOOP
        EXECUTE format('ALTER TABLE %s ALTER COLUMN raw_body SET COMPRESSION lz4,'
                       ' ALTER COLUMN decoded SET COMPRESSION lz4', part);
    END LOOP;
    ALTER TABLE events ALTER COLUMN body SET COMPRESSION lz4;
END
$$;
