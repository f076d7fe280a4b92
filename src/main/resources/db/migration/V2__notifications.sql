-- Every verified delivery, duplicates included (up to 500 per order), with its raw body and what it did.
-- Deliveries refused before the signature held are never stored here (CONTRACT.md §1).
CREATE TABLE notifications (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel         varchar(32)  NOT NULL,
    provider        varchar(16)  NOT NULL,
    out_trade_no    varchar(64)  NOT NULL,
    order_id        bigint REFERENCES orders (id),
    notify_id       varchar(128),
    provider_status varchar(64),
    transaction_id  varchar(64),
    amount_minor    bigint,
    currency        varchar(8),
    outcome         varchar(16)  NOT NULL
        CONSTRAINT notifications_outcome_check CHECK (outcome IN ('APPLIED', 'DUPLICATE', 'IGNORED', 'ANOMALY')),
    reason          varchar(32),
    raw_body        bytea        NOT NULL,
    decoded         text,
    received_at     timestamptz  NOT NULL,
    -- APPLIED and DUPLICATE carry no reason; IGNORED and ANOMALY always do
    CONSTRAINT notifications_reason_check CHECK ((outcome IN ('APPLIED', 'DUPLICATE')) = (reason IS NULL))
);

-- the intake's per-order cap and an order's history, oldest first
CREATE INDEX notifications_channel_out_trade_no_idx ON notifications (channel, out_trade_no, id);
