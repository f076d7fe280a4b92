-- Account modes (docs/api.md "Account modes"): an order of a WeChat Pay service-provider channel names its
-- sub-merchant (sub_mch_id, and optionally sub_appid); an order of an Alipay ISV channel the authorising merchant's
-- app id (auth_app_id). Null on direct channels. Nullable columns without a default: a catalog change only, however
-- many rows the tables hold.
ALTER TABLE orders ADD COLUMN sub_merchant_id varchar(32);
ALTER TABLE orders ADD COLUMN sub_app_id varchar(32);
-- the order's sub-merchant, copied onto its events: a client limited to some sub-merchants pulls only theirs
ALTER TABLE events ADD COLUMN sub_merchant_id varchar(32);
