package io.paynotify.config;

import java.time.Instant;
import java.util.Objects;

/**
 * One certificate of a channel's configuration, as the expiry metric names it
 * ({@code paynotify_certificate_expiry_seconds{channel,key,sn}}, docs/operations.md "Alerts and runbooks").
 *
 * @param key the configuration key the certificate is in ({@code alipay-public-key}, {@code app-cert},
 *     {@code alipay-root-cert})
 * @param sn the certificate's serial number as the provider names it (Alipay's SN)
 * @param notAfter the end of its validity period
 */
public record ConfiguredCertificate(String key, String sn, Instant notAfter) {

    public ConfiguredCertificate {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sn, "sn");
        Objects.requireNonNull(notAfter, "notAfter");
    }
}
