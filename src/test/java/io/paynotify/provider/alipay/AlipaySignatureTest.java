package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.TestKeys;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Alipay's V1 notification signing string, on Alipay's documented example parameters; no Quarkus boot. */
@Tag("unit")
class AlipaySignatureTest {

    /** The parameters of Alipay's documented example notification, as decoded. */
    static Map<String, String> documentedExample() {
        var p = new LinkedHashMap<String, String>();
        p.put("gmt_create", "2016-07-19 14:10:44");
        p.put("charset", "utf-8");
        p.put("seller_email", "");
        p.put("subject", "大乐透2.1");
        p.put("sign", "tsPc7Y8OK3HFvs3nBK6YaX0QyDH/GsMoW8pm3iROOl8jVv1/5/NwJH");
        p.put("buyer_id", "2088102116773037");
        p.put("body", "大乐透2.1");
        p.put("notify_id", "4a91b7a78a503640467525113fb7d8bg8e");
        p.put("notify_type", "trade_status_sync");
        p.put("trade_status", "TRADE_SUCCESS");
        p.put("app_id", "2015102700040153");
        p.put("sign_type", "RSA2");
        p.put("refund_fee", "0.00");
        p.put("trade_no", "2016071921001003030200089909");
        p.put("gmt_close", "2016-07-19 14:10:46");
        p.put("version", "1.0");
        p.put("gmt_payment", "2016-07-19 14:10:47");
        p.put("total_amount", "2.00");
        p.put("out_trade_no", "0719141034-6418");
        p.put("notify_time", "2016-07-19 14:10:49");
        p.put("seller_id", "2088102119685838");
        return p;
    }

    @Test
    void contentOfTheDocumentedExample() {
        assertEquals(
                "app_id=2015102700040153&body=大乐透2.1&buyer_id=2088102116773037&charset=utf-8"
                        + "&gmt_close=2016-07-19 14:10:46&gmt_create=2016-07-19 14:10:44&gmt_payment=2016-07-19 14:10:47"
                        + "&notify_id=4a91b7a78a503640467525113fb7d8bg8e&notify_time=2016-07-19 14:10:49"
                        + "&notify_type=trade_status_sync&out_trade_no=0719141034-6418&refund_fee=0.00"
                        + "&seller_id=2088102119685838&subject=大乐透2.1&total_amount=2.00"
                        + "&trade_no=2016071921001003030200089909&trade_status=TRADE_SUCCESS&version=1.0",
                AlipaySignature.content(documentedExample()));
    }

    @Test
    void contentDoesNotMutateTheParameters() {
        var p = documentedExample();
        AlipaySignature.content(p);
        assertTrue(p.containsKey("sign"));
        assertTrue(p.containsKey("sign_type"));
    }

    @Test
    void algorithmsAreExactNames() {
        assertEquals("SHA256withRSA", AlipaySignature.algorithm("RSA2"));
        assertEquals("SHA1withRSA", AlipaySignature.algorithm("RSA"));
        for (String other : new String[] {"rsa2", "RSA256", "SHA256withRSA", "SM2", "MD5", "", " RSA2", null}) {
            assertNull(AlipaySignature.algorithm(other));
        }
    }

    @Test
    void verifiesWithAnyKeyOfARotationAndRefusesAStranger() {
        String content = AlipaySignature.content(documentedExample());
        String sign = AlipayFixtures.sign(
                content,
                StandardCharsets.UTF_8,
                TestKeys.pair(TestKeys.ALIPAY_NEXT).getPrivate(),
                "RSA2");
        var both = List.of(
                TestKeys.pair(TestKeys.ALIPAY).getPublic(),
                TestKeys.pair(TestKeys.ALIPAY_NEXT).getPublic());
        assertTrue(AlipaySignature.verify(content, StandardCharsets.UTF_8, sign, "SHA256withRSA", both));
        assertFalse(AlipaySignature.verify(
                content,
                StandardCharsets.UTF_8,
                sign,
                "SHA256withRSA",
                List.of(TestKeys.pair(TestKeys.STRANGER).getPublic())));
        assertFalse(AlipaySignature.verify(content + "x", StandardCharsets.UTF_8, sign, "SHA256withRSA", both));
        // the same signature checked as SHA1 fails: the algorithm is part of what is verified
        assertFalse(AlipaySignature.verify(content, StandardCharsets.UTF_8, sign, "SHA1withRSA", both));
        assertFalse(AlipaySignature.verify(content, StandardCharsets.UTF_8, "!!!", "SHA256withRSA", both));
    }

    @Test
    void aSignatureWithJunkInsideIsRefusedAndLineBreaksAreTolerated() throws Exception {
        String content = "a=1&b=2";
        String sign = AlipayFixtures.sign(
                content, StandardCharsets.UTF_8, TestKeys.pair(TestKeys.ALIPAY).getPrivate(), "RSA2");
        var keys = List.of(TestKeys.pair(TestKeys.ALIPAY).getPublic());
        assertTrue(AlipaySignature.verify(content, StandardCharsets.UTF_8, sign, "SHA256withRSA", keys));
        String folded = sign.substring(0, 64) + "\r\n" + sign.substring(64);
        assertTrue(AlipaySignature.verify(content, StandardCharsets.UTF_8, folded, "SHA256withRSA", keys));
        // a lenient (MIME) decoder would skip these characters and accept the same signature under other bytes
        String junk = sign.substring(0, 10) + "!!~~ ##" + sign.substring(10);
        assertFalse(AlipaySignature.verify(content, StandardCharsets.UTF_8, junk, "SHA256withRSA", keys));
    }
}
