-- One DUPLICATE delivery of a paid order exactly as the pre-batching NotificationIntake runs it, in one transaction:
-- Orders.LOCK, Orders.TRANSACTION_ELSEWHERE (it finds the order's own transaction id, which does not count),
-- Notifications.INSERT_CAPPED with outcome DUPLICATE; the order is not updated and no event is written. The same
-- parameters as the service's; times are now(). run.sh passes (-D): ch, npaid (the paid orders 'D' || n, each with
-- transaction id 'TD' || n and one APPLIED notification), body, decoded.
\set n random(1, :npaid)
BEGIN;
SELECT id, channel, out_trade_no, provider, amount_minor, currency, description, state, transaction_id, paid_at, paid_provider_status, refunded_minor, attention, created_at, updated_at, last_queried_at, query_count FROM orders WHERE channel = :ch AND out_trade_no = 'D' || :n FOR UPDATE \gset o_
SELECT 1 FROM orders WHERE provider = 'ALIPAY' AND transaction_id = 'TD' || :n AND NOT (channel = :ch AND out_trade_no = 'D' || :n) LIMIT 1;
INSERT INTO notifications (channel, provider, out_trade_no, order_id, notify_id, provider_status, transaction_id, amount_minor, currency, outcome, reason, raw_body, decoded, received_at, source) SELECT :ch, 'ALIPAY', 'D' || :n, :o_id::bigint, 'ND' || :n, 'TRADE_SUCCESS', 'TD' || :n, 1999::bigint, 'CNY', 'DUPLICATE', NULL, :body::bytea, :decoded, now(), 'NOTIFY' WHERE (SELECT count(*) FROM (SELECT 1 FROM notifications WHERE channel = :ch AND out_trade_no = 'D' || :n LIMIT 500) recorded) < 500 RETURNING id;
COMMIT;
