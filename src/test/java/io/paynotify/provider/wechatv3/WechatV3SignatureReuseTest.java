package io.paynotify.provider.wechatv3;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TestKeys;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.Signature;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The per-thread {@link Signature} of {@link WechatV3Verifier} carries nothing from one verification to the next:
 * not after a failure between update and verify (a signature of the wrong length makes the JDK throw before it
 * resets its digest), and not across a body split in two.
 */
@Tag("unit")
class WechatV3SignatureReuseTest {

    static final KeyPair PAIR = TestKeys.pair("wechat-v3-reuse-test");

    static byte[] sign(String timestamp, String nonce, byte[] body) throws Exception {
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initSign(PAIR.getPrivate());
        s.update((timestamp + "\n" + nonce + "\n").getBytes(StandardCharsets.US_ASCII));
        s.update(body);
        s.update((byte) '\n');
        return s.sign();
    }

    static boolean verify(byte[] body, byte[] signature) {
        return WechatV3Verifier.verifies(PAIR.getPublic(), "1700000000", "N0NCE", body, signature);
    }

    @Test
    void badThenGoodThenBadAfterAnException() throws Exception {
        byte[] body = "{\"id\":\"A\"}".getBytes(StandardCharsets.UTF_8);
        byte[] other = "{\"id\":\"B\"}".getBytes(StandardCharsets.UTF_8);
        byte[] good = sign("1700000000", "N0NCE", body);
        byte[] wrongLength = new byte[17];

        assertFalse(verify(body, wrongLength));
        assertFalse(verify(other, good));
        assertTrue(verify(body, good));
        assertFalse(verify(other, good));
        assertFalse(verify(body, wrongLength));
        assertTrue(verify(body, good));
    }

    @Test
    void aBodySplitAcrossTwoDeliveriesNeverVerifies() throws Exception {
        byte[] body = "{\"id\":\"A\",\"resource\":{}}".getBytes(StandardCharsets.UTF_8);
        byte[] good = sign("1700000000", "N0NCE", body);
        assertFalse(verify(Arrays.copyOf(body, 8), new byte[17]));
        assertFalse(verify(Arrays.copyOfRange(body, 8, body.length), good));
        assertTrue(verify(body, good));
    }
}
