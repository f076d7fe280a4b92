-- A refund's amount is the notice's, whatever its status (docs/api.md "Refunds"): an ABNORMAL or CLOSED refund keeps
-- the amount that did not reach the payer, and a PROCESSING one the amount asked for. Only SUCCESS refunds count in
-- orders.refunded_minor, which its own check constraints keep right.
ALTER TABLE refunds DROP CONSTRAINT refunds_amount_success_check;
COMMENT ON COLUMN refunds.amount_minor IS
    'fen: the refund''s amount as its notices state it (for Alipay, what the notice added to the trade''s running total); 0 only when no notice stated it';

-- Refunds recorded before this migration in another status than SUCCESS hold 0: take the amount from the newest
-- recorded notice of that refund that states one. Those notices are v2 req_info and v3 REFUND.* notices, whose
-- decoded column is the decrypted JSON object naming the refund's out_refund_no, and whose amount_minor is the
-- notice's refund amount (v2 refund_fee, v3 amount.refund). Alipay refunds are only ever SUCCESS.
UPDATE refunds r
   SET amount_minor = latest.amount_minor
  FROM (SELECT DISTINCT ON (n.channel, n.out_trade_no, n.decoded::jsonb ->> 'out_refund_no')
               n.channel, n.out_trade_no, n.decoded::jsonb ->> 'out_refund_no' AS out_refund_no, n.amount_minor
          FROM notifications n
         WHERE n.decoded LIKE '{%'
           AND n.amount_minor IS NOT NULL
           AND n.amount_minor > 0
           AND n.provider IN ('WECHATPAY_V2', 'WECHATPAY_V3')
           AND n.decoded::jsonb ? 'out_refund_no'
         ORDER BY n.channel, n.out_trade_no, n.decoded::jsonb ->> 'out_refund_no', n.id DESC) latest
 WHERE r.status <> 'SUCCESS'
   AND r.amount_minor = 0
   AND r.channel = latest.channel
   AND r.out_trade_no = latest.out_trade_no
   AND r.out_refund_no = latest.out_refund_no;
