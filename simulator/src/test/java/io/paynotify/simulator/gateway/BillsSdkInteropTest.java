package io.paynotify.simulator.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.api.AlipayApiException;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.domain.AlipayDataDataserviceBillDownloadurlQueryModel;
import com.alipay.api.request.AlipayDataDataserviceBillDownloadurlQueryRequest;
import com.alipay.api.response.AlipayDataDataserviceBillDownloadurlQueryResponse;
import com.github.binarywang.wxpay.bean.result.WxPayBillInfo;
import com.github.binarywang.wxpay.bean.result.WxPayBillResult;
import com.github.binarywang.wxpay.config.WxPayConfig;
import com.github.binarywang.wxpay.constant.WxPayConstants.SignType;
import com.github.binarywang.wxpay.exception.WxPayException;
import com.github.binarywang.wxpay.service.WxPayService;
import com.github.binarywang.wxpay.service.impl.WxPayServiceImpl;
import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.http.DefaultHttpClientBuilder;
import com.wechat.pay.java.core.http.HttpClient;
import com.wechat.pay.java.core.http.HttpRequest;
import com.wechat.pay.java.core.http.HttpResponse;
import com.wechat.pay.java.service.billdownload.BillDownloadServiceExtension;
import com.wechat.pay.java.service.billdownload.DigestBillEntity;
import com.wechat.pay.java.service.billdownload.model.BillType;
import com.wechat.pay.java.service.billdownload.model.GetTradeBillRequest;
import com.wechat.pay.java.service.billdownload.model.TarType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;

/**
 * The bills the gateway writes, read by the providers' own SDKs: WxJava downloads the v2 bill (signing the request,
 * gunzipping the answer) and parses it with its own {@code WxPayBillResult.fromRawBillResultString}; wechatpay-java's
 * {@code BillDownloadServiceExtension} asks tradebill (verifying the answer's signature), downloads the file with its
 * own Authorization and checks its SHA-1 ({@code DigestBillEntity.verifyHash}); alipay-sdk-java's client gets the
 * verified {@code bill_download_url}, whose zip opens with GBK names and holds the detail CSV.
 */
class BillsSdkInteropTest extends GatewayTestBase {

    static final LocalDate DAY = LocalDate.of(2026, 3, 1);
    /** 10:03:04 Beijing time on {@link #DAY}. */
    static final Instant PAID_AT = Instant.parse("2026-03-01T02:03:04Z");

    static final String WECHAT_HOST = "https://api.mch.weixin.qq.com";

    private static WxPayService wxJava() {
        WxPayConfig config = new WxPayConfig();
        config.setAppId(TestGateways.V2_APP_ID);
        config.setMchId(TestGateways.V2_MCH_ID);
        config.setMchKey(TestGateways.V2_API_KEY);
        config.setSignType(SignType.HMAC_SHA256);
        config.setPayBaseUrl(gateway.baseUrl());
        WxPayService service = new WxPayServiceImpl();
        service.setConfig(config);
        return service;
    }

    /** A paid trade on {@link #DAY} that the merchant asked about (so the gateway knows whose it is). */
    private static void knownToV2(String outTradeNo, long fen) throws WxPayException {
        gateway.script(outTradeNo, ScriptedTrade.of(TradeState.PAID, fen).withPaidAt(PAID_AT));
        wxJava().queryOrder(null, outTradeNo);
    }

    // ------------------------------------------------------------------ WeChat Pay v2

