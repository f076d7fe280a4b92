/*
 * paynotify dev demo: registers one order per dev channel through the merchant API, then sends each a correctly
 * signed payment notification, as WeChat Pay (v2 and v3) and Alipay would, and prints the orders afterwards. It also
 * plays the merchant's webhook endpoint (127.0.0.1:8089, the dev profile's webhook-url of dev-shop): every
 * order.paid event that paynotify delivers there is verified (Standard Webhooks signature) and printed.
 *
 * Run it while `mvn quarkus:dev` is up, from the repository root:
 *
 *     java dev/Demo.java                  # against http://localhost:8080
 *     java dev/Demo.java http://host:port
 *
 * It needs only the JDK. The keys in dev/keys are dev-only test keys matching the %dev channels of
 * application.properties; never configure them anywhere else.
 */

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

public class Demo {

    static final String CLIENT = "dev-shop";
    static final String CLIENT_SECRET = "dev-shop-secret-0123456789abcdefgh";
    static final String ADMIN_TOKEN = "dev-admin-token-0123456789abcdefghijkl";
    static final String WX_KEY = "devdevdevdevdevdevdevdevdevdev32";
    static final String V3_KEY = "devV3devV3devV3devV3devV3devV332";
    static final String V3_SERIAL = "PUB_KEY_ID_0000000000000000000000000000DEV1";

    /** The dev profile's webhook secret of dev-shop (application.properties); dev only. */
    static final String WEBHOOK_SECRET = "whsec_ZGV2LXdlYmhvb2stc2VjcmV0LWZvci10aGUtZGVtbw==";

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static String base;
    static final java.util.concurrent.CountDownLatch DELIVERED = new java.util.concurrent.CountDownLatch(3);

    public static void main(String[] args) throws Exception {
        base = args.length > 0 ? args[0] : "http://localhost:8080";
        var receiver = webhookReceiver();
        String suffix = Long.toString(System.currentTimeMillis(), 36).toUpperCase();

        String wxNo = "DEMO-WX-" + suffix;
        String aliNo = "DEMO-ALI-" + suffix;
        String v3No = "DEMO-V3-" + suffix;
        register("wx-dev", wxNo, 100);
        register("ali-dev", aliNo, 4200);
        register("wx3-dev", v3No, 250);

        byte[] v2 = wechatV2(wxNo, 100);
        show("WeChat Pay v2 notification", post("/notify/wechatpay/wx-dev", v2, Map.of()));
        // providers deliver at least once: the same notice again is acknowledged and recorded as DUPLICATE
        show("the same WeChat Pay v2 notification again", post("/notify/wechatpay/wx-dev", v2, Map.of()));
        show("Alipay notification", post("/notify/alipay/ali-dev", alipay(aliNo, "42.00"), Map.of()));
        var v3 = wechatV3(v3No, 250);
        show("WeChat Pay v3 notification", post("/notify/wechatpay-v3/wx3-dev", v3.body(), v3.headers()));

        for (String[] o : new String[][] {{"wx-dev", wxNo}, {"ali-dev", aliNo}, {"wx3-dev", v3No}}) {
            show("order " + o[0] + "/" + o[1], api("GET", "/api/v1/orders/" + o[0] + "/" + o[1], "", null));
        }
        System.out.println("\nThe notifications as stored (admin API):");
        var req = HttpRequest.newBuilder(URI.create(base + "/admin/notifications?limit=4"))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).GET().build();
        show("admin notifications", HTTP.send(req, HttpResponse.BodyHandlers.ofString()));

