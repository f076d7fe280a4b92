-- notifications becomes a table partitioned by month of received_at (UTC months), so that retention
-- (paynotify.notifications.retention, docs/operations.md "Retention and sizing") drops whole partitions instead of
-- deleting rows, and personal data (raw_body, decoded) can be erased after paynotify.notifications.personal-data-retention.
--
-- The table that holds the rows so far is not copied: it is renamed notifications_until_YYYY_MM and attached as the
-- first partition, FROM (MINVALUE) TO the first day of the month after the migration (or after its newest row,
-- when a clock ran ahead), so that the rows of the current month stay where they are. The service creates the
-- monthly partitions from that month on (NotificationPartitions, at start and every hour, under an advisory lock);
-- this migration creates the next three, so that a database just migrated takes rows at once.
--
-- What it costs on a table of any size: one scan that validates the range CHECK (PostgreSQL then skips its own scan
-- of ATTACH PARTITION, since the CHECK implies the partition bound) and V10's NOT VALID body check, and one index
-- build of the new primary key (id, received_at) — a partitioned table's unique indexes must contain the partition
-- key. Every other index (V2, V4) has the same definition on the parent and is attached, not rebuilt; the foreign key
-- to orders is attached, not validated again. Nothing is rewritten.
--
-- Uniqueness: id stays unique (the identity sequence, continued past the old one's last value; the primary key
-- (id, received_at) is what PostgreSQL can enforce). The intake relies on no other unique key of this table: the
-- per-order cap and the body dedupe run under the order's lock (intake/BatchTransaction).
--
-- Body dedupe (V10): from now on a row points only at a row of the same order received on the same UTC day
-- (persistence/Notifications.INSERT_CAPPED), so a holder and the rows pointing at it are always in one partition
-- and erased within a day of each other.
--
-- Erasure: personal_data_erased_at is set when raw_body and decoded were erased; such a row holds no bytes and may
-- point at none, so the body check allows it.
DO $$
DECLARE
    bound    timestamptz;
    name     text;
    last_id  bigint;
    m        timestamptz;
BEGIN
    SELECT (date_trunc('month', greatest(now(), coalesce(max(received_at), now())) AT TIME ZONE 'UTC')
               + interval '1 month') AT TIME ZONE 'UTC'
      INTO bound FROM notifications;
    name := 'notifications_until_' || to_char(bound AT TIME ZONE 'UTC', 'YYYY_MM');

    -- the old table's identity: its sequence goes with DROP IDENTITY, the new one continues after it
    SELECT greatest(coalesce((SELECT max(id) FROM notifications), 0),
                    coalesce((SELECT last_value FROM pg_sequences
                               WHERE schemaname = current_schema() AND sequencename = 'notifications_id_seq'), 0))
      INTO last_id;

    -- one ALTER TABLE, so one scan checks every new constraint (and V10's NOT VALID one, replaced): no rewrite
    EXECUTE format('ALTER TABLE notifications'
                   ' ADD COLUMN personal_data_erased_at timestamptz,'
                   ' DROP CONSTRAINT notifications_body_check,'
                   ' ADD CONSTRAINT notifications_body_check CHECK ((raw_body IS NULL) = (body_id IS NOT NULL)'
                   '     OR personal_data_erased_at IS NOT NULL),'
                   ' ADD CONSTRAINT notifications_erased_check'
                   '     CHECK (personal_data_erased_at IS NULL OR (raw_body IS NULL AND decoded IS NULL)),'
                   ' ADD CONSTRAINT notifications_partition_check CHECK (received_at < %L)', bound);
    EXECUTE format('ALTER TABLE notifications RENAME TO %I', name);
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT notifications_pkey', name);
    EXECUTE format('ALTER TABLE %I ALTER COLUMN id DROP IDENTITY', name);
    -- index names are per schema: the old table's take its name, and the parent's (same definitions) attach them
    EXECUTE format('ALTER INDEX notifications_channel_out_trade_no_idx RENAME TO %I', name || '_channel_out_trade_no_idx');
    EXECUTE format('ALTER INDEX notifications_outcome_id_idx RENAME TO %I', name || '_outcome_id_idx');
    EXECUTE format('ALTER INDEX notifications_channel_id_idx RENAME TO %I', name || '_channel_id_idx');
    RAISE NOTICE 'notifications: rows so far are partition %', name;

    CREATE TABLE notifications (
        id                      bigint GENERATED ALWAYS AS IDENTITY,
        channel                 varchar(32)  NOT NULL,
        provider                varchar(16)  NOT NULL,
        out_trade_no            varchar(64)  NOT NULL,
        order_id                bigint,
        notify_id               varchar(128),
        provider_status         varchar(64),
        transaction_id          varchar(64),
        amount_minor            bigint,
        currency                varchar(8),
        outcome                 varchar(16)  NOT NULL
            CONSTRAINT notifications_outcome_check
                CHECK (outcome IN ('APPLIED', 'DUPLICATE', 'IGNORED', 'ANOMALY')),
        reason                  varchar(32),
        raw_body                bytea,
        decoded                 text,
        received_at             timestamptz  NOT NULL,
        source                  varchar(8)   NOT NULL DEFAULT 'NOTIFY'
            CONSTRAINT notifications_source_check CHECK (source IN ('NOTIFY', 'QUERY')),
        raw_body_sha256         bytea,
        body_id                 bigint,
        personal_data_erased_at timestamptz,
        CONSTRAINT notifications_reason_check CHECK ((outcome IN ('APPLIED', 'DUPLICATE')) = (reason IS NULL)),
        CONSTRAINT notifications_body_check
            CHECK ((raw_body IS NULL) = (body_id IS NOT NULL) OR personal_data_erased_at IS NOT NULL),
        CONSTRAINT notifications_erased_check
            CHECK (personal_data_erased_at IS NULL OR (raw_body IS NULL AND decoded IS NULL)),
        CONSTRAINT notifications_pkey PRIMARY KEY (id, received_at),
        CONSTRAINT notifications_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders (id)
    ) PARTITION BY RANGE (received_at);
    CREATE INDEX notifications_channel_out_trade_no_idx ON notifications (channel, out_trade_no, id);
    CREATE INDEX notifications_outcome_id_idx ON notifications (outcome, id);
    CREATE INDEX notifications_channel_id_idx ON notifications (channel, id);
    -- the erasure job's walk: rows not erased yet, oldest first
    CREATE INDEX notifications_unerased_idx ON notifications (received_at) WHERE personal_data_erased_at IS NULL;
    PERFORM setval(pg_get_serial_sequence('notifications', 'id'), last_id + 1, false);

    EXECUTE format('ALTER TABLE notifications ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)', name, bound);
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT notifications_partition_check', name);

    FOR i IN 0..2 LOOP
        m := (date_trunc('month', bound AT TIME ZONE 'UTC') + make_interval(months => i)) AT TIME ZONE 'UTC';
        EXECUTE format('CREATE TABLE %I PARTITION OF notifications FOR VALUES FROM (%L) TO (%L)',
                       'notifications_' || to_char(m AT TIME ZONE 'UTC', 'YYYY_MM'), m,
                       (date_trunc('month', m AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC');
    END LOOP;
END
$$;
