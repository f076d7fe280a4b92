package io.paynotify.provider.wechatv3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.paynotify.provider.NotifyRejection;
import io.paynotify.testing.WechatV3Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class WechatV3DecryptorTest {

    /** The AEAD_AES_256_GCM vector of WeChat Pay v3 resource decryption, from wechatpay-java's AeadAesCipherTest (recomputed there with Python cryptography). */
    static final byte[] KEY = "a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb".getBytes(StandardCharsets.UTF_8);

    static final String NONCE = "uluk4a9R25RW";
    static final String AAD = "associatedData";
    static final String CIPHERTEXT = "ulwSiIajGClcvcOYvOQ7+l+0PAbzzwI=";

    @Test
    void decryptsThePublishedVector() throws NotifyRejection {
        byte[] plain = WechatV3Decryptor.decrypt(KEY, NONCE, AAD, CIPHERTEXT);
        assertEquals("message", new String(plain, StandardCharsets.UTF_8));
    }

    @Test
    void fixturesEncryptTheSameWayAsWeChat() {
        assertEquals(CIPHERTEXT, WechatV3Fixtures.encrypt(KEY, NONCE, AAD, "message".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void absentAssociatedDataIsEmpty() throws NotifyRejection {
        String sealed = WechatV3Fixtures.encrypt(KEY, NONCE, null, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(
                "{\"a\":1}".getBytes(StandardCharsets.UTF_8), WechatV3Decryptor.decrypt(KEY, NONCE, null, sealed));
        assertArrayEquals(
                "{\"a\":1}".getBytes(StandardCharsets.UTF_8), WechatV3Decryptor.decrypt(KEY, NONCE, "", sealed));
    }

    @Test
    void everyTamperingIsRefusedAs401() {
        byte[] sealed = Base64.getDecoder().decode(CIPHERTEXT);
        byte[] body = sealed.clone();
        body[0] ^= 1;
        byte[] tag = sealed.clone();
        tag[tag.length - 1] ^= (byte) 0x80;
        byte[] otherKey = KEY.clone();
        otherKey[31] ^= 1;
        assertRefused(KEY, NONCE, AAD, Base64.getEncoder().encodeToString(body));
        assertRefused(KEY, NONCE, AAD, Base64.getEncoder().encodeToString(tag));
        assertRefused(KEY, "uluk4a9R25RX", AAD, CIPHERTEXT);
        assertRefused(KEY, NONCE, "associatedDatA", CIPHERTEXT);
        assertRefused(KEY, NONCE, null, CIPHERTEXT);
        assertRefused(otherKey, NONCE, AAD, CIPHERTEXT);
    }

    @Test
    void malformedInputIsRefusedAs401NotAnException() {
        assertRefused(KEY, NONCE, AAD, "not base64!");
        assertRefused(KEY, NONCE, AAD, CIPHERTEXT.substring(0, 8));
        assertRefused(KEY, NONCE, AAD, "");
        assertRefused(KEY, "", AAD, CIPHERTEXT);
        assertRefused(KEY, "x".repeat(65), AAD, CIPHERTEXT);
        assertRefused(new byte[16], NONCE, AAD, CIPHERTEXT);
        assertRefused(null, NONCE, AAD, CIPHERTEXT);
    }

    private static void assertRefused(byte[] key, String nonce, String aad, String ciphertext) {
        NotifyRejection r =
                assertThrows(NotifyRejection.class, () -> WechatV3Decryptor.decrypt(key, nonce, aad, ciphertext));
        assertEquals(401, r.kind().status());
        assertEquals(NotifyRejection.Cause.DECRYPTION, r.rejectionCause());
    }
}
