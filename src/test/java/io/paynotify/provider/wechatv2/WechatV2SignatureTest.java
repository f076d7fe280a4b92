package io.paynotify.provider.wechatv2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The public WeChat Pay v2 vectors (the documented signing example, and wechatpay-php's AES-256-ECB vector), without booting Quarkus. */
@Tag("unit")
class WechatV2SignatureTest {

    static final String KEY = "192006250b4c09247ec02edce69f6a2d";

    static Map<String, String> vectorFields() {
        var f = new LinkedHashMap<String, String>();
        // deliberately out of order: the content sorts
        f.put("nonce_str", "ibuaiVcKdpRxkhJA");
        f.put("mch_id", "10000100");
        f.put("device_info", "1000");
        f.put("body", "test");
        f.put("appid", "wxd930ea5d5a258f4f");
        return f;
    }

    static String hex(byte[] b) {
        return HexFormat.of().withUpperCase().formatHex(b);
    }

    @Test
    void contentIsSortedAndExcludesSignAndEmptyValues() {
        var f = vectorFields();
        f.put("sign", "ANYTHING");
        f.put("attach", "");
        assertEquals(
                "appid=wxd930ea5d5a258f4f&body=test&device_info=1000&mch_id=10000100&nonce_str=ibuaiVcKdpRxkhJA",
                WechatV2Signature.content(f));
    }

    @Test
    void contentKeepsSignType() {
        var f = vectorFields();
        f.put("sign_type", "HMAC-SHA256");
        assertEquals(
                "appid=wxd930ea5d5a258f4f&body=test&device_info=1000&mch_id=10000100&nonce_str=ibuaiVcKdpRxkhJA"
                        + "&sign_type=HMAC-SHA256",
                WechatV2Signature.content(f));
    }

    @Test
    void md5Vector() {
        byte[] sign = WechatV2Signature.sign(
                WechatV2Signature.MD5, WechatV2Signature.content(vectorFields()), KEY.getBytes(StandardCharsets.UTF_8));
        assertEquals("9A0A8659F005D6984697E2CA0A9CF3B7", hex(sign));
    }

    @Test
    void hmacSha256VectorCoversTheKeySuffix() {
        byte[] sign = WechatV2Signature.sign(
                WechatV2Signature.HMAC_SHA256,
                WechatV2Signature.content(vectorFields()),
                KEY.getBytes(StandardCharsets.UTF_8));
        assertEquals("6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6", hex(sign));
        // the wrong reading (HMAC over stringA alone) gives f734f0e6...: make sure we are not doing that
        assertNotEquals("F734F0E6", hex(sign).substring(0, 8));
    }

    @Test
    void hexDecodesEitherCaseAndRefusesAnythingElse() {
        assertArrayEquals(new byte[] {(byte) 0x9a, 0x0a}, Hex.decode("9A0A"));
        assertArrayEquals(new byte[] {(byte) 0x9a, 0x0a}, Hex.decode("9a0a"));
        assertNull(Hex.decode("9A0"));
        assertNull(Hex.decode("9G0A"));
        assertNull(Hex.decode("９A0A"));
        assertNull(Hex.decode("+A0A"));
    }

    @Test
    void refundKeyIsLowercaseHexMd5OfTheApiKey() throws Exception {
        byte[] key = WechatV2RefundDecryptor.aesKey(KEY.getBytes(StandardCharsets.UTF_8));
        assertEquals("d96eb16afdd491fa1e705096edbc2205", new String(key, StandardCharsets.US_ASCII));
    }

    @Test
    void aes256EcbVector() throws Exception {
        // WeChat Pay v2 refund decryption (wechatpay-php AesEcbTest): the cipher the decryptor uses, with its published
        // vector
        Cipher c = Cipher.getInstance("AES/ECB/PKCS5Padding");
        c.init(
                Cipher.DECRYPT_MODE,
                new SecretKeySpec("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII), "AES"));
        assertEquals(
                "hello",
                new String(c.doFinal(Base64.getDecoder().decode("pZwJZBLuy3mDACEQT4YTBw==")), StandardCharsets.UTF_8));
    }
}
