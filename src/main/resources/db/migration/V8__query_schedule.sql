-- Active query scheduling (CONTRACT.md §9). next_query_at is when a PENDING order of a query-enabled channel is
-- next due for a query at its provider: its creation time plus the first schedule step, then, after each query,
-- its creation time plus the first step still in the future; null when no step is left or the channel does not
-- query. Replicas claim due rows with FOR UPDATE SKIP LOCKED through orders_query_due, which holds only the rows
-- that can still be due.
ALTER TABLE orders ADD COLUMN next_query_at timestamptz;

CREATE INDEX orders_query_due ON orders (next_query_at)
    WHERE state = 'PENDING' AND next_query_at IS NOT NULL;

-- PENDING orders that were never scheduled (created before their channel had query-enabled=true): scheduled once
-- at start by the replica that starts.
CREATE INDEX orders_query_unscheduled ON orders (channel, id)
    WHERE state = 'PENDING' AND next_query_at IS NULL AND query_count = 0;
