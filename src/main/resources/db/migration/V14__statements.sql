-- The providers' daily bills and their reconciliation (CONTRACT.md §11, docs/api.md "Statements").
--
-- Only new tables and their indexes: nothing here reads or rewrites orders, refunds or notifications, so the
-- migration runs in moments on a database holding any amount of data.
--
-- statements: one row per (channel, bill_date), the Beijing day. stored_status is what the last fetch or upload
-- gave: READ (a bill was read: the status shown is derived live, DIFFERENCES while the day has an OPEN difference,
-- else RECONCILED), NO_BILL, NOT_READY or ERROR (with error). line_set_id names the set of lines the day's bill
-- holds now; a new bill's lines are staged under a new set and swapped in by one short UPDATE of this row.
CREATE TABLE statements (
    channel           varchar(32)  NOT NULL,
    bill_date         date         NOT NULL,
    stored_status     varchar(16)  NOT NULL
        CONSTRAINT statements_status_check CHECK (stored_status IN ('READ', 'NO_BILL', 'NOT_READY', 'ERROR')),
    error             varchar(16),
    source            varchar(8)   NOT NULL
        CONSTRAINT statements_source_check CHECK (source IN ('FETCH', 'UPLOAD')),
    fetched_at        timestamptz,
    file_sha256       varchar(64),
    attempts          integer      NOT NULL DEFAULT 0,
    -- the first fetch attempt of the current series: its Beijing day's 23:30 ends the retries
    first_attempt_at  timestamptz,
    next_attempt_at   timestamptz,
    line_set_id       bigint,
    payment_count     bigint       NOT NULL DEFAULT 0,
    payment_amount    bigint       NOT NULL DEFAULT 0,
    refund_count      bigint       NOT NULL DEFAULT 0,
    refund_amount     bigint       NOT NULL DEFAULT 0,
    foreign_count     bigint       NOT NULL DEFAULT 0,
    foreign_amount    bigint       NOT NULL DEFAULT 0,
    fees              numeric(24, 6) NOT NULL DEFAULT 0,
    created_at        timestamptz  NOT NULL DEFAULT now(),
    updated_at        timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (channel, bill_date),
    CONSTRAINT statements_error_check CHECK ((stored_status = 'ERROR') = (error IS NOT NULL))
);
-- the admin list: (billDate desc, channel asc)
CREATE INDEX statements_list_idx ON statements (bill_date DESC, channel);
-- the scheduler's retries
CREATE INDEX statements_due_idx ON statements (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- statement_claims: who works on a (channel, bill_date) now. A fetch or upload takes the row (SKIP LOCKED, lease on
-- PostgreSQL's clock), renews the lease every 30 s, and its swap commits only while the token is still its own.
CREATE TABLE statement_claims (
    channel      varchar(32)  NOT NULL,
    bill_date    date         NOT NULL,
    token        uuid,
    lease_until  timestamptz,
    PRIMARY KEY (channel, bill_date)
);

-- statement_line_sets / statement_lines: a bill's detail lines, staged under a set that becomes the day's at the
-- swap. Sets that never became a day's (a read that failed, a lost claim) and replaced sets are deleted in batches.
CREATE TABLE statement_line_sets (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel     varchar(32)  NOT NULL,
    bill_date   date         NOT NULL,
    created_at  timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX statement_line_sets_created_idx ON statement_line_sets (created_at);

CREATE TABLE statement_lines (
    set_id           bigint        NOT NULL,
    line_no          integer       NOT NULL,
    type             varchar(8)    NOT NULL
        CONSTRAINT statement_lines_type_check CHECK (type IN ('PAYMENT', 'REFUND', 'OTHER')),
    is_foreign       boolean       NOT NULL,
    out_trade_no     varchar(64),
    transaction_id   varchar(64),
    out_refund_no    varchar(128),
    amount_minor     bigint        NOT NULL,
    fee              numeric(16, 6),
    line_time        timestamp,
    app_id           varchar(32),
    sub_merchant_id  varchar(32),
    status           varchar(32),
    PRIMARY KEY (set_id, line_no)
);
-- the missing-at-provider windows look a payment up in the sets of a few days
CREATE INDEX statement_lines_trade_idx ON statement_lines (out_trade_no, set_id) WHERE NOT is_foreign;

-- statement_refunds: the refund lines of each day's bill, per (order, refund number), kept as long as the order
-- (bill lines only for paynotify.statements.retention): WeChat looks a local refund's number up in every stored
-- bill, Alipay adds an order's refund lines of every stored bill up. Replaced at each swap of that day.
CREATE TABLE statement_refunds (
    channel        varchar(32)   NOT NULL,
    bill_date      date          NOT NULL,
    out_trade_no   varchar(64)   NOT NULL,
    out_refund_no  varchar(128)  NOT NULL,
    amount_minor   bigint        NOT NULL,
    PRIMARY KEY (channel, out_trade_no, out_refund_no, bill_date)
);
CREATE INDEX statement_refunds_day_idx ON statement_refunds (channel, bill_date);

-- statement_differences: unique on (channel, bill_date, kind, out_trade_no, out_refund_no), out_refund_no null for
-- the payment kinds and Alipay refunds (NULLS NOT DISTINCT: PostgreSQL 15). Ids grow with creation; rows are
-- updated in place when a day is reconciled again and never deleted.
CREATE TABLE statement_differences (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel          varchar(32)   NOT NULL,
    bill_date        date          NOT NULL,
    kind             varchar(32)   NOT NULL
        CONSTRAINT statement_differences_kind_check CHECK (kind IN ('ACCOUNT_MISMATCH', 'UNKNOWN_ORDER',
            'MISSING_LOCALLY', 'TRANSACTION_MISMATCH', 'AMOUNT_MISMATCH', 'REFUND_MISSING_LOCALLY',
            'REFUND_MISSING_AT_PROVIDER', 'MISSING_AT_PROVIDER')),
    out_trade_no     varchar(64)   NOT NULL,
    out_refund_no    varchar(128),
    sub_merchant_id  varchar(32),
    transaction_id   varchar(64),
    bill_amount      bigint,
    local_amount     bigint,
    local_state      varchar(32),
    status           varchar(8)    NOT NULL
        CONSTRAINT statement_differences_status_check CHECK (status IN ('OPEN', 'RESOLVED')),
    note             varchar(500),
    query_result     varchar(16),
    created_at       timestamptz   NOT NULL,
    updated_at       timestamptz   NOT NULL,
    resolved_at      timestamptz,
    -- the reconcile run that last raised it: an OPEN difference a later run of its day did not raise is resolved
    last_run         uuid,
    CONSTRAINT statement_differences_key UNIQUE NULLS NOT DISTINCT (channel, bill_date, kind, out_trade_no, out_refund_no),
    CONSTRAINT statement_differences_resolved_check CHECK ((status = 'RESOLVED') = (resolved_at IS NOT NULL))
);
CREATE INDEX statement_differences_open_idx ON statement_differences (channel, bill_date) WHERE status = 'OPEN';
CREATE INDEX statement_differences_trade_idx ON statement_differences (channel, out_trade_no);
