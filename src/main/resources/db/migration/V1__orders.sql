-- Orders registered by the merchant before the provider notifies (CONTRACT.md §1).
-- (channel, out_trade_no) is the order's identity; (provider, transaction_id) makes a provider transaction belong
-- to at most one order. Both are enforced here, never in memory.
CREATE TABLE orders (
    id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel              varchar(32)  NOT NULL,
    out_trade_no         varchar(64)  NOT NULL,
    provider             varchar(16)  NOT NULL
        CONSTRAINT orders_provider_check CHECK (provider IN ('WECHATPAY_V2', 'WECHATPAY_V3', 'ALIPAY')),
    amount_minor         bigint       NOT NULL
        CONSTRAINT orders_amount_check CHECK (amount_minor BETWEEN 1 AND 10000000000),
    currency             varchar(3)   NOT NULL
        CONSTRAINT orders_currency_check CHECK (currency ~ '^[A-Z]{3}$'),
    description          varchar(256),
    state                varchar(16)  NOT NULL
        CONSTRAINT orders_state_check CHECK (state IN ('PENDING', 'SUCCESS', 'CLOSED')),
    transaction_id       varchar(64),
    paid_at              timestamptz,
    paid_provider_status varchar(64),
    attention            text[]       NOT NULL DEFAULT '{}',
    created_at           timestamptz  NOT NULL,
    updated_at           timestamptz  NOT NULL,
    version              bigint       NOT NULL DEFAULT 0,
    CONSTRAINT orders_channel_out_trade_no_key UNIQUE (channel, out_trade_no),
    CONSTRAINT orders_provider_transaction_id_key UNIQUE (provider, transaction_id),
    -- only a paid order carries a transaction id and a payment time
    CONSTRAINT orders_paid_check CHECK ((state = 'SUCCESS') = (transaction_id IS NOT NULL AND paid_at IS NOT NULL))
);
