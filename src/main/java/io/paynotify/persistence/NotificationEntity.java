package io.paynotify.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** The {@code notifications} table (V2__notifications.sql): read-only here; rows are written by the intake. */
@Entity
@Table(name = "notifications")
public class NotificationEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, length = 32)
    public String channel;

    @Column(nullable = false, length = 16)
    public String provider;

    @Column(name = "out_trade_no", nullable = false, length = 64)
    public String outTradeNo;

    @Column(name = "order_id")
    public Long orderId;

    @Column(name = "notify_id", length = 128)
    public String notifyId;

    @Column(name = "provider_status", length = 64)
    public String providerStatus;

    @Column(name = "transaction_id", length = 64)
    public String transactionId;

    @Column(name = "amount_minor")
    public Long amountMinor;

    @Column(length = 8)
    public String currency;

    @Column(nullable = false, length = 16)
    public String outcome;

    @Column(length = 32)
    public String reason;

    @Column(name = "raw_body", nullable = false)
    public byte[] rawBody;

    @Column(columnDefinition = "text")
    public String decoded;

    @Column(name = "received_at", nullable = false)
    public Instant receivedAt;
}
