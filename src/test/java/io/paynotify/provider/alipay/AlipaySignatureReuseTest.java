package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.TestKeys;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.Signature;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The per-thread {@link Signature} of {@link AlipaySignature} carries nothing from one verification to the next:
 * not after a failure between update and verify (a signature of the wrong length makes the JDK throw before it
 * resets its digest), and not across a message split in two.
 */
@Tag("unit")
class AlipaySignatureReuseTest {

    static final KeyPair PAIR = TestKeys.pair("alipay-reuse-test");

    static String sign(byte[] message) throws Exception {
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initSign(PAIR.getPrivate());
        s.update(message);
        return Base64.getEncoder().encodeToString(s.sign());
    }

    static boolean verify(byte[] message, String sign) {
        return AlipaySignature.verify(message, sign, "SHA256withRSA", List.of(PAIR.getPublic()));
    }

    @Test
    void badThenGoodThenBadAfterAnException() throws Exception {
        byte[] message = "app_id=1&out_trade_no=A&total_amount=1.00".getBytes(StandardCharsets.UTF_8);
        String good = sign(message);
        byte[] other = "app_id=1&out_trade_no=B&total_amount=1.00".getBytes(StandardCharsets.UTF_8);
        String shortSign = Base64.getEncoder().encodeToString(new byte[17]); // wrong length: the JDK throws

        assertFalse(verify(message, shortSign));
        assertFalse(verify(other, good));
        assertTrue(verify(message, good));
        assertFalse(verify(other, good));
        assertFalse(verify(message, shortSign));
        assertTrue(verify(message, good));
    }

    @Test
    void aMessageSplitAcrossTwoNoticesNeverVerifies() throws Exception {
        byte[] whole = "app_id=1&out_trade_no=A&total_amount=1.00".getBytes(StandardCharsets.UTF_8);
        String sign = sign(whole);
        byte[] head = Arrays.copyOf(whole, 10);
        byte[] tail = Arrays.copyOfRange(whole, 10, whole.length);
        // the first notice leaves its bytes behind only if a reused Signature were not re-initialised
        assertFalse(verify(head, Base64.getEncoder().encodeToString(new byte[17])));
        assertFalse(verify(tail, sign));
        assertTrue(verify(whole, sign));
    }
}
