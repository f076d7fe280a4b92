-- The statements NotificationIntake runs for one DUPLICATE delivery: lock, transaction-id check, record; the order
-- is not updated. run.sh replaces @BODY@ with a body-sized bytea literal.
\set n random(1, :norders)
BEGIN;
SELECT id AS oid, state, amount_minor, currency, transaction_id, paid_provider_status, attention FROM orders WHERE channel = 'pgbench' AND out_trade_no = 'P' || :n FOR UPDATE \gset
SELECT 1 FROM orders WHERE provider = 'ALIPAY' AND transaction_id = 'T' || :n AND NOT (channel = 'pgbench' AND out_trade_no = 'P' || :n) LIMIT 1;
INSERT INTO notifications (channel, provider, out_trade_no, order_id, notify_id, provider_status, transaction_id, amount_minor, currency, outcome, reason, raw_body, decoded, received_at) SELECT 'pgbench', 'ALIPAY', 'P' || :n, :oid, 'N' || :n, 'TRADE_SUCCESS', 'T' || :n, 1999, 'CNY', 'DUPLICATE', NULL, @BODY@, NULL, now() WHERE (SELECT count(*) FROM (SELECT 1 FROM notifications WHERE channel = 'pgbench' AND out_trade_no = 'P' || :n LIMIT 500) recorded) < 500;
COMMIT;
