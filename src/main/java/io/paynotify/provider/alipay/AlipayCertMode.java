package io.paynotify.provider.alipay;

import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;

/**
 * A channel in Alipay's public-key-certificate mode (公钥证书模式; docs/api.md "Account modes"), as read at start:
 * the SNs every request carries, the roots and intermediates a downloaded certificate must chain through, and the
 * configured Alipay entity certificates by SN.
 *
 * @param appCertSn {@code app_cert_sn}: the SN of {@code app-cert}'s entity certificate
 * @param rootCertSn {@code alipay_root_cert_sn}: the RSA roots' SNs joined with {@code _}
 * @param roots the certificates of {@code alipay-root-cert}
 * @param intermediates every intermediate of the configured chain files (for a downloaded certificate's chain)
 * @param alipayKeys the key of each configured Alipay entity certificate, by its SN
 */
record AlipayCertMode(
        String appCertSn,
        String rootCertSn,
        List<X509Certificate> roots,
        List<X509Certificate> intermediates,
        Map<String, PublicKey> alipayKeys) {

    AlipayCertMode {
        roots = List.copyOf(roots);
        intermediates = List.copyOf(intermediates);
        alipayKeys = Map.copyOf(alipayKeys);
    }
}
