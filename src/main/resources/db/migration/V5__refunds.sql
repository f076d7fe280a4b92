-- Refunds (CONTRACT.md §7). A refund is identified by (channel, out_trade_no, out_refund_no): refund numbers are
-- unique only within one trade. Every refund decision runs under the order's row lock; this unique constraint is
-- the backstop that keeps one refund from applying twice, across replicas.
CREATE TABLE refunds (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_id       bigint       NOT NULL REFERENCES orders (id),
    channel        varchar(32)  NOT NULL,
    out_trade_no   varchar(64)  NOT NULL,
    -- v2/v3 out_refund_no (at most 64), Alipay out_biz_no or, when absent, the notice's notify_id (at most 128)
    out_refund_no  varchar(128) NOT NULL,
    refund_id      varchar(64),
    -- fen this refund added to the order's refunded amount (0 unless SUCCESS)
    amount_minor   bigint       NOT NULL DEFAULT 0
        CONSTRAINT refunds_amount_check CHECK (amount_minor >= 0),
    status         varchar(16)  NOT NULL
        CONSTRAINT refunds_status_check CHECK (status IN ('PROCESSING', 'SUCCESS', 'CLOSED', 'ABNORMAL')),
    succeeded_at   timestamptz,
    created_at     timestamptz  NOT NULL,
    updated_at     timestamptz  NOT NULL,
    CONSTRAINT refunds_channel_trade_refund_key UNIQUE (channel, out_trade_no, out_refund_no),
    -- only a succeeded refund carries a success time, and only it counts
    CONSTRAINT refunds_success_check CHECK ((status = 'SUCCESS') = (succeeded_at IS NOT NULL)),
    CONSTRAINT refunds_amount_success_check CHECK (status = 'SUCCESS' OR amount_minor = 0)
);
CREATE INDEX refunds_order_id_idx ON refunds (order_id, id);

-- The order's refunded amount (refunds in SUCCESS only) and the refund states.
ALTER TABLE orders ADD COLUMN refunded_minor bigint NOT NULL DEFAULT 0;
ALTER TABLE orders ADD CONSTRAINT orders_refunded_check CHECK (refunded_minor BETWEEN 0 AND amount_minor);
ALTER TABLE orders ALTER COLUMN state TYPE varchar(32);
ALTER TABLE orders DROP CONSTRAINT orders_state_check;
ALTER TABLE orders ADD CONSTRAINT orders_state_check
    CHECK (state IN ('PENDING', 'SUCCESS', 'PARTIALLY_REFUNDED', 'REFUNDED', 'CLOSED'));
ALTER TABLE orders DROP CONSTRAINT orders_paid_check;
ALTER TABLE orders ADD CONSTRAINT orders_paid_check
    CHECK ((state IN ('SUCCESS', 'PARTIALLY_REFUNDED', 'REFUNDED')) = (transaction_id IS NOT NULL AND paid_at IS NOT NULL));
-- a refunded state says what the amount says
ALTER TABLE orders ADD CONSTRAINT orders_refund_state_check CHECK (
    (state = 'REFUNDED') = (refunded_minor = amount_minor)
    AND (state = 'PARTIALLY_REFUNDED') = (refunded_minor > 0 AND refunded_minor < amount_minor)
    AND (state IN ('PENDING', 'SUCCESS', 'CLOSED')) = (refunded_minor = 0));

-- Where a recorded notification came from: a provider's delivery, or an answer of the active query (§9).
ALTER TABLE notifications ADD COLUMN source varchar(8) NOT NULL DEFAULT 'NOTIFY'
    CONSTRAINT notifications_source_check CHECK (source IN ('NOTIFY', 'QUERY'));
