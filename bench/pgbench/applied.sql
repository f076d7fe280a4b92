-- One APPLIED payment notice (a first delivery) exactly as the pre-batching NotificationIntake runs it, in one
-- transaction: the statement texts are those of Orders.LOCK, Orders.TRANSACTION_ELSEWHERE,
-- Notifications.INSERT_CAPPED, Orders.PAY, Orders.FIND and Events.INSERT (EventOutbox writes order.paid after the
-- order's update, re-reading the order), with the same parameters; only the times are now() instead of bound
-- timestamps, and casts stand where the JDBC driver sends typed parameters. No delivery row: no webhook is subscribed.
-- run.sh passes (-D): ch (channel), base and span (this run's range of PENDING orders 'P' || n), clients, k = 0,
-- body (raw body, hex bytea text), decoded (text), event (event JSON, hex bytea text).
-- Each client walks its own orders (k counts its transactions, variables persist per client), so every order is
-- paid exactly once, as in the load.
\set k :k + 1
\set n :base + (:k * :clients + :client_id) % :span + 1
BEGIN;
SELECT id, channel, out_trade_no, provider, amount_minor, currency, description, state, transaction_id, paid_at, paid_provider_status, refunded_minor, attention, created_at, updated_at, last_queried_at, query_count FROM orders WHERE channel = :ch AND out_trade_no = 'P' || :n FOR UPDATE \gset o_
SELECT 1 FROM orders WHERE provider = 'ALIPAY' AND transaction_id = 'T' || :n AND NOT (channel = :ch AND out_trade_no = 'P' || :n) LIMIT 1;
INSERT INTO notifications (channel, provider, out_trade_no, order_id, notify_id, provider_status, transaction_id, amount_minor, currency, outcome, reason, raw_body, decoded, received_at, source) SELECT :ch, 'ALIPAY', 'P' || :n, :o_id::bigint, 'N' || :n, 'TRADE_SUCCESS', 'T' || :n, 1999::bigint, 'CNY', 'APPLIED', NULL, :body::bytea, :decoded, now(), 'NOTIFY' WHERE (SELECT count(*) FROM (SELECT 1 FROM notifications WHERE channel = :ch AND out_trade_no = 'P' || :n LIMIT 500) recorded) < 500 RETURNING id;
UPDATE orders SET state = 'SUCCESS', transaction_id = 'T' || :n, paid_at = now(), paid_provider_status = 'TRADE_SUCCESS', attention = '{}', updated_at = now(), version = version + 1 WHERE id = :o_id AND state = 'PENDING';
SELECT id, channel, out_trade_no, provider, amount_minor, currency, description, state, transaction_id, paid_at, paid_provider_status, refunded_minor, attention, created_at, updated_at, last_queried_at, query_count FROM orders WHERE channel = :ch AND out_trade_no = 'P' || :n;
INSERT INTO events (event_id, type, channel, out_trade_no, order_id, body, created_at) VALUES ('evt_' || lpad(:n, 26, '0'), 'order.paid', :ch, 'P' || :n, :o_id, :event::bytea, now()) RETURNING id;
COMMIT;
