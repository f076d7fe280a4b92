package io.paynotify.simulator.trigger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import com.github.binarywang.wxpay.bean.notify.WxPayOrderNotifyResult;
import com.github.binarywang.wxpay.config.WxPayConfig;
import com.github.binarywang.wxpay.exception.WxPayException;
import com.github.binarywang.wxpay.service.impl.WxPayServiceImpl;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RSAPublicKeyNotificationConfig;
import com.wechat.pay.java.core.notification.RequestParam;
import com.wechat.pay.java.service.partnerpayments.nativepay.model.Transaction;
import io.paynotify.simulator.cli.Cli;
import io.paynotify.simulator.sign.Pem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code trigger} on the account-mode dev channels (CONTRACT §10): partner (WeChat v2 and v3) and ISV (Alipay)
 * notices name the sub-merchant as the providers do, certificate-mode notices are signed with the key of the
 * channel's Alipay certificate, and the evil cases (another sub-merchant's notice, no sub-merchant, a foreign root)
 * expect the contract's refusals. The notices are read back with the official SDKs (wechatpay-java's partner
 * {@code Transaction}, WxJava's v2 notify result, alipay-sdk-java's {@code rsaCertCheckV1}), against a stub
 * paynotify on 127.0.0.1.
 */
class AccountModeTriggerTest {

    private static final Channel WX_SP = TestKeys.DEV.channel("wx-sp-dev").orElseThrow();
    private static final Channel WX3_SP = TestKeys.DEV.channel("wx3-sp-dev").orElseThrow();
    private static final Channel ALI_ISV = TestKeys.DEV.channel("ali-isv-dev").orElseThrow();
    private static final Channel ALI_CERT = TestKeys.DEV.channel("ali-cert-dev").orElseThrow();