    @Test
    void wxJava_downloads_and_parses_the_v2_bill_gzip_and_text() throws Exception {
        knownToV2("bill-v2-1", 1234);
        gateway.scriptBill(
                Api.WECHATPAY_V2,
                DAY,
                BillScript.ready().withExtraPayment("not-in-paynotify", 990).withRefund("bill-v2-1", "RF-1", 300));

        for (String tarType : new String[] {"GZIP", null}) {
            WxPayBillResult bill = wxJava().downloadBill("20260301", "ALL", tarType, null);
            List<WxPayBillInfo> lines = bill.getBillInfoList();
            assertEquals(3, lines.size(), "tar_type " + tarType);
            assertEquals("3", bill.getTotalRecord(), "总交易单数 counts payments and refunds");
            assertEquals("22.24", bill.getTotalFee(), "应结订单总金额");
            assertEquals("3.00", bill.getTotalRefundFee());
            WxPayBillInfo paid = lines.get(0);
            assertEquals("2026-03-01 10:03:04", paid.getTradeTime(), "Beijing time");
            assertEquals(TestGateways.V2_APP_ID, paid.getAppId());
            assertEquals(TestGateways.V2_MCH_ID, paid.getMchId());
            assertEquals("bill-v2-1", paid.getOutTradeNo());
            assertEquals("SUCCESS", paid.getTradeState());
            assertEquals("12.34", paid.getTotalAmount(), "订单金额");
            assertEquals("0.07404", paid.getPoundage(), "手续费 with 5 decimals");
            assertEquals("not-in-paynotify", lines.get(1).getOutTradeNo());
            WxPayBillInfo refund = lines.get(2);
            assertEquals("REFUND", refund.getTradeState());
            assertEquals("RF-1", refund.getOutRefundNo());
            assertEquals("3.00", refund.getAppliedRefundAmount(), "申请退款金额");
            assertEquals("-0.01800", refund.getPoundage());
        }
    }

    @Test
    void a_day_without_trades_is_No_Bill_Exist_and_a_scripted_one_Bill_Creating() {
        WxPayException gz =
                assertThrows(WxPayException.class, () -> wxJava().downloadBill("20260302", "ALL", "GZIP", null));
        // with GZIP, WxJava tries to gunzip the XML first and wraps WeChat's error in its own
        assertEquals("No Bill Exist", ((WxPayException) gz.getCause()).getReturnMsg());
        assertEquals("20002", ((WxPayException) gz.getCause()).getErrCode());
        WxPayException none =
                assertThrows(WxPayException.class, () -> wxJava().downloadBill("20260302", "ALL", null, null));
        assertEquals("No Bill Exist", none.getReturnMsg());
        gateway.scriptBill(Api.WECHATPAY_V2, DAY, BillScript.ready().withStatus(BillScript.Status.NOT_READY));
        WxPayException creating =
                assertThrows(WxPayException.class, () -> wxJava().downloadBill("20260301", "ALL", null, null));
        assertEquals("Bill Creating", creating.getReturnMsg());
    }

    @Test
    void the_v3_text_is_the_same_bill_wxJava_parses() {
        Bills.Entry e = new Bills.Entry(
                false, DAY.atTime(10, 3, 4), "bill-v3-0", "4200000000202603010000000001", 250, null, "1900000901");
        String text = BillFormats.wechat(TestGateways.V3_APP_ID, TestGateways.V3_MCH_ID, List.of(e));
        WxPayBillResult bill = WxPayBillResult.fromRawBillResultString(text, "ALL");
        assertEquals(1, bill.getBillInfoList().size());
        assertEquals("1900000901", bill.getBillInfoList().get(0).getSubMchId(), "特约商户号 of a partner trade");
        assertEquals("2.50", bill.getBillInfoList().get(0).getTotalAmount());
    }

    // ------------------------------------------------------------------ WeChat Pay v3

    private static BillDownloadServiceExtension wechatpayJava() {
        RSAPublicKeyConfig config = new RSAPublicKeyConfig.Builder()
                .merchantId(TestGateways.V3_MCH_ID)
                .privateKey(keys.v3Merchant.getPrivate())
                .merchantSerialNumber(TestGateways.V3_MERCHANT_SERIAL)
                .publicKeyId(TestGateways.V3_PLATFORM_SERIAL)
                .publicKey(keys.v3Platform.getPublic())
                .apiV3Key("0123456789abcdef0123456789abcdef")
                .build();
        HttpClient toGateway = new ToGateway(new DefaultHttpClientBuilder().config(config).build());
        return new BillDownloadServiceExtension.Builder()
                .config(config)
                .httpClient(toGateway)
                .build();
    }

