package io.paynotify.simulator.sign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The signers' primitives against the providers' published test vectors. */
class PublishedVectorsTest {

    /** WeChat's v2 signing example. */
    @Test
    void wechatV2SignatureExample() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("appid", "wxd930ea5d5a258f4f");
        f.put("mch_id", "10000100");
        f.put("device_info", "1000");
        f.put("body", "test");
        f.put("nonce_str", "ibuaiVcKdpRxkhJA");
        String key = "192006250b4c09247ec02edce69f6a2d";
        assertEquals("9A0A8659F005D6984697E2CA0A9CF3B7", WechatV2Signer.sign(f, "MD5", key));
        assertEquals(
                "6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6",
                WechatV2Signer.sign(f, "HMAC-SHA256", key));
    }

    /** The req_info key is the lowercase hex MD5 of the API key. */
    @Test
    void reqInfoKeyDerivation() {
        assertEquals(
                "d96eb16afdd491fa1e705096edbc2205",
                WechatV2Signer.reqInfoKey("192006250b4c09247ec02edce69f6a2d"));
    }

    /** wechatpay-java's AeadAesCipherTest vector. */
    @Test
    void wechatV3AesGcmVector() {
        assertEquals(
                "ulwSiIajGClcvcOYvOQ7+l+0PAbzzwI=",
                WechatV3Signer.encrypt(
                        "a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb",
                        "uluk4a9R25RW",
                        "associatedData",
                        "message".getBytes(StandardCharsets.UTF_8)));
    }
}
