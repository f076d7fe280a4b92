package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.api.AlipayApiException;
import com.alipay.api.AlipayClient;
import com.alipay.api.CertAlipayRequest;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.domain.AlipayOpenAuthTokenAppQueryModel;
import com.alipay.api.domain.AlipayTradeQueryModel;
import com.alipay.api.internal.util.AlipaySignature;
import com.alipay.api.internal.util.AntCertificationUtil;
import com.alipay.api.request.AlipayOpenAuthTokenAppQueryRequest;
import com.alipay.api.request.AlipayTradeQueryRequest;
import com.alipay.api.response.AlipayOpenAuthTokenAppQueryResponse;
import com.alipay.api.response.AlipayTradeQueryResponse;
import com.github.binarywang.wxpay.bean.result.WxPayOrderQueryResult;
import com.github.binarywang.wxpay.config.WxPayConfig;
import com.github.binarywang.wxpay.constant.WxPayConstants.SignType;
import com.github.binarywang.wxpay.exception.WxPayException;
import com.github.binarywang.wxpay.service.WxPayService;
import com.github.binarywang.wxpay.service.impl.WxPayServiceImpl;
import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.http.DefaultHttpClientBuilder;
import com.wechat.pay.java.core.http.HttpClient;
import com.wechat.pay.java.core.http.HttpRequest;
import com.wechat.pay.java.core.http.HttpResponse;
import com.wechat.pay.java.service.partnerpayments.nativepay.NativePayService;
import com.wechat.pay.java.service.partnerpayments.nativepay.model.QueryOrderByOutTradeNoRequest;
import com.wechat.pay.java.service.partnerpayments.nativepay.model.Transaction;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The providers' SDKs against the dev gateway's account modes (issue 22 items 3 and 4): wechatpay-java's
 * {@code partnerpayments} and WxJava's partner beans parse and verify the partner answers; alipay-sdk-java computes the
 * same certificate SNs as the simulator for the dev files, its certificate-mode client ({@link CertAlipayRequest})
 * verifies the answers (and, after a rotation, downloads and chain-checks the re-issued certificate itself), and
 * its ISV calls ({@code app_auth_token}, {@code alipay.open.auth.token.app.query}) read the gateway's answers.
 */
class AccountModesSdkTest {

    private static final String WECHAT_HOST = "https://api.mch.weixin.qq.com";

