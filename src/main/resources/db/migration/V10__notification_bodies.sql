-- A body byte-identical to one already stored for the same (channel, out_trade_no) is stored once: the new row is
-- still recorded (it is a delivery), but points at the row that holds the bytes instead of holding them again. v2
-- and Alipay signatures ignore empty fields and XML comments, so one captured notice padded to 64 KiB and replayed
-- up to the per-order cap of 500 would otherwise store the same bytes 500 times.
--
-- raw_body_sha256: SHA-256 of the body as received, on every row written from now on; null on older rows, which
-- keep their raw_body and are never matched (the next identical delivery stores the bytes once more, and later ones
-- point at it). body_id: the row of the same (channel, out_trade_no) whose raw_body holds these bytes, when this
-- row's raw_body is null.
--
-- The intake finds that row through notifications_channel_out_trade_no_idx (channel, out_trade_no, id) of V2, the
-- index its per-order cap already walks: at most 500 entries of one order, the hash compared on the heap row. No new
-- index, so no extra write on the insert path.
--
-- Every statement here changes the catalog only (no table rewrite, no scan), so it runs in moments on a table of any
-- size. The constraint is NOT VALID for that reason: every existing row satisfies it (raw_body was NOT NULL and
-- body_id is new), PostgreSQL checks every row written from now on, and validating would scan the table under this
-- migration's exclusive lock. body_id has no foreign key: its check would take a FOR KEY SHARE lock (a write) on the
-- holding row for every duplicate, and a delete of any notification would search body_id without an index; nothing
-- deletes notifications, and a retention job that does must delete an order's rows together.
ALTER TABLE notifications ADD COLUMN raw_body_sha256 bytea;
ALTER TABLE notifications ADD COLUMN body_id bigint;
ALTER TABLE notifications ALTER COLUMN raw_body DROP NOT NULL;
-- a row holds its bytes or points at the row that does: never both, never neither
ALTER TABLE notifications ADD CONSTRAINT notifications_body_check
    CHECK ((raw_body IS NULL) = (body_id IS NOT NULL)) NOT VALID;
