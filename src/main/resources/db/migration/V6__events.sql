-- Merchant events (CONTRACT.md §8): a transactional outbox. An event is inserted in the transaction of the change
-- it reports, so it exists if and only if that change committed; a delivery row per subscribed client with a
-- webhook; every attempt of a delivery. Due times and leases use PostgreSQL's clock.
CREATE TABLE events (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- the public id: evt_ + 26 characters of [0-9A-Za-z]; the webhook-id of every delivery
    event_id      varchar(30)  NOT NULL
        CONSTRAINT events_event_id_check CHECK (event_id ~ '^evt_[0-9A-Za-z]{26}$'),
    type          varchar(32)  NOT NULL
        CONSTRAINT events_type_check CHECK (type IN ('order.paid', 'order.closed', 'order.refunded', 'order.attention')),
    channel       varchar(32)  NOT NULL,
    out_trade_no  varchar(64)  NOT NULL,
    order_id      bigint       NOT NULL REFERENCES orders (id),
    -- the exact JSON every attempt sends, byte for byte
    body          bytea        NOT NULL,
    created_at    timestamptz  NOT NULL,
    -- the inserting transaction: the pull list shows an event only once no older transaction can still insert one
    xid           xid8         NOT NULL DEFAULT pg_current_xact_id(),
    CONSTRAINT events_event_id_key UNIQUE (event_id)
);
CREATE INDEX events_channel_id_idx ON events (channel, id);
CREATE INDEX events_type_id_idx ON events (type, id);
CREATE INDEX events_created_at_idx ON events (created_at);

CREATE TABLE deliveries (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id         bigint       NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    client_id        text         NOT NULL,
    webhook_url      text         NOT NULL,
    -- per client and order, a delivery waits for the earlier one
    order_id         bigint       NOT NULL,
    state            varchar(16)  NOT NULL
        CONSTRAINT deliveries_state_check CHECK (state IN ('PENDING', 'SUCCEEDED', 'FAILED')),
    -- attempts since the delivery was last queued (a redeliver resets it)
    attempts         integer      NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz  NOT NULL,
    -- a replica's claim: it alone attempts the delivery until then
    lease_until      timestamptz,
    lease_token      uuid,
    last_attempt_at  timestamptz,
    last_status      integer,
    last_error       varchar(64),
    created_at       timestamptz  NOT NULL,
    CONSTRAINT deliveries_event_client_key UNIQUE (event_id, client_id)
);
CREATE INDEX deliveries_due_idx ON deliveries (next_attempt_at, id) WHERE state = 'PENDING';
CREATE INDEX deliveries_order_idx ON deliveries (client_id, order_id, id) WHERE state = 'PENDING';
CREATE INDEX deliveries_created_at_idx ON deliveries (created_at);

CREATE TABLE delivery_attempts (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id  bigint       NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    at           timestamptz  NOT NULL,
    status       integer,
    error        varchar(64),
    duration_ms  integer      NOT NULL
);
CREATE INDEX delivery_attempts_delivery_idx ON delivery_attempts (delivery_id, id);

-- A webhook disabled by a 410 Gone, per client and URL, so that every replica sees it; enabled again by an operator.
CREATE TABLE webhook_endpoints (
    client_id    text         NOT NULL,
    webhook_url  text         NOT NULL,
    disabled_at  timestamptz,
    PRIMARY KEY (client_id, webhook_url)
);