    private StubPaynotify stub;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void start() throws IOException {
        stub = new StubPaynotify();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    private int trigger(String... args) {
        List<String> argv = new ArrayList<>(List.of("trigger"));
        argv.addAll(List.of(args));
        argv.addAll(List.of("--service", stub.uri().toString()));
        return Cli.run(
                argv.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    // --- reading the notices back, with the providers' SDKs

    /** WxJava's v2 parser with the service provider's key: it verifies the sign over every field, sub_* included. */
    private static WxPayOrderNotifyResult v2(StubPaynotify.Request r) throws WxPayException {
        WxPayConfig config = new WxPayConfig();
        config.setAppId(WX_SP.appId());
        config.setMchId(WX_SP.mchId());
        config.setMchKey(WX_SP.apiKey());
        WxPayServiceImpl service = new WxPayServiceImpl();
        service.setConfig(config);
        return service.parseOrderNotifyResult(r.text());
    }

    private static NotificationParser v3Parser() {
        PublicKey platform = Pem.publicKey(DevKeys.pem("wechatpay-v3-dev-sp-platform-public.pem"));
        return new NotificationParser(new RSAPublicKeyNotificationConfig.Builder()
                .publicKey(platform)
                .publicKeyId(WX3_SP.platformSerial())
                .apiV3Key(WX3_SP.apiV3Key())
                .build());
    }

    private static RequestParam v3Request(StubPaynotify.Request r) {
        return new RequestParam.Builder()
                .serialNumber(r.header("Wechatpay-Serial"))
                .nonce(r.header("Wechatpay-Nonce"))
                .signature(r.header("Wechatpay-Signature"))
                .timestamp(r.header("Wechatpay-Timestamp"))
                .signType(r.header("Wechatpay-Signature-Type"))
                .body(r.text())
                .build();
    }

    /** wechatpay-java's partner payment model, parsed by its NotificationParser with the provider's keys. */
    private static Transaction v3(StubPaynotify.Request r) {
        return v3Parser().parse(v3Request(r), Transaction.class);
    }

    /** A v3 refund resource as a map: wechatpay-java's RefundNotification has no sp_mchid/sub_mchid fields. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> v3Refund(StubPaynotify.Request r) {
        return v3Parser().parse(v3Request(r), Map.class);
    }

    private static String alipayKeyBase64(String pemFile) {
        return TestKeys.bare(DevKeys.pem(pemFile));
    }

    private static String subMerchantOfCreate(StubPaynotify.Request create) {
        Matcher m = Pattern.compile("\"subMerchantId\":\"([0-9]+)\"").matcher(create.text());
        return m.find() ? m.group(1) : null;
    }

    private StubPaynotify.Request create() {
        return stub.requests().stream()
                .filter(r -> r.path().equals("/api/v1/orders"))
                .findFirst()
                .orElseThrow();
    }

    // --- the everyday kinds on partner and ISV channels

    @Test
    void v2PartnerPaymentNamesTheSubMerchantAndVerifiesWithTheProvidersKey() throws WxPayException {
        assertEquals(0, trigger("pay", "--channel", "wx-sp-dev", "--sub-app-id", "wxdevsubapp000001"), output());
        assertEquals(DevProfile.WX_SP_SUB_MERCHANTS.get(0), subMerchantOfCreate(create()));
        assertTrue(create().text().contains("\"subAppId\":\"wxdevsubapp000001\""), create().text());
        WxPayOrderNotifyResult r = v2(stub.notifications().get(0));
        assertEquals("1900000101", r.getMchId());
        assertEquals("wxdevsp0000000001", r.getAppid());
        assertEquals("1900000201", r.getSubMchId());
        assertEquals("wxdevsubapp000001", r.getSubAppId());
        assertTrue(output().contains("sub_mch_id=1900000201"), output());
    }

    @Test
    void v3PartnerPaymentIsThePartnerTransactionOfTheSdk() {
        assertEquals(0, trigger("pay", "--channel", "wx3-sp-dev", "--sub-merchant", "1900000204"), output());
        assertEquals("1900000204", subMerchantOfCreate(create()));
        Transaction t = v3(stub.notifications().get(0));
        assertEquals("1900000103", t.getSpMchid());
        assertEquals("wxdevsp0000000003", t.getSpAppid());
        assertEquals("1900000204", t.getSubMchid());
        assertNull(t.getSubAppid());
        assertEquals("oSimulator0000000000000000001", t.getPayer().getSpOpenid());
        assertEquals(Transaction.TradeStateEnum.SUCCESS, t.getTradeState());
        assertFalse(v3Refund(stub.notifications().get(0)).containsKey("mchid"), "no direct ids in a partner resource");
    }

    @Test
    void v3PartnerRefundCarriesTheProviderAndTheSubMerchant() {
        assertEquals(0, trigger("refund", "--channel", "wx3-sp-dev", "--out-trade-no", "T-SP-REF"), output());
        Map<String, Object> refund = v3Refund(stub.notifications().get(1));
        assertEquals("1900000103", refund.get("sp_mchid"));
        assertEquals("1900000203", refund.get("sub_mchid"));
        assertEquals("T-SP-REF", refund.get("out_trade_no"));
        assertFalse(refund.containsKey("mchid"));
    }

    @Test
    void isvPaymentNamesTheAuthorisingMerchantAndVerifiesWithTheIsvsAlipayKey() throws AlipayApiException {
        assertEquals(0, trigger("pay", "--channel", "ali-isv-dev"), output());
        assertEquals(DevProfile.ALI_ISV_MERCHANTS.get(0), subMerchantOfCreate(create()));
        Map<String, String> form = TestKeys.form(stub.notifications().get(0).body());
        assertEquals("2021000000000002", form.get("app_id"));
        assertEquals("2021000000000021", form.get("auth_app_id"));
        assertEquals("2088000000000021", form.get("seller_id"), "the merchant's own PID");
        assertTrue(AlipaySignature.rsaCheckV1(
                form, alipayKeyBase64("alipay-isv-dev-public.pem"), "utf-8", "RSA2"));
    }

    /** The SDK's own certificate-mode check, given the path of alipayCertPublicKey_RSA2.crt (PROTOCOLS.md §12.5). */
    @Test
    void certificateModePaymentVerifiesWithTheSdksCertificateCheck(@TempDir Path dir) throws Exception {
        assertEquals(0, trigger("pay", "--channel", "ali-cert-dev", "--out-trade-no", "T-CERT-1"), output());
        Path cert = dir.resolve("alipayCertPublicKey_RSA2.crt");
        Files.writeString(cert, certificateFile("alipay-cert-dev-alipay.crt"));
        Map<String, String> form = TestKeys.form(stub.notifications().get(0).body());
        assertEquals("2021000000000003", form.get("app_id"));
        assertTrue(AlipaySignature.rsaCertCheckV1(form, cert.toString(), "utf-8", "RSA2"));
    }

    // --- the evil cases

    /** Another sub-merchant's genuine payment (422), the order's own (applied), the other's refund (422). */
    @ParameterizedTest
    @CsvSource({"wx-sp-dev, WECHATPAY_V2", "wx3-sp-dev, WECHATPAY_V3", "ali-isv-dev, ALIPAY"})
    void otherSubMerchantIsRefusedForPaymentsAndRefunds(String channel, Provider provider) throws Exception {
        stub.answer((r, n) -> !r.path().startsWith("/notify/")
                ? StubPaynotify.defaultReply(r)
                : n == 2 ? StubPaynotify.defaultReply(r) : StubPaynotify.failure(provider, 422));
        assertEquals(0, trigger("other-sub-merchant", "--channel", channel), output());
        String own = subMerchantOfCreate(create());
        List<StubPaynotify.Request> sent = stub.notifications();
        assertEquals(3, sent.size());
        String[] named = new String[3];
        String[] transactions = new String[3];
        for (int i = 0; i < 3; i++) {
            StubPaynotify.Request r = sent.get(i);
            switch (provider) {
                case WECHATPAY_V2 -> {
                    if (i < 2) {
                        WxPayOrderNotifyResult result = v2(r);
                        named[i] = result.getSubMchId();
                        transactions[i] = result.getTransactionId();
                    } else {
                        named[i] = xmlField(r.text(), "sub_mch_id");
                    }
                }
                case WECHATPAY_V3 -> {
                    Map<String, Object> resource = v3Refund(r);
                    named[i] = (String) resource.get("sub_mchid");
                    transactions[i] = (String) resource.get("transaction_id");
                }
                case ALIPAY -> {
                    Map<String, String> form = TestKeys.form(r.body());
                    assertTrue(AlipaySignature.rsaCheckV1(
                            form, alipayKeyBase64("alipay-isv-dev-public.pem"), "utf-8", "RSA2"));
                    named[i] = form.get("auth_app_id");
                    transactions[i] = form.get("trade_no");
                }
            }
        }
        assertNotEquals(own, named[0], "the first notice is the other sub-merchant's");
        assertEquals(own, named[1], "the second is the order's own");
        assertEquals(named[0], named[2], "the refund is the other sub-merchant's again");
        assertNotEquals(transactions[0], transactions[1], "each sub-merchant's trade has its own transaction id");
        assertTrue(output().contains("ACCOUNT_MISMATCH"), output());
    }

    @ParameterizedTest
    @CsvSource({"wx-sp-dev, WECHATPAY_V2, 400", "wx3-sp-dev, WECHATPAY_V3, 400", "ali-isv-dev, ALIPAY, 422"})
    void missingSubMerchantExpectsTheContractsRefusal(String channel, Provider provider, int status)
            throws WxPayException {
        stub.answer((r, n) ->
                r.path().startsWith("/notify/") ? StubPaynotify.failure(provider, status) : StubPaynotify.defaultReply(r));
        assertEquals(0, trigger("missing-sub-merchant", "--channel", channel), output());
        StubPaynotify.Request r = stub.notifications().get(0);
        switch (provider) {
            case WECHATPAY_V2 -> assertNull(v2(r).getSubMchId(), "signed, without sub_mch_id");
            case WECHATPAY_V3 -> assertNull(v3(r).getSubMchid(), "signed and encrypted, without sub_mchid");
            case ALIPAY -> assertFalse(TestKeys.form(r.body()).containsKey("auth_app_id"));
        }
        // the wrong status is caught
        stub.answer((x, n) -> x.path().startsWith("/notify/")
                ? StubPaynotify.failure(provider, status == 400 ? 422 : 400)
                : StubPaynotify.defaultReply(x));
        assertEquals(1, trigger("missing-sub-merchant", "--channel", channel), output());
    }

    @Test
    void foreignRootIsSignedWithAKeyThatIsNotTheCertificatesAndExpects401() throws AlipayApiException {
        stub.answer((r, n) -> StubPaynotify.failure(Provider.ALIPAY, 401));
        assertEquals(0, trigger("foreign-root", "--channel", "ali-cert-dev"), output());
        assertTrue(stub.requests().stream().noneMatch(r -> r.path().startsWith("/api/")), "needs no order");
        Map<String, String> form = TestKeys.form(stub.notifications().get(0).body());
        assertFalse(AlipaySignature.rsaCheckV1(form, alipayKeyBase64("alipay-cert-dev-public.pem"), "utf-8", "RSA2"));
        assertTrue(output().contains("issuer " + io.paynotify.simulator.sign.AlipayPki.FOREIGN_INTERMEDIATE_DN), output());
    }

    @ParameterizedTest
    @ValueSource(strings = {"other-sub-merchant", "missing-sub-merchant"})
    void theCrossTenantKindsNeedAPartnerOrIsvChannel(String kind) {
        assertEquals(2, trigger(kind, "--channel", "wx-dev"));
        assertEquals(2, trigger(kind, "--channel", "ali-cert-dev"));
        assertTrue(stub.notifications().isEmpty());
    }

    @Test
    void foreignRootNeedsACertificateModeChannel() {
        assertEquals(2, trigger("foreign-root", "--channel", "ali-dev"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("certificate mode"), output());
    }

    @Test
    void subMerchantOptionsAreCheckedAgainstTheMode() {
        assertEquals(2, trigger("pay", "--channel", "wx-dev", "--sub-merchant", "1900000201"), "direct");
        assertEquals(2, trigger("pay", "--channel", "ali-isv-dev", "--sub-app-id", "wxsub"), "no sub_appid on isv");
        assertEquals(2, trigger("pay", "--channel", "ali-isv-dev", "--sub-merchant", "123"), "16 digits");
        assertEquals(2, trigger("pay", "--channel", "wx-sp-dev", "--sub-merchant", "0123"), "no leading zero");
        assertTrue(stub.requests().isEmpty());
    }

    @Test
    void aChannelsFileGivesTheModeAndTheSubMerchants(@TempDir Path dir) throws IOException, WxPayException {
        Files.writeString(
                dir.resolve("channels.properties"),
                String.join(
                        "\n",
                        "paynotify.channels.\"platform\".provider=WECHATPAY_V2",
                        "paynotify.channels.\"platform\".mode=partner",
                        "paynotify.channels.\"platform\".app-id=" + WX_SP.appId(),
                        "paynotify.channels.\"platform\".mch-id=" + WX_SP.mchId(),
                        "paynotify.channels.\"platform\".api-key=" + WX_SP.apiKey(),
                        "paynotify.channels.\"platform\".sign-types=MD5",
                        "paynotify.clients.\"tenant-a\".secret=tenant-a-secret-0123456789abcdefgh",
                        "paynotify.clients.\"tenant-a\".channels=platform",
                        "paynotify.clients.\"tenant-a\".sub-merchants=1900000777,1900000778",
                        ""));
        String file = dir.resolve("channels.properties").toString();
        assertEquals(0, trigger("pay", "--channel", "platform", "--channels-file", file), output());
        assertEquals("1900000777", subMerchantOfCreate(create()));
        assertEquals("tenant-a", create().header("X-Client-Id"));
        assertEquals("1900000777", v2(stub.notifications().get(0)).getSubMchId());
    }

    @Test
    void outputNeverShowsAKeyOrToken() {
        assertEquals(0, trigger("pay", "--channel", "wx-sp-dev"));
        assertEquals(0, trigger("pay", "--channel", "wx3-sp-dev"));
        assertEquals(0, trigger("pay", "--channel", "ali-isv-dev"));
        String text = output();
        assertFalse(text.contains(WX_SP.apiKey()));
        assertFalse(text.contains(WX3_SP.apiV3Key()));
        assertFalse(text.contains("PRIVATE KEY"));
        assertFalse(text.contains("devisvtoken"));
    }

    private static String xmlField(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + "><!\\[CDATA\\[([^\\]]*)]]></" + name + ">").matcher(xml);
        return m.find() ? m.group(1) : null;
    }

    /** A dev certificate file as text, checked to be PEM certificates on the way. */
    static String certificateFile(String name) throws Exception {
        String text = DevKeys.pem(name);
        var certs = CertificateFactory.getInstance("X.509")
                .generateCertificates(new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)));
        assertFalse(certs.isEmpty(), name);
        assertTrue(certs.iterator().next() instanceof X509Certificate);
        return text;
    }
}
