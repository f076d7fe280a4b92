-- The reads of a day's ledger by time (CONTRACT.md §11, docs/architecture.md "Indexes"): the missing-at-provider
-- windows (Orders.paidBetween, Refunds.succeededBetween), the NO_BILL check (Orders.activeBetween) and the ledger's
-- totals shown next to a statement's (StatementLedger.totals). Without them each of these reads scans the table.
-- amount_minor is included so that the totals are index-only scans.
--
-- Built CONCURRENTLY: orders and refunds hold live data and take the intake's writes, which a plain CREATE INDEX
-- would block (its SHARE lock) for the whole build. CREATE INDEX CONCURRENTLY cannot run in a transaction: Flyway
-- detects it and runs this migration without one, and its PostgreSQL lock is a session lock
-- (persistence/MigrationLock): the default transactional lock is an open transaction, which the build would wait
-- for, for ever. A build that fails leaves an INVALID index; the DROP … IF EXISTS lets the migration run again once
-- the failed attempt is removed from the history (flyway repair).
--
-- Partial: only paid orders have a paid_at and only SUCCESS refunds a succeeded_at, and every read names a range of
-- it (and, for refunds, status = 'SUCCESS'). HOT updates: an order's paid_at is set by the pay UPDATE only, which
-- was never HOT (it sets the indexed transaction_id and state), and its amount never changes; a refund's update that
-- moves it to SUCCESS or changes its amount is no longer HOT (about once per refund); no other update changes these
-- columns.

DROP INDEX CONCURRENTLY IF EXISTS orders_channel_paid_at_idx;
CREATE INDEX CONCURRENTLY orders_channel_paid_at_idx ON orders (channel, paid_at) INCLUDE (amount_minor)
    WHERE paid_at IS NOT NULL;

DROP INDEX CONCURRENTLY IF EXISTS refunds_channel_succeeded_at_idx;
CREATE INDEX CONCURRENTLY refunds_channel_succeeded_at_idx ON refunds (channel, succeeded_at) INCLUDE (amount_minor)
    WHERE status = 'SUCCESS';
