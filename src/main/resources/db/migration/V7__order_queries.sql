-- Active query (CONTRACT.md §9): when the provider was last asked about a PENDING order, and how often. Shown by
-- the admin order view; 0 and null until a query runs.
ALTER TABLE orders ADD COLUMN last_queried_at timestamptz;
ALTER TABLE orders ADD COLUMN query_count integer NOT NULL DEFAULT 0;
