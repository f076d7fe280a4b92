package io.paynotify.simulator.sign;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Issues X.509 v3 certificates with the JDK alone (a small DER writer: the simulator uses no certificate library),
 * for the test PKI of Alipay's public-key-certificate mode (公钥证书模式): roots, intermediates, app and Alipay
 * certificates. RSA issuers sign {@code sha256WithRSAEncryption}, EC issuers {@code ecdsa-with-SHA256} (the non-RSA
 * root that {@code alipay_root_cert_sn} leaves out). Names are written as given, most specific attribute first
 * (RFC 2253 order, {@code CN=…,OU=…,O=…,C=…}), each value a UTF8String ({@code C} a PrintableString), so that Java's
 * {@code X500Principal.getName()} gives the same text back.
 */
public final class CertIssuer {

    private static final byte[] SHA256_WITH_RSA = oid("1.2.840.113549.1.1.11");
    private static final byte[] ECDSA_WITH_SHA256 = oid("1.2.840.10045.4.3.2");
    private static final DateTimeFormatter UTC_TIME =
            DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter GENERALIZED_TIME =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    private CertIssuer() {}

    /**
     * One certificate.
     *
     * @param subject the subject name, RFC 2253 order ({@code CN=…,O=…,C=CN})
     * @param subjectKey the certified public key (RSA or EC)
     * @param issuer the issuer's name (the subject, for a self-signed root)
     * @param issuerKey the issuer's private key (RSA or EC)
     * @param serial the serial number, positive
     * @param ca true for a root or an intermediate (basicConstraints cA, keyCertSign)
     */
    public static X509Certificate issue(
            String subject,
            PublicKey subjectKey,
            String issuer,
            PrivateKey issuerKey,
            BigInteger serial,
            Instant notBefore,
            Instant notAfter,
            boolean ca) {
        boolean ec = "EC".equals(issuerKey.getAlgorithm());
        byte[] algorithm = ec ? seq(ECDSA_WITH_SHA256) : seq(SHA256_WITH_RSA, new byte[] {0x05, 0x00});
        byte[] tbs = seq(
                tag(0xA0, integer(BigInteger.TWO)),
                integer(serial),
                algorithm,
                name(issuer),
                seq(time(notBefore), time(notAfter)),
                name(subject),
                subjectKey.getEncoded(),
                tag(0xA3, seq(extensions(ca))));
        try {
            Signature signer = Signature.getInstance(ec ? "SHA256withECDSA" : "SHA256withRSA");
            signer.initSign(issuerKey);
            signer.update(tbs);
            byte[] der = seq(tbs, algorithm, bitString(signer.sign()));
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot issue " + subject + ": " + e.getMessage(), e);
        }
    }

    /** The certificates as one PEM text, in the order given (a chain file, or a root bundle). */
    public static String pem(List<X509Certificate> certificates) {
        var out = new StringBuilder();
        for (X509Certificate c : certificates) {
            try {
                out.append("-----BEGIN CERTIFICATE-----\n")
                        .append(Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(c.getEncoded()))
                        .append("\n-----END CERTIFICATE-----\n");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("cannot encode a certificate", e);
            }
        }
        return out.toString();
    }

    /** Every certificate of a PEM text, in file order. */
    public static List<X509Certificate> read(String pem) {
        try {
            var out = new ArrayList<X509Certificate>();
            for (var c : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
                out.add((X509Certificate) c);
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not PEM certificates: " + e.getMessage(), e);
        }
    }

    private static byte[] extensions(boolean ca) {
        // basicConstraints (critical) and keyUsage (critical)
        byte[] basic = seq(oid("2.5.29.19"), bool(true), octets(ca ? seq(bool(true)) : seq()));
        byte[] usage = ca ? new byte[] {0x03, 0x02, 0x01, 0x06} : new byte[] {0x03, 0x02, 0x07, (byte) 0x80};
        byte[] keyUsage = seq(oid("2.5.29.15"), bool(true), octets(usage));
        return concat(basic, keyUsage);
    }

    /** A Name: the RDNs of an RFC 2253 string, most general first in DER. */
    private static byte[] name(String rfc2253) {
        String[] parts = rfc2253.split(",");
        var rdns = new ArrayList<byte[]>();
        for (int i = parts.length - 1; i >= 0; i--) {
            String part = parts[i].strip();
            int eq = part.indexOf('=');
            String type = part.substring(0, eq).strip();
            String value = part.substring(eq + 1).strip();
            byte[] attrOid = switch (type) {
                case "CN" -> oid("2.5.4.3");
                case "OU" -> oid("2.5.4.11");
                case "O" -> oid("2.5.4.10");
                case "L" -> oid("2.5.4.7");
                case "ST" -> oid("2.5.4.8");
                case "C" -> oid("2.5.4.6");
                default -> throw new IllegalArgumentException("unsupported name attribute " + type);
            };
            byte[] text = "C".equals(type)
                    ? tlv(0x13, value.getBytes(StandardCharsets.US_ASCII))
                    : tlv(0x0C, value.getBytes(StandardCharsets.UTF_8));
            rdns.add(tlv(0x31, seq(attrOid, text)));
        }
        return seq(rdns.toArray(new byte[0][]));
    }

    private static byte[] time(Instant t) {
        int year = t.atZone(ZoneOffset.UTC).getYear();
        return year >= 1950 && year < 2050
                ? tlv(0x17, UTC_TIME.format(t).getBytes(StandardCharsets.US_ASCII))
                : tlv(0x18, GENERALIZED_TIME.format(t).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    private static byte[] bool(boolean value) {
        return new byte[] {0x01, 0x01, (byte) (value ? 0xFF : 0x00)};
    }

    private static byte[] octets(byte[] content) {
        return tlv(0x04, content);
    }

    private static byte[] bitString(byte[] content) {
        return tlv(0x03, concat(new byte[] {0}, content));
    }

    private static byte[] seq(byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    private static byte[] tag(int tag, byte[] content) {
        return tlv(tag, content);
    }

    private static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        var out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            long arc = Long.parseLong(arcs[i]);
            int groups = 1;
            for (long a = arc >> 7; a > 0; a >>= 7) {
                groups++;
            }
            for (int g = groups - 1; g >= 0; g--) {
                int b = (int) ((arc >> (7 * g)) & 0x7F);
                out.write(g == 0 ? b : b | 0x80);
            }
        }
        return tlv(0x06, out.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] content) {
        var out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else if (n < 0x10000) {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        } else {
            out.write(0x83);
            out.write(n >> 16);
            out.write(n >> 8);
            out.write(n);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        var out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
