package io.paynotify.simulator.trigger;

import io.paynotify.simulator.sign.Pem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;

/**
 * The dev-only provider keys of simulator/keys (see its README.md): packaged in the jar under
 * {@code io/paynotify/simulator/devkeys/}, else read from {@code keys/} or {@code simulator/keys/} below the working
 * directory (a build that has not packaged them, or a run from the repository root).
 */
public final class DevKeys {

    /** The WeChat Pay v3 platform private key {@code PUB_KEY_ID_0000000000000000000000000000DEV1}. */
    public static final String WECHATPAY_V3_PLATFORM = "wechatpay-v3-dev-platform-private.pem";

    /** Alipay's private key for the dev app 2021000000000001. */
    public static final String ALIPAY_PLATFORM = "alipay-dev-private.pem";

    /** The WeChat Pay v3 platform private key of the dev service provider (channel wx3-sp-dev). */
    public static final String WECHATPAY_V3_SP_PLATFORM = "wechatpay-v3-dev-sp-platform-private.pem";

    /** Alipay's private key for the dev ISV application 2021000000000002 (channel ali-isv-dev). */
    public static final String ALIPAY_ISV_PLATFORM = "alipay-isv-dev-private.pem";

    /** Alipay's private key certified in alipay-cert-dev-alipay.crt, for the dev app 2021000000000003. */
    public static final String ALIPAY_CERT_PLATFORM = "alipay-cert-dev-private.pem";

    private static final String RESOURCE_DIR = "/io/paynotify/simulator/devkeys/";

    private DevKeys() {}

    /** Loads one of the dev private keys. */
    public static PrivateKey privateKey(String file) {
        return Pem.privateKey(pem(file));
    }

    /** The text of one dev key file. */
    public static String pem(String file) {
        try (InputStream in = DevKeys.class.getResourceAsStream(RESOURCE_DIR + file)) {
            if (in != null) {
                return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            }
            for (Path dir : new Path[] {Path.of("keys"), Path.of("simulator", "keys")}) {
                Path candidate = dir.resolve(file);
                if (Files.isRegularFile(candidate)) {
                    return Files.readString(candidate, StandardCharsets.US_ASCII);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dev key " + file, e);
        }
        throw new IllegalStateException(
                "the dev key " + file + " is neither packaged nor under keys/ or simulator/keys/");
    }
}
