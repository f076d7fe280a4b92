package io.paynotify.simulator.sign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import com.github.binarywang.wxpay.bean.notify.WxPayOrderNotifyResult;
import com.github.binarywang.wxpay.bean.notify.WxPayRefundNotifyResult;
import com.github.binarywang.wxpay.config.WxPayConfig;
import com.github.binarywang.wxpay.exception.WxPayException;
import com.github.binarywang.wxpay.service.impl.WxPayServiceImpl;
import com.github.binarywang.wxpay.util.SignUtils;
import com.wechat.pay.java.core.cipher.AeadAesCipher;
import com.wechat.pay.java.core.cipher.RSAVerifier;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The signers' public API, each part that the notice sender does not already exercise (paynotify's test fixtures and
 * the benchmarks use it too), checked by the providers' official SDKs: WxJava 4.7.0, wechatpay-java 0.2.17,
 * alipay-sdk-java. An RSA signature (PKCS#1 v1.5) is deterministic, so equal signatures prove equal signed bytes.
 */
class SignerSdkTest {

    static final KeyPair RSA = generate();

    static KeyPair generate() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String base64(java.security.Key key) {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }

    @Nested
    class WechatV2 {

        static final String KEY = "signersignersignersignersigner32";
        static final String APPID = "wxsigner00000001";
        static final String MCH = "1900000777";

        WxPayServiceImpl service() {
            WxPayConfig config = new WxPayConfig();
            config.setAppId(APPID);
            config.setMchId(MCH);
            config.setMchKey(KEY);
            WxPayServiceImpl service = new WxPayServiceImpl();
            service.setConfig(config);
            return service;
        }

        Map<String, String> paid(String signType) {
            Map<String, String> f = new LinkedHashMap<>();
            f.put("appid", APPID);
            f.put("bank_type", "CFT");
            f.put("cash_fee", "101");
            f.put("fee_type", "CNY");
            f.put("is_subscribe", "Y");
            f.put("mch_id", MCH);
            f.put("nonce_str", "5d2b6c2a8db53831f7eda20af46e531c");
            f.put("openid", "oUpF8uMEb4qRXf22hE3X68TekukE");
            f.put("out_trade_no", "SIGNER-1");
            f.put("result_code", "SUCCESS");
            f.put("return_code", "SUCCESS");
            f.put("attach", "a+b & c=d 中文 <tag> ]]> end");
            if (signType != null) {
                f.put("sign_type", signType);
            }
            f.put("empty", "");
            f.put("time_end", "20140903131540");
            f.put("total_fee", "101");
            f.put("trade_type", "JSAPI");
            f.put("transaction_id", "4200000000201409031315400000");
            return f;
        }

        @ParameterizedTest
        @ValueSource(strings = {"MD5", "HMAC-SHA256"})
        void theSignIsWxJavasCreateSign(String signType) {
            Map<String, String> f = paid(signType);
            assertEquals(SignUtils.createSign(f, signType, KEY, new String[0]), WechatV2Signer.sign(f, signType, KEY));
            f.put("sign", "ANYTHING");
            assertEquals(
                    SignUtils.createSign(f, signType, KEY, new String[0]),
                    WechatV2Signer.sign(f, signType, KEY),
                    "a sign already present is not signed");
        }

        @Test
        void withoutSignTypeTheSignIsMd5() {
            Map<String, String> f = paid(null);
            assertEquals(SignUtils.createSign(f, "MD5", KEY, new String[0]), WechatV2Signer.sign(f, null, KEY));
            assertThrows(IllegalArgumentException.class, () -> WechatV2Signer.sign(f, "SHA1", KEY));
        }

        @ParameterizedTest
        @ValueSource(strings = {"MD5", "HMAC-SHA256"})
        void anAllCdataBodyWithAnEscapedValueParsesAndVerifies(String signType) throws WxPayException {
            Map<String, String> f = paid(signType);
            f.put("sign", WechatV2Signer.sign(f, signType, KEY));
            assertTrue(WechatV2Signer.matches(f, signType, KEY));
            WxPayOrderNotifyResult r = service().parseOrderNotifyResult(WechatV2Signer.xml(f), signType);
            assertEquals("SIGNER-1", r.getOutTradeNo());
            assertEquals(101, r.getTotalFee());
            assertEquals("a+b & c=d 中文 <tag> ]]> end", r.getAttach());
        }

        @Test
        void aReqInfoOfAnAllCdataRootDecrypts() throws WxPayException {
            Map<String, String> info = new LinkedHashMap<>();
            info.put("out_refund_no", "RSIGNER-1");
            info.put("out_trade_no", "SIGNER-1");
            info.put("refund_fee", "30");
            info.put("refund_id", "50000408942018111907145868882");
            info.put("refund_status", "SUCCESS");
            info.put("settlement_refund_fee", "30");
            info.put("settlement_total_fee", "101");
            info.put("success_time", "2018-11-19 16:24:13");
            info.put("total_fee", "101");
            info.put("transaction_id", "4200000000201409031315400000");
            String plain = WechatV2Signer.xml("root", info, Set.of());
            Map<String, String> f = new LinkedHashMap<>();
            f.put("return_code", "SUCCESS");
            f.put("appid", APPID);
            f.put("mch_id", MCH);
            f.put("nonce_str", "TeqClE3i0mvn3DrK");
            f.put("req_info", WechatV2Signer.encryptReqInfo(KEY, plain.getBytes(StandardCharsets.UTF_8)));
            WxPayRefundNotifyResult r = service().parseRefundNotifyResult(WechatV2Signer.xml(f));
            assertEquals("RSIGNER-1", r.getReqInfo().getOutRefundNo());
            assertEquals(30, r.getReqInfo().getRefundFee());
            assertEquals("SUCCESS", r.getReqInfo().getRefundStatus());
        }
    }

    @Nested
    class WechatV3 {

        static final String KEY = "0123456789abcdef0123456789abcdef";

        @ParameterizedTest
        @CsvSource(value = {"transaction", "refund", "NULL"}, nullValues = "NULL")
        void aResourceDecryptsWithTheSdksCipher(String associatedData) {
            String plain = "{\"out_trade_no\":\"SIGNER-1\",\"attach\":\"中文 ½\"}";
            String ciphertext =
                    WechatV3Signer.encrypt(KEY, "fdasflkja484", associatedData, plain.getBytes(StandardCharsets.UTF_8));
            String decrypted = new AeadAesCipher(KEY.getBytes(StandardCharsets.UTF_8))
                    .decrypt(
                            associatedData == null ? null : associatedData.getBytes(StandardCharsets.UTF_8),
                            "fdasflkja484".getBytes(StandardCharsets.UTF_8),
                            Base64.getDecoder().decode(ciphertext));
            assertEquals(plain, decrypted);
        }

        @Test
        void theHeadersVerifyWithTheSdksVerifier() {
            byte[] body = "{\"id\":\"EV-1\",\"summary\":\"支付成功\"}".getBytes(StandardCharsets.UTF_8);
            long now = Instant.now().getEpochSecond();
            Map<String, String> h =
                    WechatV3Signer.headers(RSA.getPrivate(), "SERIAL-1", now, "593BEC0C930BF1AFEB40B4A08C8FB242", body);
            assertEquals(
                    java.util.List.of(
                            WechatV3Signer.TIMESTAMP,
                            WechatV3Signer.NONCE,
                            WechatV3Signer.SIGNATURE,
                            WechatV3Signer.SERIAL,
                            WechatV3Signer.SIGNATURE_TYPE),
                    java.util.List.copyOf(h.keySet()));
            RSAVerifier verifier = new RSAVerifier(RSA.getPublic(), "SERIAL-1");
            String message = h.get(WechatV3Signer.TIMESTAMP) + "\n" + h.get(WechatV3Signer.NONCE) + "\n"
                    + new String(body, StandardCharsets.UTF_8) + "\n";
            assertTrue(verifier.verify("SERIAL-1", message, h.get(WechatV3Signer.SIGNATURE)));
            byte[] signed = WechatV3Signer.message(h.get(WechatV3Signer.TIMESTAMP), h.get(WechatV3Signer.NONCE), body);
            assertTrue(WechatV3Signer.verify(RSA.getPublic(), signed, h.get(WechatV3Signer.SIGNATURE)));
            assertFalse(WechatV3Signer.verify(RSA.getPublic(), body, h.get(WechatV3Signer.SIGNATURE)));
        }
    }

    @Nested
    class Alipay {

        Map<String, String> paid(String charset) {
            Map<String, String> p = new LinkedHashMap<>();
            p.put("gmt_create", "2026-01-02 11:00:00");
            if (charset != null) {
                p.put("charset", charset);
            }
            p.put("notify_time", "2026-01-02 11:04:06");
            p.put("subject", "测试商品 test+item & more=1 %");
            p.put("version", "1.0");
            p.put("notify_id", "2026010200222110405001301463");
            p.put("notify_type", "trade_status_sync");
            p.put("out_trade_no", "SIGNER-1");
            p.put("total_amount", "1.00");
            p.put("trade_status", "TRADE_SUCCESS");
            p.put("trade_no", "2026010222001400000000000001");
            p.put("app_id", "2021000000000777");
            p.put("empty", "");
            return p;
        }

        /** A form body decoded as a servlet container would, in {@code charset}. */
        Map<String, String> decoded(byte[] body, Charset charset) {
            Map<String, String> params = new LinkedHashMap<>();
            for (String pair : new String(body, StandardCharsets.US_ASCII).split("&")) {
                int eq = pair.indexOf('=');
                params.put(
                        URLDecoder.decode(pair.substring(0, eq), charset),
                        URLDecoder.decode(pair.substring(eq + 1), charset));
            }
            return params;
        }

        @ParameterizedTest
        @CsvSource(
                value = {"utf-8, RSA2, UTF-8", "UTF-8, RSA, UTF-8", "gbk, RSA2, GBK", "NULL, RSA, GBK"},
                nullValues = "NULL")
        void aSignedFormBodyPassesRsaCheckV1InItsCharset(String charset, String signType, String sdkCharset)
                throws AlipayApiException {
            Map<String, String> p = AlipaySigner.signed(paid(charset), RSA.getPrivate(), signType);
            assertEquals(Charset.forName(sdkCharset), AlipaySigner.charsetOf(p));
            Map<String, String> received = decoded(AlipaySigner.formBody(p), Charset.forName(sdkCharset));
            assertEquals(p, received);
            // rsaCheckV1 removes sign and sign_type from the map it is given
            assertTrue(AlipaySignature.rsaCheckV1(
                    new LinkedHashMap<>(received), base64(RSA.getPublic()), sdkCharset, signType));
            received.put("total_amount", "0.01");
            assertFalse(AlipaySignature.rsaCheckV1(received, base64(RSA.getPublic()), sdkCharset, signType));
        }

        @ParameterizedTest
        @CsvSource({"RSA2, utf-8", "RSA, utf-8", "RSA2, GBK"})
        void theSignIsTheSdksRsaSign(String signType, String charset) throws AlipayApiException {
            Map<String, String> p = paid("utf-8");
            p.put("sign_type", signType);
            String content = AlipaySigner.requestContent(p);
            assertEquals(AlipaySignature.getSignContent(p), content, "a request signs sign_type too");
            assertEquals(AlipaySignature.getSignCheckContentV1(p), AlipaySigner.content(p));
            assertEquals(
                    AlipaySignature.rsaSign(content, base64(RSA.getPrivate()), charset, signType),
                    AlipaySigner.sign(content, Charset.forName(charset), RSA.getPrivate(), signType));
            assertTrue(AlipaySigner.verify(
                    content,
                    Charset.forName(charset),
                    AlipaySignature.rsaSign(content, base64(RSA.getPrivate()), charset, signType),
                    RSA.getPublic(),
                    signType));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> AlipaySigner.sign(content, StandardCharsets.UTF_8, RSA.getPrivate(), "rsa2"));
        }

        @Test
        void anAnswerSignatureVerifiesOverTheResponseText() throws AlipayApiException {
            String response = "{\"code\":\"10000\",\"msg\":\"Success\",\"buyer_logon_id\":\"a/b***@x.com\","
                    + "\"out_trade_no\":\"SIGNER-1\",\"total_amount\":\"1.00\",\"trade_status\":\"TRADE_SUCCESS\"}";
            String sign = AlipaySigner.signAnswer(response, RSA.getPrivate());
            assertTrue(AlipaySignature.rsaCheck(response, sign, base64(RSA.getPublic()), "utf-8", "RSA2"));
        }
    }
}