    static Gateway gateway;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws IOException {
        gateway = Gateway.start(GatewayConfig.dev().withPort(0));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void reset() {
        gateway.reset();
    }

    // ------------------------------------------------------------------ certificate SNs

    @Test
    void the_sdk_computes_the_simulators_sns_for_the_dev_certificates() throws Exception {
        String app = DevMerchants.resource(DevMerchants.ALIPAY_CERT_APP_CERT);
        String root = DevMerchants.resource(DevMerchants.ALIPAY_CERT_ROOT);
        String alipay = DevMerchants.resource(DevMerchants.ALIPAY_CERT_ALIPAY_CERT);
        String reissued = DevMerchants.resource(DevMerchants.ALIPAY_CERT_ALIPAY_REISSUED);

        assertEquals(AccountModesRawTest.APP_CERT_SN, AlipaySignature.getCertSN(file("app.crt", app)));
        assertEquals(AccountModesRawTest.APP_CERT_SN, AntCertificationUtil.getCertSN(
                AntCertificationUtil.getCertFromContent(app)));
        assertEquals(AccountModesRawTest.ALIPAY_CERT_SN, AntCertificationUtil.getCertSN(
                AntCertificationUtil.getCertFromContent(alipay)));
        assertEquals(AccountModesRawTest.REISSUED_SN, AntCertificationUtil.getCertSN(
                AntCertificationUtil.getCertFromContent(reissued)));
        assertEquals(AccountModesRawTest.ROOT_CERT_SN, AntCertificationUtil.getRootCertSN(root));

        AlipayCertMode mode = AlipayCertMode.of(app, root, alipay, reissued);
        assertEquals(AccountModesRawTest.APP_CERT_SN, mode.appCertSn());
        assertEquals(AccountModesRawTest.ROOT_CERT_SN, mode.rootCertSn());
        assertEquals(AccountModesRawTest.ALIPAY_CERT_SN, mode.alipayCertSn());
        assertEquals(AccountModesRawTest.REISSUED_SN, mode.reissuedSn());
        // the root bundle holds a non-RSA root, which the SN leaves out
        assertTrue(AlipayCertMode.certificates(root).size() > 1);
        assertFalse(AccountModesRawTest.ROOT_CERT_SN.contains("_"));
    }

    // ------------------------------------------------------------------ Alipay certificate mode

    private static AlipayClient certClient() throws Exception {
        CertAlipayRequest r = new CertAlipayRequest();
        r.setServerUrl(gateway.baseUrl() + "/gateway.do");
        r.setAppId(DevMerchants.ALIPAY_CERT_APP_ID);
        r.setPrivateKey(base64Key("alipay-cert-dev-app-private.pem"));
        r.setFormat("json");
        r.setCharset("utf-8");
        r.setSignType("RSA2");
        r.setCertPath(file("appCertPublicKey.crt", DevMerchants.resource(DevMerchants.ALIPAY_CERT_APP_CERT)));
        r.setAlipayPublicCertPath(
                file("alipayCertPublicKey_RSA2.crt", DevMerchants.resource(DevMerchants.ALIPAY_CERT_ALIPAY_CERT)));
        r.setRootCertPath(file("alipayRootCert.crt", DevMerchants.resource(DevMerchants.ALIPAY_CERT_ROOT)));
        return new DefaultAlipayClient(r);
    }

    private static AlipayTradeQueryRequest tradeQuery(String outTradeNo) {
        AlipayTradeQueryModel model = new AlipayTradeQueryModel();
        model.setOutTradeNo(outTradeNo);
        AlipayTradeQueryRequest request = new AlipayTradeQueryRequest();
        request.setBizModel(model);
        return request;
    }

    @Test
    void the_sdks_certificate_client_is_answered_and_verifies_the_answer() throws Exception {
        gateway.script("SDK-CERT-1", ScriptedTrade.of(TradeState.PAID, 4200));

        AlipayTradeQueryResponse r = certClient().certificateExecute(tradeQuery("SDK-CERT-1"));

        assertTrue(r.isSuccess(), r.getBody());
        assertEquals("TRADE_SUCCESS", r.getTradeStatus());
        assertEquals("42.00", r.getTotalAmount());
        RecordedRequest sent = gateway.requests().get(0);
        assertTrue(sent.accepted(), sent.toString());
        assertEquals(AccountModesRawTest.APP_CERT_SN, sent.params().get("app_cert_sn"));
        assertEquals(AccountModesRawTest.ROOT_CERT_SN, sent.params().get("alipay_root_cert_sn"));
    }

    @Test
    void after_a_rotation_the_sdk_downloads_the_reissued_certificate_and_verifies_with_it() throws Exception {
        gateway.script("SDK-CERT-2", ScriptedTrade.of(TradeState.PAID, 100));
        gateway.rotateAlipayCertificate(true);

        AlipayTradeQueryResponse r = certClient().certificateExecute(tradeQuery("SDK-CERT-2"));

        assertTrue(r.isSuccess(), r.getBody());
        assertTrue(r.getBody().contains(AccountModesRawTest.REISSUED_SN), r.getBody());
        assertTrue(
                gateway.requests().stream()
                        .anyMatch(q -> AlipayCerts.DOWNLOAD_METHOD.equals(q.params().get("method")) && q.accepted()),
                () -> "no certificate download: " + gateway.requests());
    }

    // ------------------------------------------------------------------ Alipay ISV

    private static AlipayClient isvClient() throws Exception {
        return new DefaultAlipayClient(
                gateway.baseUrl() + "/gateway.do",
                DevMerchants.ALIPAY_ISV_APP_ID,
                base64Key("alipay-isv-dev-app-private.pem"),
                "json",
                "utf-8",
                base64Key("alipay-isv-dev-public.pem"),
                "RSA2");
    }

    @Test
    void the_sdk_queries_as_an_isv_for_each_merchant_and_confirms_its_tokens() throws Exception {
        gateway.script("SDK-ISV-1", ScriptedTrade.of(TradeState.PAID, 100), "2021000000000021", null);

        AlipayTradeQueryRequest mine = tradeQuery("SDK-ISV-1");
        mine.putOtherTextParam("app_auth_token", DevMerchants.ALIPAY_ISV_TOKENS.get("2021000000000021"));
        AlipayTradeQueryResponse a = isvClient().execute(mine);
        assertTrue(a.isSuccess(), a.getBody());
        assertEquals("TRADE_SUCCESS", a.getTradeStatus());

        AlipayTradeQueryRequest other = tradeQuery("SDK-ISV-1");
        other.putOtherTextParam("app_auth_token", DevMerchants.ALIPAY_ISV_TOKENS.get("2021000000000022"));
        AlipayTradeQueryResponse b = isvClient().execute(other);
        assertFalse(b.isSuccess());
        assertEquals("ACQ.TRADE_NOT_EXIST", b.getSubCode());

        for (var e : DevMerchants.ALIPAY_ISV_TOKENS.entrySet()) {
            AlipayOpenAuthTokenAppQueryModel model = new AlipayOpenAuthTokenAppQueryModel();
            model.setAppAuthToken(e.getValue());
            AlipayOpenAuthTokenAppQueryRequest q = new AlipayOpenAuthTokenAppQueryRequest();
            q.setBizModel(model);
            AlipayOpenAuthTokenAppQueryResponse t = isvClient().execute(q);
            assertTrue(t.isSuccess(), t.getBody());
            assertEquals("valid", t.getStatus());
            assertEquals(e.getKey(), t.getAuthAppId());
            assertEquals(31536000L, t.getExpiresIn());
        }
    }

    // ------------------------------------------------------------------ WeChat partner

    private static NativePayService wechatpayJava() {
        RSAPublicKeyConfig config = new RSAPublicKeyConfig.Builder()
                .merchantId(DevMerchants.WECHAT_V3_SP_MCH_ID)
                .privateKey(base64Key("wechatpay-v3-dev-sp-merchant-private.pem"))
                .merchantSerialNumber(DevMerchants.WECHAT_V3_SP_MERCHANT_SERIAL)
                .publicKeyId(DevMerchants.WECHAT_V3_SP_PLATFORM_SERIAL)
                .publicKey(base64Key("wechatpay-v3-dev-sp-platform-public.pem"))
                .apiV3Key("devSPv3devSPv3devSPv3devSPv3dev3")
                .build();
        HttpClient toGateway = new GatewayHttpClient(new DefaultHttpClientBuilder().config(config).build());
        return new NativePayService.Builder().httpClient(toGateway).build();
    }

    private static Transaction partnerQuery(String outTradeNo, String subMchid) {
        QueryOrderByOutTradeNoRequest request = new QueryOrderByOutTradeNoRequest();
        request.setSpMchid(DevMerchants.WECHAT_V3_SP_MCH_ID);
        request.setSubMchid(subMchid);
        request.setOutTradeNo(outTradeNo);
        return wechatpayJava().queryOrderByOutTradeNo(request);
    }

    @Test
    void wechatpay_java_partnerpayments_reads_the_verified_partner_transaction() {
        String a = DevMerchants.WECHAT_V3_SP_SUB_MERCHANTS.get(0);
        gateway.script(
                "SDK-SP3-1",
                ScriptedTrade.of(TradeState.PAID, 990).withPaidAt(Instant.parse("2026-03-01T02:03:04Z")),
                a,
                "wxsubapp0000000c");

        Transaction t = partnerQuery("SDK-SP3-1", a);

        assertEquals(Transaction.TradeStateEnum.SUCCESS, t.getTradeState());
        assertEquals(DevMerchants.WECHAT_V3_SP_MCH_ID, t.getSpMchid());
        assertEquals(DevMerchants.WECHAT_V3_SP_APP_ID, t.getSpAppid());
        assertEquals(a, t.getSubMchid());
        assertEquals("wxsubapp0000000c", t.getSubAppid());
        assertEquals(990, t.getAmount().getTotal());
        assertEquals(WechatV2Api.PAYER_OPENID, t.getPayer().getSpOpenid());
        assertEquals("2026-03-01T10:03:04+08:00", t.getSuccessTime());

        ServiceException other = org.junit.jupiter.api.Assertions.assertThrows(
                ServiceException.class,
                () -> partnerQuery("SDK-SP3-1", DevMerchants.WECHAT_V3_SP_SUB_MERCHANTS.get(1)));
        assertEquals(404, other.getHttpStatusCode());
        assertEquals("ORDER_NOT_EXIST", other.getErrorCode());
    }

    @Test
    void wxjava_reads_the_verified_v2_partner_answer() throws WxPayException {
        String a = DevMerchants.WECHAT_V2_SP_SUB_MERCHANTS.get(0);
        gateway.script("SDK-SP2-1", ScriptedTrade.of(TradeState.PAID, 250));
        WxPayConfig config = new WxPayConfig();
        config.setAppId(DevMerchants.WECHAT_V2_SP_APP_ID);
        config.setMchId(DevMerchants.WECHAT_V2_SP_MCH_ID);
        config.setSubMchId(a);
        config.setSubAppId("wxsubapp0000000a");
        config.setMchKey(DevMerchants.WECHAT_V2_SP_API_KEY);
        config.setSignType(SignType.HMAC_SHA256);
        config.setPayBaseUrl(gateway.baseUrl());
        WxPayService service = new WxPayServiceImpl();
        service.setConfig(config);

        WxPayOrderQueryResult r = service.queryOrder(null, "SDK-SP2-1");

        assertEquals("SUCCESS", r.getTradeState());
        assertEquals(DevMerchants.WECHAT_V2_SP_MCH_ID, r.getMchId());
        assertEquals(a, r.getSubMchId());
        assertEquals("wxsubapp0000000a", r.getSubAppId());
        assertEquals(250, r.getTotalFee());
        RecordedRequest sent = gateway.requests().get(0);
        assertEquals(a, sent.params().get("sub_mch_id"), "WxJava signs sub_mch_id into the query");
    }

    // ------------------------------------------------------------------ plumbing

    private static String file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.US_ASCII);
        return p.toString();
    }

    /** A dev key file's base64 body (PKCS#8 or SPKI), as the SDKs take keys. */
    private static String base64Key(String name) {
        String pem = DevMerchants.resource(DevMerchants.KEY_DIR + name);
        String b64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        Base64.getDecoder().decode(b64);
        return b64;
    }

    /** Sends the SDK's requests to the gateway instead of WeChat; everything else is the SDK's own client. */
    private record GatewayHttpClient(HttpClient sdkClient) implements HttpClient {
        @Override
        public <T> HttpResponse<T> execute(HttpRequest request, Class<T> responseClass) {
            HttpRequest moved = new HttpRequest.Builder()
                    .url(request.getUrl().toString().replace(WECHAT_HOST, gateway.baseUrl()))
                    .httpMethod(request.getHttpMethod())
                    .headers(request.getHeaders())
                    .body(request.getBody())
                    .build();
            return sdkClient.execute(moved, responseClass);
        }

        @Override
        public InputStream download(String url) {
            return sdkClient.download(url.replace(WECHAT_HOST, gateway.baseUrl()));
        }
    }
}