    private static void knownToV3(String outTradeNo, long fen) {
        gateway.script(outTradeNo, ScriptedTrade.of(TradeState.PAID, fen).withPaidAt(PAID_AT));
        var answer = raw.send(raw.v3Query(
                        outTradeNo, TestGateways.V3_MCH_ID, TestGateways.V3_MERCHANT_SERIAL, keys.v3Merchant.getPrivate())
                .build());
        assertEquals(200, answer.statusCode(), answer.body());
    }

    private static GetTradeBillRequest tradeBill(TarType tarType) {
        GetTradeBillRequest request = new GetTradeBillRequest();
        request.setBillDate("2026-03-01");
        request.setBillType(BillType.ALL);
        request.setTarType(tarType);
        return request;
    }

    @Test
    void wechatpayJava_downloads_the_v3_bill_and_its_sha1_verifies() throws IOException {
        knownToV3("bill-v3-1", 2500);
        for (TarType tarType : new TarType[] {TarType.GZIP, null}) {
            DigestBillEntity bill = wechatpayJava().getTradeBill(tradeBill(tarType));
            String text;
            try (InputStream in = bill.getInputStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertTrue(bill.verifyHash(), "hash_value is the SHA-1 of the gunzipped bill");
            WxPayBillResult parsed = WxPayBillResult.fromRawBillResultString(text, "ALL");
            assertEquals(1, parsed.getBillInfoList().size());
            assertEquals("bill-v3-1", parsed.getBillInfoList().get(0).getOutTradeNo());
            assertEquals(TestGateways.V3_MCH_ID, parsed.getBillInfoList().get(0).getMchId());
        }
    }

    @Test
    void a_scripted_hash_mismatch_fails_the_sdks_check() throws IOException {
        knownToV3("bill-v3-2", 2500);
        gateway.scriptBill(Api.WECHATPAY_V3, DAY, BillScript.ready().withHashMismatch());
        DigestBillEntity bill = wechatpayJava().getTradeBill(tradeBill(TarType.GZIP));
        try (InputStream in = bill.getInputStream()) {
            in.readAllBytes();
        }
        assertFalse(bill.verifyHash());
    }

    @Test
    void statement_creating_and_no_statement_reach_the_sdk_as_its_service_errors() {
        var none = assertThrows(
                com.wechat.pay.java.core.exception.ServiceException.class,
                () -> wechatpayJava().getTradeBill(tradeBill(TarType.GZIP)));
        assertEquals("NO_STATEMENT_EXIST", none.getErrorCode());
        gateway.scriptBill(Api.WECHATPAY_V3, DAY, BillScript.ready().withStatus(BillScript.Status.NOT_READY));
        var creating = assertThrows(
                com.wechat.pay.java.core.exception.ServiceException.class,
                () -> wechatpayJava().getTradeBill(tradeBill(TarType.GZIP)));
        assertEquals("STATEMENT_CREATING", creating.getErrorCode());
    }

    /** The SDK's requests to the gateway instead of WeChat; the download URL already names the gateway. */
    private record ToGateway(HttpClient sdkClient) implements HttpClient {
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

    // ------------------------------------------------------------------ Alipay

    private static DefaultAlipayClient alipaySdk() {
        return new DefaultAlipayClient(
                gateway.baseUrl() + "/gateway.do",
                TestGateways.ALIPAY_APP_ID,
                TestKeys.base64(keys.alipayApp.getPrivate()),
                "json",
                "utf-8",
                TestKeys.base64(keys.alipayPlatform.getPublic()),
                "RSA2");
    }

    private static AlipayDataDataserviceBillDownloadurlQueryResponse billUrl(String day) throws AlipayApiException {
        AlipayDataDataserviceBillDownloadurlQueryModel model = new AlipayDataDataserviceBillDownloadurlQueryModel();
        model.setBillType("trade");
        model.setBillDate(day);
        AlipayDataDataserviceBillDownloadurlQueryRequest request = new AlipayDataDataserviceBillDownloadurlQueryRequest();
        request.setBizModel(model);
        return alipaySdk().execute(request);
    }

    @Test
    void alipaySdk_gets_a_verified_url_to_a_gbk_zip_with_the_detail_csv() throws Exception {
        gateway.script("bill-ali-1", ScriptedTrade.of(TradeState.PAID, 4200).withPaidAt(PAID_AT));
        assertEquals(200, raw.alipay(RawRequests.alipayQuery(
                                TestGateways.ALIPAY_APP_ID, "bill-ali-1", keys.alipayApp.getPrivate()))
                        .statusCode());
        gateway.scriptBill(Api.ALIPAY, DAY, BillScript.ready().withAmount("bill-ali-1", 4100));

        AlipayDataDataserviceBillDownloadurlQueryResponse r = billUrl("2026-03-01");
        assertTrue(r.isSuccess(), r.getBody());
        String url = r.getBillDownloadUrl();
        assertNotNull(url);
        assertTrue(url.startsWith(gateway.baseUrl() + "/downloadBillFile.resource?"), url);

        byte[] zip;
        try (InputStream in = URI.create(url).toURL().openStream()) {
            zip = in.readAllBytes();
        }
        Map<String, String> entries = unzip(zip, Charset.forName("GBK"));
        String account = BillFormats.alipayAccount(TestGateways.ALIPAY_APP_ID);
        String detail = entries.get(account + "0156_20260301_业务明细.csv");
        assertNotNull(detail, entries.keySet().toString());
        assertTrue(entries.containsKey(account + "0156_20260301_业务明细(汇总).csv"));
        List<String> lines = detail.lines().collect(Collectors.toList());
        assertEquals("#账号：[" + account + "]", lines.get(1));
        assertTrue(lines.get(2).startsWith("#起始日期：[2026年03月01日 00:00:00]"), lines.get(2));
        assertEquals(BillFormats.ALIPAY_HEADER, lines.get(4));
        String[] f = lines.get(5).split(",", -1);
        assertEquals(25, f.length);
        assertEquals("bill-ali-1\t", f[1]);
        assertEquals("交易", f[2]);
        assertEquals("41.00", f[11], "the scripted wrong amount");
        assertEquals("2026-03-01 10:03:04", f[5], "完成时间 in Beijing time");
        assertTrue(lines.get(6).contains("业务明细列表结束"));
        assertTrue(lines.get(7).startsWith("#交易合计：1笔，退款合计：0笔"), lines.get(7));
        // the JDK's default UTF-8 cannot read the names: the pitfall users hit
        assertThrows(IllegalArgumentException.class, () -> unzip(zip, StandardCharsets.UTF_8));
    }

    @Test
    void alipays_link_lives_once_per_answer_and_an_unknown_day_is_a_verified_bill_not_exist() throws Exception {
        AlipayDataDataserviceBillDownloadurlQueryResponse r = billUrl("2026-03-02");
        assertFalse(r.isSuccess());
        assertEquals("40004", r.getCode());
        assertEquals("isp.bill_not_exist", r.getSubCode(), "the SDK verified the signed error answer");
        var missing = raw.send(raw.request("/downloadBillFile.resource?fileId=nope").GET().build());
        assertEquals(404, missing.statusCode());
    }

    private static Map<String, String> unzip(byte[] zip, Charset charset) throws IOException {
        Map<String, String> entries = new java.util.LinkedHashMap<>();
        try (var in = new ZipInputStream(new ByteArrayInputStream(zip), charset)) {
            ZipEntry e;
            while ((e = in.getNextEntry()) != null) {
                entries.put(e.getName(), new String(in.readAllBytes(), Charset.forName("GBK")));
            }
        }
        return entries;
    }
}
