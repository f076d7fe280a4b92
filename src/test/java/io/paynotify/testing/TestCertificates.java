package io.paynotify.testing;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * Self-signed X.509 certificates made at test time, with the validity a test needs (a platform certificate that
 * expires later than another). DER written by hand: the JDK has no public API to make certificates, and keytool
 * takes a second per certificate.
 */
public final class TestCertificates {

    /** sha256WithRSAEncryption, 1.2.840.113549.1.1.11, with its NULL parameters. */
    private static final byte[] SHA256_WITH_RSA = {
        0x30, 0x0D, 0x06, 0x09, 0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 0x01, 0x01, 0x0B, 0x05, 0x00
    };

    private static final DateTimeFormatter GENERALIZED =
            DateTimeFormatter.ofPattern("uuuuMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    private TestCertificates() {}

    /** A PEM certificate for the key pair, valid from {@code notBefore} to {@code notAfter}. */
    public static String pem(KeyPair pair, String commonName, Instant notBefore, Instant notAfter) {
        byte[] name = seq(set(seq(concat(
                new byte[] {0x06, 0x03, 0x55, 0x04, 0x03}, tlv(0x0C, commonName.getBytes(StandardCharsets.UTF_8))))));
        byte[] tbs = seq(concat(
                tlv(0xA0, tlv(0x02, new byte[] {2})),
                tlv(0x02, BigInteger.valueOf(notAfter.getEpochSecond()).toByteArray()),
                SHA256_WITH_RSA,
                name,
                seq(concat(time(notBefore), time(notAfter))),
                name,
                pair.getPublic().getEncoded()));
        byte[] signature;
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(pair.getPrivate());
            s.update(tbs);
            signature = s.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        byte[] certificate = seq(concat(tbs, SHA256_WITH_RSA, tlv(0x03, concat(new byte[] {0}, signature))));
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(certificate)
                + "\n-----END CERTIFICATE-----\n";
    }

    private static byte[] time(Instant at) {
        return tlv(0x18, GENERALIZED.format(at).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] seq(byte[] content) {
        return tlv(0x30, content);
    }

    private static byte[] set(byte[] content) {
        return tlv(0x31, content);
    }

    private static byte[] tlv(int tag, byte[] content) {
        var out = new ByteArrayOutputStream();
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n & 0xFF);
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
