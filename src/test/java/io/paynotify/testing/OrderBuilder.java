package io.paynotify.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Arranges one order row directly in the run's database, for tests of everything that is not the merchant API:
 * {@code anOrder().channel(TestChannels.WX).amount(700).insert()} is a PENDING order; {@link #paid} and
 * {@link #closed} put it in the other states without going through a notification or a close. Only what a test
 * names is set; the rest has harmless defaults (a fresh out_trade_no, 100 minor units of CNY, created now).
 */
public final class OrderBuilder {

    /** The paid_at of a {@link #paid} order unless {@link #paidAt} says otherwise. */
    public static final Instant DEFAULT_PAID_AT = Instant.parse("2020-01-01T00:00:00Z");

    private String channel = TestChannels.WX;
    private String provider;
    private String subMerchantId;
    private String subAppId;
    private String outTradeNo;
    private long amount = 100;
    private String currency = "CNY";
    private String description;
    private String state = "PENDING";
    private String transactionId;
    private Instant paidAt;
    private String paidProviderStatus;
    private final List<String> attention = new ArrayList<>();
    private Instant createdAt;
    private Instant updatedAt;

    private OrderBuilder() {}

    public static OrderBuilder anOrder() {
        return new OrderBuilder();
    }

    /** The inserted row's identity. */
    public record Order(long id, String channel, String outTradeNo) {}

    /**
     * The channel; the provider follows from the test channels' configuration ({@link TestChannels#config()}), and
     * a channel that is not configured there (e.g. a made-up one for the admin lists) is a WeChat Pay v2 one unless
     * {@link #provider} says otherwise.
     */
    public OrderBuilder channel(String channel) {
        this.channel = channel;
        return this;
    }

    /** WECHATPAY_V2, WECHATPAY_V3 or ALIPAY. */
    public OrderBuilder provider(String provider) {
        this.provider = provider;
        return this;
    }

    /** Defaults to a fresh random one. */
    public OrderBuilder outTradeNo(String outTradeNo) {
        this.outTradeNo = outTradeNo;
        return this;
    }

    /** In minor units (fen). */
    public OrderBuilder amount(long amount) {
        this.amount = amount;
        return this;
    }

    public OrderBuilder currency(String currency) {
        this.currency = currency;
        return this;
    }

    public OrderBuilder description(String description) {
        this.description = description;
        return this;
    }

    /** SUCCESS with this transaction id, paid at {@link #DEFAULT_PAID_AT} (provider status SUCCESS). */
    public OrderBuilder paid(String transactionId) {
        this.state = "SUCCESS";
        this.transactionId = transactionId;
        if (paidAt == null) {
            paidAt = DEFAULT_PAID_AT;
        }
        if (paidProviderStatus == null) {
            paidProviderStatus = "SUCCESS";
        }
        return this;
    }

    public OrderBuilder paidAt(Instant paidAt) {
        this.paidAt = paidAt;
        return this;
    }

    public OrderBuilder paidProviderStatus(String status) {
        this.paidProviderStatus = status;
        return this;
    }

    public OrderBuilder closed() {
        this.state = "CLOSED";
        this.transactionId = null;
        this.paidAt = null;
        this.paidProviderStatus = null;
        return this;
    }

    /** Flags the order for attention with this reason code (e.g. PAID_AFTER_CLOSE); repeatable. */
    public OrderBuilder attention(String reason) {
        attention.add(reason);
        return this;
    }

    /** The sub-merchant of an order of a service-provider or ISV channel (and its sub-app id, or null). */
    public OrderBuilder subMerchant(String subMerchantId, String subAppId) {
        this.subMerchantId = subMerchantId;
        this.subAppId = subAppId;
        return this;
    }

    public OrderBuilder createdAt(Instant createdAt) {
        this.createdAt = createdAt;
        return this;
    }

    public OrderBuilder updatedAt(Instant updatedAt) {
        this.updatedAt = updatedAt;
        return this;
    }

    /** Inserts the row (created and updated now unless set) and returns its id and identity. */
    public Order insert() {
        String no = outTradeNo != null
                ? outTradeNo
                : "O" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
        try (Connection c = Db.connect();
                PreparedStatement ps = c.prepareStatement("INSERT INTO orders (channel, out_trade_no, provider,"
                        + " amount_minor, currency, description, state, transaction_id, paid_at,"
                        + " paid_provider_status, attention, created_at, updated_at, sub_merchant_id, sub_app_id)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                        + " coalesce(?, now()), coalesce(?, ?, now()), ?, ?) RETURNING id")) {
            ps.setString(1, channel);
            ps.setString(2, no);
            ps.setString(3, provider != null ? provider : providerOf(channel));
            ps.setLong(4, amount);
            ps.setString(5, currency);
            ps.setString(6, description);
            ps.setString(7, state);
            ps.setString(8, transactionId);
            setTime(ps, 9, paidAt);
            ps.setString(10, paidProviderStatus);
            ps.setArray(11, c.createArrayOf("text", attention.toArray()));
            setTime(ps, 12, createdAt);
            setTime(ps, 13, updatedAt);
            setTime(ps, 14, createdAt);
            ps.setString(15, subMerchantId);
            ps.setString(16, subAppId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Order(rs.getLong(1), channel, no);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot insert the order " + no + " on " + channel, e);
        }
    }

    private static void setTime(PreparedStatement ps, int index, Instant t) throws SQLException {
        if (t == null) {
            ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            ps.setObject(index, OffsetDateTime.ofInstant(t, ZoneOffset.UTC));
        }
    }

    /** The provider a test channel is configured with; WECHATPAY_V2 for a channel that is not configured. */
    static String providerOf(String channel) {
        return CONFIG.getOrDefault("paynotify.channels.\"" + channel + "\".provider", "WECHATPAY_V2");
    }

    private static final Map<String, String> CONFIG = TestChannels.config();
}