        System.out.println("\nWaiting for the three order.paid webhook deliveries (at most 10 s)...");
        boolean all = DELIVERED.await(10, java.util.concurrent.TimeUnit.SECONDS);
        System.out.println(all ? "All three arrived, signed." : "Not all arrived: see GET /admin/events.");
        receiver.stop(0);
    }

    // ---- the merchant's webhook endpoint: Standard Webhooks v1 (webhook-id, webhook-timestamp, webhook-signature)

    static com.sun.net.httpserver.HttpServer webhookReceiver() throws Exception {
        var server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 8089), 10);
        server.createContext("/webhooks", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            String id = ex.getRequestHeaders().getFirst("webhook-id");
            String ts = ex.getRequestHeaders().getFirst("webhook-timestamp");
            String signatures = ex.getRequestHeaders().getFirst("webhook-signature");
            boolean valid = false;
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                byte[] key = Base64.getDecoder().decode(WEBHOOK_SECRET.substring("whsec_".length()));
                mac.init(new SecretKeySpec(key, "HmacSHA256"));
                mac.update((id + "." + ts + ".").getBytes(StandardCharsets.UTF_8));
                String expected = "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
                for (String s : signatures.split(" ")) {
                    valid |= MessageDigest.isEqual(s.getBytes(StandardCharsets.US_ASCII),
                            expected.getBytes(StandardCharsets.US_ASCII));
                }
            } catch (Exception e) {
                valid = false;
            }
            System.out.println("\n== webhook delivery " + id + ", signature " + (valid ? "valid" : "INVALID") + ":");
            System.out.println(new String(body, StandardCharsets.UTF_8));
            ex.sendResponseHeaders(valid ? 204 : 400, -1);
            ex.close();
            if (valid && new String(body, StandardCharsets.UTF_8).contains("\"order.paid\"")) {
                DELIVERED.countDown();
            }
        });
        server.start();
        return server;
    }

    // ---- merchant API: X-Signature = hex HMAC-SHA256(secret, METHOD\nTARGET\nTIMESTAMP\nIDEMPOTENCY_KEY\nBODY)

    static void register(String channel, String outTradeNo, long amount) throws Exception {
        String body = "{\"channel\":\"" + channel + "\",\"outTradeNo\":\"" + outTradeNo + "\",\"amount\":" + amount
                + ",\"currency\":\"CNY\",\"description\":\"dev demo\"}";
        show("register " + channel + "/" + outTradeNo, api("POST", "/api/v1/orders", body, UUID.randomUUID().toString()));
    }

    static HttpResponse<String> api(String method, String target, String body, String idempotencyKey)
            throws Exception {
        String ts = Long.toString(Instant.now().getEpochSecond());
        String key = idempotencyKey == null ? "" : idempotencyKey;
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(CLIENT_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String sig = HexFormat.of().formatHex(mac.doFinal(
                (method + "\n" + target + "\n" + ts + "\n" + key + "\n" + body).getBytes(StandardCharsets.UTF_8)));
        var b = HttpRequest.newBuilder(URI.create(base + target))
                .header("X-Client-Id", CLIENT).header("X-Timestamp", ts).header("X-Signature", sig)
                .header("Content-Type", "application/json")
                .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            b.header("Idempotency-Key", idempotencyKey);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    // ---- WeChat Pay v2: MD5 over the sorted non-empty fields + "&key=" + API key, uppercase hex

    static byte[] wechatV2(String outTradeNo, long fen) throws Exception {
        var f = new TreeMap<String, String>();
        f.put("appid", "wxdevapp000000001");
        f.put("mch_id", "1900000001");
        f.put("nonce_str", UUID.randomUUID().toString().replace("-", ""));
        f.put("result_code", "SUCCESS");
        f.put("return_code", "SUCCESS");
        f.put("out_trade_no", outTradeNo);
        f.put("transaction_id", "4200" + System.nanoTime());
        f.put("total_fee", Long.toString(fen));
        f.put("fee_type", "CNY");
        f.put("time_end", "20260102110405");
        f.put("trade_type", "NATIVE");
        var sb = new StringBuilder();
        f.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "&").append(k).append('=').append(v));
        sb.append("&key=").append(WX_KEY);
        String sign = HexFormat.of().withUpperCase()
                .formatHex(MessageDigest.getInstance("MD5").digest(sb.toString().getBytes(StandardCharsets.UTF_8)));
        var xml = new StringBuilder("<xml>");
        f.forEach((k, v) -> xml.append('<').append(k).append("><![CDATA[").append(v).append("]]></").append(k).append('>'));
        xml.append("<sign>").append(sign).append("</sign></xml>");
        return xml.toString().getBytes(StandardCharsets.UTF_8);
    }

    // ---- Alipay: RSA2 over the sorted decoded parameters without sign and sign_type

    static byte[] alipay(String outTradeNo, String yuan) throws Exception {
        var p = new TreeMap<String, String>();
        p.put("app_id", "2021000000000001");
        p.put("charset", "utf-8");
        p.put("notify_id", "dev" + System.nanoTime());
        p.put("notify_time", "2026-01-02 11:04:06");
        p.put("notify_type", "trade_status_sync");
        p.put("out_trade_no", outTradeNo);
        p.put("trade_no", "2026" + System.nanoTime());
        p.put("trade_status", "TRADE_SUCCESS");
        p.put("total_amount", yuan);
        p.put("gmt_payment", "2026-01-02 11:04:05");
        p.put("subject", "开发演示 dev demo");
        p.put("version", "1.0");
        var content = new StringBuilder();
        p.forEach((k, v) -> content.append(content.length() == 0 ? "" : "&").append(k).append('=').append(v));
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initSign(privateKey("dev/keys/alipay-dev-private.pem"));
        s.update(content.toString().getBytes(StandardCharsets.UTF_8));
        p.put("sign_type", "RSA2");
        p.put("sign", Base64.getEncoder().encodeToString(s.sign()));
        var form = new StringBuilder();
        p.forEach((k, v) -> form.append(form.length() == 0 ? "" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return form.toString().getBytes(StandardCharsets.US_ASCII);
    }

    // ---- WeChat Pay v3: AES-256-GCM resource, SHA256withRSA over "timestamp\nnonce\nbody\n"

    record V3(byte[] body, Map<String, String> headers) {}

    static V3 wechatV3(String outTradeNo, long fen) throws Exception {
        String resource = "{\"mchid\":\"1900000003\",\"appid\":\"wxdevapp000000003\",\"out_trade_no\":\"" + outTradeNo
                + "\",\"transaction_id\":\"4200" + System.nanoTime() + "\",\"trade_type\":\"NATIVE\","
                + "\"trade_state\":\"SUCCESS\",\"trade_state_desc\":\"支付成功\",\"bank_type\":\"OTHERS\","
                + "\"success_time\":\"2026-01-02T11:04:05+08:00\",\"payer\":{\"openid\":\"dev-openid\"},"
                + "\"amount\":{\"total\":" + fen + ",\"payer_total\":" + fen + ",\"currency\":\"CNY\","
                + "\"payer_currency\":\"CNY\"}}";
        String nonce = UUID.randomUUID().toString().substring(0, 12);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(V3_KEY.getBytes(StandardCharsets.UTF_8), "AES"),
                new GCMParameterSpec(128, nonce.getBytes(StandardCharsets.UTF_8)));
        c.updateAAD("transaction".getBytes(StandardCharsets.UTF_8));
        String ciphertext = Base64.getEncoder().encodeToString(c.doFinal(resource.getBytes(StandardCharsets.UTF_8)));
        String body = "{\"id\":\"" + UUID.randomUUID() + "\",\"create_time\":\"2026-01-02T11:04:06+08:00\","
                + "\"resource_type\":\"encrypt-resource\",\"event_type\":\"TRANSACTION.SUCCESS\","
                + "\"summary\":\"支付成功\",\"resource\":{\"original_type\":\"transaction\",\"algorithm\":"
                + "\"AEAD_AES_256_GCM\",\"ciphertext\":\"" + ciphertext + "\",\"associated_data\":\"transaction\","
                + "\"nonce\":\"" + nonce + "\"}}";
        String ts = Long.toString(Instant.now().getEpochSecond());
        String headerNonce = UUID.randomUUID().toString().replace("-", "");
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initSign(privateKey("dev/keys/wechatpay-v3-dev-platform-private.pem"));
        s.update((ts + "\n" + headerNonce + "\n" + body + "\n").getBytes(StandardCharsets.UTF_8));
        return new V3(body.getBytes(StandardCharsets.UTF_8), Map.of(
                "Wechatpay-Timestamp", ts,
                "Wechatpay-Nonce", headerNonce,
                "Wechatpay-Serial", V3_SERIAL,
                "Wechatpay-Signature", Base64.getEncoder().encodeToString(s.sign()),
                "Wechatpay-Signature-Type", "WECHATPAY2-SHA256-RSA2048"));
    }

    // ---- helpers

    static PrivateKey privateKey(String path) throws Exception {
        String pem = Files.readString(Path.of(path)).replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "")
                .replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
    }

    static HttpResponse<String> post(String path, byte[] body, Map<String, String> headers) throws Exception {
        var b = HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void show(String what, HttpResponse<String> r) {
        System.out.println("\n== " + what + " -> HTTP " + r.statusCode());
        if (!r.body().isEmpty()) {
            System.out.println(r.body());
        }
    }
}
