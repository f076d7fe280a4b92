package io.paynotify.bench;

import com.alipay.api.internal.util.AlipaySignature;
import com.github.binarywang.wxpay.bean.notify.WxPayOrderNotifyResult;
import com.github.binarywang.wxpay.config.WxPayConfig;
import com.github.binarywang.wxpay.service.WxPayService;
import com.github.binarywang.wxpay.service.impl.WxPayServiceImpl;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RSAPublicKeyNotificationConfig;
import com.wechat.pay.java.core.notification.RequestParam;
import com.wechat.pay.java.service.payments.model.Transaction;
import io.paynotify.config.Channel;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.provider.NotifyAdapter;
import io.paynotify.provider.RawNotify;
import io.paynotify.provider.alipay.AlipayAdapter;
import io.paynotify.provider.wechatv2.WechatV2Adapter;
import java.math.BigDecimal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.Signature;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The whole per-notification work of parse + verify + map, for the same notification, by paynotify's adapters and
 * by the official SDKs, with the bare JDK crypto on the same bytes beside them (the floor no verifier can beat).
 * "Map" means: end with the fields the state machine needs (order number, transaction id, amount in fen, status).
 *
 * <p>Run through {@link VerifyReport}, which prints ops/s and the ratios; plain JMH works too.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class VerifyBenchmark {

    /** The fully qualified name of the v3 adapter, which may not be on this branch yet. */
    public static final String V3_ADAPTER = "io.paynotify.provider.wechatv3.WechatV3Adapter";

    // ================================================================== WeChat Pay v2

    @State(Scope.Thread)
    public static class WechatV2 {
        @Param({"MD5", "HMAC-SHA256"})
        public String signType;

        Channel channel;
        WechatV2Adapter adapter;
        WxPayService wxJava;
        byte[] body;
        byte[] signedBytes;
        MessageDigest md5;
        Mac hmac;

        @Setup
        public void setUp() throws Exception {
            channel = Fixtures.wechatV2Channel();
            adapter = new WechatV2Adapter();
            Map<String, String> fields = Fixtures.wechatV2PaidFields("BENCH20260102000001", "4200000000202601020000000001",
                    1999, signType);
            body = Fixtures.wechatV2Xml(fields);
            signedBytes = Fixtures.wechatV2SignedBytes(fields);
            WxPayConfig config = new WxPayConfig();
            config.setAppId(Fixtures.WX_APPID);
            config.setMchId(Fixtures.WX_MCH);
            config.setMchKey(Fixtures.WX_KEY);
            config.setSignType(signType);
            WxPayServiceImpl service = new WxPayServiceImpl();
            service.setConfig(config);
            wxJava = service;
            md5 = MessageDigest.getInstance("MD5");
            hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(Fixtures.WX_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            // every contender must accept the notice, or the numbers mean nothing
            check(paynotifyV2(this).amountMinor() == 1999, "paynotify v2");
            check(wxJavaV2(this).amount == 1999, "WxJava");
        }
    }

    @Benchmark
    public Object v2Paynotify(WechatV2 s) throws Exception {
        return paynotifyV2(s);
    }

    @Benchmark
    public Object v2WxJava(WechatV2 s) throws Exception {
        return wxJavaV2(s);
    }

    /** The crypto alone: MD5 or HMAC-SHA256 over the exact signed bytes. */
    @Benchmark
    public Object v2Floor(WechatV2 s) {
        return "MD5".equals(s.signType) ? s.md5.digest(s.signedBytes) : s.hmac.doFinal(s.signedBytes);
    }

    static VerifiedNotification paynotifyV2(WechatV2 s) throws Exception {
        return s.adapter.verify(s.channel, new RawNotify(s.channel.name(), Map.of(), s.body, Instant.EPOCH));
    }

    static Mapped wxJavaV2(WechatV2 s) throws Exception {
        // what a WxJava application does with the request body: decode it, parse + check it, read the fields
        WxPayOrderNotifyResult r = s.wxJava.parseOrderNotifyResult(new String(s.body, StandardCharsets.UTF_8));
        return new Mapped(r.getOutTradeNo(), r.getTransactionId(), r.getTotalFee(), r.getResultCode());
    }

    // ================================================================== Alipay

    @State(Scope.Thread)
    public static class Alipay {
        Channel channel;
        AlipayAdapter adapter;
        String publicKeyBase64;
        byte[] body;
        byte[] signedBytes;
        byte[] signature;
        KeyPair pair;
        Signature rsa;

        @Setup
        public void setUp() throws Exception {
            pair = Fixtures.rsaPair();
            channel = Fixtures.alipayChannel(pair.getPublic());
            adapter = new AlipayAdapter();
            publicKeyBase64 = Base64.getEncoder().encodeToString(pair.getPublic().getEncoded());
            body = Fixtures.alipayPaid("BENCH20260102000001", "2026010222001400000000000001", "19.99",
                    pair.getPrivate());
            Map<String, String> params = servletForm(body);
            signedBytes = Fixtures.alipaySignedBytes(params);
            signature = Base64.getDecoder().decode(params.get("sign"));
            rsa = Signature.getInstance("SHA256withRSA");
            check(paynotifyAlipay(this).amountMinor() == 1999, "paynotify Alipay");
            check(sdkAlipay(this).amount == 1999, "alipay-sdk-java");
            check(rsaFloor(this), "Alipay floor");
        }
    }

    @Benchmark
    public Object alipayPaynotify(Alipay s) throws Exception {
        return paynotifyAlipay(s);
    }

    @Benchmark
    public Object alipaySdk(Alipay s) throws Exception {
        return sdkAlipay(s);
    }

    /** The crypto alone: one SHA256withRSA verify over the exact signed bytes with an already parsed key. */
    @Benchmark
    public boolean alipayFloor(Alipay s) throws Exception {
        return rsaFloor(s);
    }

    static boolean rsaFloor(Alipay s) throws Exception {
        s.rsa.initVerify(s.pair.getPublic());
        s.rsa.update(s.signedBytes);
        return s.rsa.verify(s.signature);
    }

    static VerifiedNotification paynotifyAlipay(Alipay s) throws Exception {
        return s.adapter.verify(s.channel, new RawNotify(s.channel.name(), Map.of(), s.body, Instant.EPOCH));
    }

    static Mapped sdkAlipay(Alipay s) throws Exception {
        // Alipay's demo: the servlet container decodes the form, the app copies it into a map and calls
        // rsaCheckV1 with the configured public key string, then reads the fields
        Map<String, String> params = servletForm(s.body);
        if (!AlipaySignature.rsaCheckV1(params, s.publicKeyBase64, "utf-8", "RSA2")) {
            throw new IllegalStateException("alipay-sdk-java refused the notice");
        }
        long fen = new BigDecimal(params.get("total_amount")).movePointRight(2).longValueExact();
        return new Mapped(params.get("out_trade_no"), params.get("trade_no"), (int) fen, params.get("trade_status"));
    }

    /** What a servlet container's getParameterMap does with a form body (URLDecoder, UTF-8). */
    static Map<String, String> servletForm(byte[] body) {
        String s = new String(body, StandardCharsets.ISO_8859_1);
        var out = new HashMap<String, String>();
        for (String part : s.split("&")) {
            int eq = part.indexOf('=');
            out.put(URLDecoder.decode(part.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    // ================================================================== WeChat Pay v3

    @State(Scope.Thread)
    public static class WechatV3 {
        Channel channel;
        /** paynotify's v3 adapter, loaded reflectively: null while it is not on the class path. */
        NotifyAdapter adapter;
        NotificationParser sdk;
        Fixtures.V3Notice notice;
        Map<String, List<String>> headers;
        KeyPair pair;
        Signature rsa;
        Cipher gcm;
        SecretKeySpec aesKey;
        byte[] signature;
        byte[] signedBytes;

        @Setup
        public void setUp() throws Exception {
            pair = Fixtures.rsaPair();
            channel = Fixtures.wechatV3Channel(pair.getPublic());
            // the SDK and the adapter refuse a timestamp older than 5 minutes: sign with the time of this trial
            notice = Fixtures.wechatV3Paid("BENCH20260102000001", "4200000000202601020000000001", 1999,
                    Instant.now().getEpochSecond(), pair.getPrivate());
            headers = notice.headers();
            sdk = new NotificationParser(new RSAPublicKeyNotificationConfig.Builder()
                    .publicKey(pair.getPublic())
                    .publicKeyId(Fixtures.WX3_SERIAL)
                    .apiV3Key(Fixtures.WX3_API_V3_KEY)
                    .build());
            rsa = Signature.getInstance("SHA256withRSA");
            gcm = Cipher.getInstance("AES/GCM/NoPadding");
            aesKey = new SecretKeySpec(Fixtures.WX3_API_V3_KEY.getBytes(StandardCharsets.UTF_8), "AES");
            signature = Base64.getDecoder().decode(notice.signature());
            signedBytes = notice.signedBytes();
            try {
                adapter = loadV3Adapter();
            } catch (ReflectiveOperationException | RuntimeException e) {
                adapter = null; // VerifyReport reports why and leaves v3Paynotify out
            }
            check(sdkV3(this).amount == 1999, "wechatpay-java");
            check(rsaAndGcmFloor(this).length > 0, "v3 floor");
            if (adapter != null) {
                check(paynotifyV3(this).amountMinor() == 1999, "paynotify v3");
            }
        }
    }

    /** Measured only when the v3 adapter exists; {@link VerifyReport} leaves it out (and says so) otherwise. */
    @Benchmark
    public Object v3Paynotify(WechatV3 s) throws Exception {
        if (s.adapter == null) {
            throw new IllegalStateException(V3_ADAPTER + " is not on the class path");
        }
        return paynotifyV3(s);
    }

    @Benchmark
    public Object v3Sdk(WechatV3 s) {
        return sdkV3(s);
    }

    /** The crypto alone: one SHA256withRSA verify of the signed message and one AES-256-GCM decryption. */
    @Benchmark
    public Object v3Floor(WechatV3 s) throws Exception {
        return rsaAndGcmFloor(s);
    }

    static byte[] rsaAndGcmFloor(WechatV3 s) throws Exception {
        s.rsa.initVerify(s.pair.getPublic());
        s.rsa.update(s.signedBytes);
        if (!s.rsa.verify(s.signature)) {
            throw new IllegalStateException("bad signature");
        }
        Fixtures.V3Notice n = s.notice;
        s.gcm.init(Cipher.DECRYPT_MODE, s.aesKey,
                new GCMParameterSpec(128, n.resourceNonce().getBytes(StandardCharsets.UTF_8)));
        s.gcm.updateAAD(n.associatedData().getBytes(StandardCharsets.UTF_8));
        return s.gcm.doFinal(n.ciphertextWithTag());
    }

    static VerifiedNotification paynotifyV3(WechatV3 s) throws Exception {
        return s.adapter.verify(s.channel, new RawNotify(s.channel.name(), s.headers, s.notice.body(), Instant.now()));
    }

    static Mapped sdkV3(WechatV3 s) {
        Fixtures.V3Notice n = s.notice;
        RequestParam p = new RequestParam.Builder()
                .serialNumber(n.serial())
                .nonce(n.nonce())
                .signature(n.signature())
                .timestamp(n.timestamp())
                .signType("WECHATPAY2-SHA256-RSA2048")
                .body(new String(n.body(), StandardCharsets.UTF_8))
                .build();
        Transaction t = s.sdk.parse(p, Transaction.class);
        return new Mapped(t.getOutTradeNo(), t.getTransactionId(), t.getAmount().getTotal(),
                t.getTradeState().name());
    }

    /**
     * Loads paynotify's v3 adapter if it is on the class path, through its first constructor whose parameters this
     * can fill: a {@link Clock} (the system clock) or anything with a public no-argument constructor (such as a
     * Jackson ObjectMapper). Null when the class is absent.
     */
    public static NotifyAdapter loadV3Adapter() throws ReflectiveOperationException {
        Class<?> type;
        try {
            type = Class.forName(V3_ADAPTER);
        } catch (ClassNotFoundException e) {
            return null;
        }
        var constructors = type.getDeclaredConstructors();
        java.util.Arrays.sort(constructors, java.util.Comparator.comparingInt(c -> c.getParameterCount()));
        ReflectiveOperationException last = null;
        for (var constructor : constructors) {
            try {
                Object[] args = new Object[constructor.getParameterCount()];
                Class<?>[] types = constructor.getParameterTypes();
                for (int i = 0; i < args.length; i++) {
                    args[i] = types[i] == Clock.class ? Clock.systemUTC() : types[i].getConstructor().newInstance();
                }
                constructor.setAccessible(true);
                return (NotifyAdapter) constructor.newInstance(args);
            } catch (ReflectiveOperationException e) {
                last = e;
            }
        }
        throw last != null ? last : new NoSuchMethodException(V3_ADAPTER + " has no usable constructor");
    }

    // ================================================================== shared

    /** The fields every contender ends with. */
    record Mapped(String outTradeNo, String transactionId, int amount, String status) {}

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what + " did not accept the benchmark notification");
        }
    }
}
