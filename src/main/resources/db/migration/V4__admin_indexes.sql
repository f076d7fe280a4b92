-- Indexes for the admin lists (CONTRACT.md §4), each matching one keyset query of io.paynotify.admin.AdminQueries:
-- a filter followed by the id that the page walks. The unfiltered lists use the primary keys; an order's history
-- uses notifications_channel_out_trade_no_idx from V2.

-- GET /admin/orders?channel=
CREATE INDEX orders_channel_id_idx ON orders (channel, id);
-- GET /admin/orders?state=
CREATE INDEX orders_state_id_idx ON orders (state, id);
-- GET /admin/orders?attention=true: flagged orders are few, so a partial index keeps the anomaly view cheap
CREATE INDEX orders_attention_id_idx ON orders (id) WHERE attention <> '{}';

-- GET /admin/notifications?outcome=  (outcome=ANOMALY is the operator's queue)
CREATE INDEX notifications_outcome_id_idx ON notifications (outcome, id);
-- GET /admin/notifications?channel=
CREATE INDEX notifications_channel_id_idx ON notifications (channel, id);
