package io.paynotify.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * The {@code orders} table (V1__orders.sql). Hibernate validates this mapping against the Flyway schema at start;
 * it never generates the schema. The notification write path uses plain SQL on the same table.
 */
@Entity
@Table(name = "orders")
public class OrderEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, length = 32)
    public String channel;

    @Column(name = "out_trade_no", nullable = false, length = 64)
    public String outTradeNo;

    @Column(nullable = false, length = 16)
    public String provider;

    @Column(name = "amount_minor", nullable = false)
    public long amountMinor;

    @Column(nullable = false, length = 3)
    public String currency;

    @Column(length = 256)
    public String description;

    @Column(nullable = false, length = 16)
    public String state;

    @Column(name = "transaction_id", length = 64)
    public String transactionId;

    @Column(name = "paid_at")
    public Instant paidAt;

    @Column(name = "paid_provider_status", length = 64)
    public String paidProviderStatus;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(nullable = false, columnDefinition = "text[]")
    public String[] attention = new String[0];

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Version
    @Column(nullable = false)
    public long version;
}
