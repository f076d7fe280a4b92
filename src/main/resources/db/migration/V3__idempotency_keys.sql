-- Idempotency-Key claims of the merchant API (CONTRACT.md §3). The unique constraint on
-- (client_id, method_path, idempotency_key) is the lock: the INSERT that claims a key blocks every concurrent
-- claim of the same key until its transaction ends. The claim, the business write and the stored answer commit in
-- one transaction, so a committed row always carries its answer and a failed request leaves no row behind.
CREATE TABLE idempotency_keys (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    client_id         text         NOT NULL
        CONSTRAINT idempotency_keys_client_id_check CHECK (length(client_id) BETWEEN 1 AND 256),
    -- METHOD + ' ' + the raw path (no query), e.g. 'POST /api/v1/orders'
    method_path       text         NOT NULL
        CONSTRAINT idempotency_keys_method_path_check CHECK (length(method_path) BETWEEN 1 AND 2048),
    idempotency_key   varchar(255) NOT NULL
        CONSTRAINT idempotency_keys_key_check CHECK (idempotency_key ~ '^[\x21-\x7E]{1,255}$'),
    -- SHA-256 of the raw request body
    fingerprint       bytea        NOT NULL
        CONSTRAINT idempotency_keys_fingerprint_check CHECK (length(fingerprint) = 32),
    -- the stored answer; null only while the claiming transaction is still running (never visible once committed)
    status_code       smallint
        CONSTRAINT idempotency_keys_status_check CHECK (status_code BETWEEN 200 AND 499),
    content_type      varchar(64),
    response_body     bytea,
    first_response_at timestamptz,
    created_at        timestamptz  NOT NULL,
    expires_at        timestamptz  NOT NULL,
    CONSTRAINT idempotency_keys_scope_key UNIQUE (client_id, method_path, idempotency_key),
    CONSTRAINT idempotency_keys_answer_check CHECK (
        (status_code IS NULL) = (response_body IS NULL)
        AND (status_code IS NULL) = (first_response_at IS NULL)
        AND (status_code IS NULL) = (content_type IS NULL))
);

-- the cleanup job's batches: expired rows, oldest first
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
