package io.paynotify.simulator.demo;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.paynotify.simulator.trigger.DevKeys;
import io.paynotify.simulator.trigger.DevProfile;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Just enough of paynotify for the demo's six steps: orders, a "query" that finds an order paid as soon as the
 * fake gateway scripted it, notifications recorded APPLIED or DUPLICATE, the admin reads, and a signed order.paid
 * webhook to the demo's receiver, a notice of another sub-merchant than the order's refused (422, ACCOUNT_MISMATCH
 * in its attention), and the statements of step 7: a fetch lists the scripted orders of the channel paid by query
 * and the bill extras the test's gateway was given, each extra without an order an OPEN UNKNOWN_ORDER, which the
 * resolve call resolves. Checks no signatures but the certificate-mode channel's (the demo's foreign-root notice): the
 * other tests do that.
 */
final class FakePaynotify implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final Set<String> scripted;
    private final int webhookPort;
    private final Map<String, ObjectNode> orders = new ConcurrentHashMap<>();
    private final Map<String, ArrayNode> notifications = new ConcurrentHashMap<>();
    private final Map<String, String> bills;
    private final Map<String, ArrayNode> differences = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> statements = new ConcurrentHashMap<>();
    private long nextDifference = 1;

    /** {@code bills}: the bill scripts the gateway received, by {@code api/day}. */
    FakePaynotify(Set<String> scripted, Map<String, String> bills, int webhookPort) throws IOException {
        this.scripted = scripted;
        this.bills = bills;
        this.webhookPort = webhookPort;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.createContext("/", this::handle);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private synchronized void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getRawPath();
            byte[] body = ex.getRequestBody().readAllBytes();
            String[] parts = path.split("/");
            if (path.equals("/api/v1/orders")) {
                JsonNode req = JSON.readTree(body);
                ObjectNode o = JSON.createObjectNode();
                o.put("channel", req.path("channel").asText());
                o.put("outTradeNo", req.path("outTradeNo").asText());
                o.put("amount", req.path("amount").asLong());
                o.put("state", "PENDING");
                o.put("queryCount", 0);
                if (req.hasNonNull("subMerchantId")) {
                    o.put("subMerchantId", req.path("subMerchantId").asText());
                }
                o.putArray("attention");
                orders.put(key(o.path("channel").asText(), o.path("outTradeNo").asText()), o);
                notifications.put(
                        key(o.path("channel").asText(), o.path("outTradeNo").asText()), JSON.createArrayNode());
                reply(ex, 201, "application/json", o.toString());
            } else if (path.startsWith("/api/v1/orders/")) {
                ObjectNode o = orders.get(key(parts[4], decode(parts[5])));
                if (o.path("state").asText().equals("PENDING") && scripted.contains(decode(parts[5]))) {
                    o.put("queryCount", 1);
                    o.put("lastQueriedAt", Instant.now().toString());
                    pay(o, "TX-" + o.path("outTradeNo").asText(), "QUERY");
                }
                reply(ex, 200, "application/json", o.toString());
            } else if (path.startsWith("/notify/")) {
                notify(ex, parts[2], parts[3], new String(body, StandardCharsets.UTF_8));
            } else if (path.startsWith("/admin/orders/") && parts.length == 5) {
                reply(
                        ex,
                        200,
                        "application/json",
                        orders.get(key(parts[3], decode(parts[4]))).toString());
            } else if (path.startsWith("/admin/orders/") && parts.length == 6) {
                ObjectNode list = JSON.createObjectNode();
                list.set("items", notifications.get(key(parts[3], decode(parts[4]))));
                list.putNull("next");
                reply(ex, 200, "application/json", list.toString());
            } else if (path.startsWith("/admin/statements/") && parts.length == 6 && parts[5].equals("fetch")) {
                reply(ex, 200, "application/json", fetch(parts[3], parts[4]).toString());
            } else if (path.startsWith("/admin/statements/") && parts.length == 5) {
                ObjectNode st = statements.get(key(parts[3], parts[4]));
                if (st == null) {
                    reply(ex, 404, "application/json", "{}");
                } else {
                    reply(ex, 200, "application/json", withDifferences(st).toString());
                }
            } else if (path.startsWith("/admin/statement-differences/") && path.endsWith("/resolve")) {
                String note = JSON.readTree(body).path("note").asText();
                for (ArrayNode list : differences.values()) {
                    for (JsonNode d : list) {
                        if (d.path("id").asText().equals(parts[3])) {
                            ((ObjectNode) d).put("status", "RESOLVED").put("note", note);
                            reply(ex, 200, "application/json", d.toString());
                            return;
                        }
                    }
                }
                reply(ex, 404, "application/json", "{}");
            } else {
                reply(ex, 404, "text/plain", "");
            }
        }
    }

    /** A day's statement: the channel's orders paid by query, plus the scripted extras of its provider's bill. */
    private ObjectNode fetch(String channel, String day) throws IOException {
        long count = 0;
        long amount = 0;
        for (ObjectNode o : orders.values()) {
            if (o.path("channel").asText().equals(channel)
                    && scripted.contains(o.path("outTradeNo").asText())
                    && o.path("state").asText().equals("SUCCESS")) {
                count++;
                amount += o.path("amount").asLong();
            }
        }
        ArrayNode diffs = differences.computeIfAbsent(key(channel, day), k -> JSON.createArrayNode());
        String api = DevProfile.table().channel(channel).orElseThrow().provider().name();
        String script = bills.get(api + "/" + day);
        if (script != null) {
            for (JsonNode extra : JSON.readTree(script).path("extraPayments")) {
                count++;
                amount += extra.path("amount").asLong();
                if (!orders.containsKey(key(channel, extra.path("outTradeNo").asText()))) {
                    ObjectNode d = diffs.addObject();
                    d.put("id", nextDifference++);
                    d.put("channel", channel);
                    d.put("billDate", day);
                    d.put("kind", "UNKNOWN_ORDER");
                    d.put("outTradeNo", extra.path("outTradeNo").asText());
                    d.put("billAmount", extra.path("amount").asLong());
                    d.putNull("localAmount");
                    d.put("transactionId", "4200TEST");
                    d.put("status", "OPEN");
                }
            }
        }
        ObjectNode st = JSON.createObjectNode();
        st.put("channel", channel);
        st.put("billDate", day);
        st.put("source", "FETCH");
        st.putObject("payments").put("count", count).put("amount", amount);
        st.putObject("refunds").put("count", 0).put("amount", 0);
        st.putObject("foreign").put("count", 0).put("amount", 0);
        st.put("fees", "0.00000");
        statements.put(key(channel, day), st);
        return live(st);
    }

    /** The status and open count derived from the day's differences, as paynotify derives them. */
    private ObjectNode live(ObjectNode st) {
        long open = 0;
        for (JsonNode d : differences.getOrDefault(key(st.path("channel").asText(), st.path("billDate").asText()),
                JSON.createArrayNode())) {
            open += d.path("status").asText().equals("OPEN") ? 1 : 0;
        }
        st.put("status", open > 0 ? "DIFFERENCES" : "RECONCILED");
        st.put("openDifferences", open);
        return st;
    }

    private ObjectNode withDifferences(ObjectNode st) {
        ObjectNode copy = live(st).deepCopy();
        copy.set("differences", differences.get(key(st.path("channel").asText(), st.path("billDate").asText())));
        return copy;
    }

    private void notify(HttpExchange ex, String endpoint, String channel, String body) throws IOException {
        String no;
        String sub;
        switch (endpoint) {
            case "wechatpay" -> {
                no = between(body, "<out_trade_no><![CDATA[", "]]>");
                sub = body.contains("<sub_mch_id>") ? between(body, "<sub_mch_id><![CDATA[", "]]>") : null;
            }
            case "alipay" -> {
                Map<String, String> f = form(body);
                if (channel.equals("ali-cert-dev") && !alipaySigned(f)) {
                    reply(ex, 401, "text/plain", "fail");
                    return;
                }
                no = f.get("out_trade_no");
                sub = f.get("auth_app_id");
            }
            default -> {
                JsonNode resource = v3Resource(channel, body);
                no = resource.path("out_trade_no").asText();
                sub = resource.path("sub_mchid").asText(null);
            }
        }
        ObjectNode o = orders.get(key(channel, no));
        String expected = o.path("subMerchantId").asText(null);
        if (expected != null && !expected.equals(sub)) {
            record(o, "NOTIFY", "ANOMALY");
            ((ArrayNode) o.path("attention")).add("ACCOUNT_MISMATCH");
            switch (endpoint) {
                case "wechatpay" ->
                    reply(
                            ex,
                            422,
                            "application/xml",
                            "<xml><return_code><![CDATA[FAIL]]></return_code>"
                                    + "<return_msg><![CDATA[refused]]></return_msg></xml>");
                case "alipay" -> reply(ex, 422, "text/plain", "fail");
                default -> reply(ex, 422, "application/json", "{\"code\":\"FAIL\",\"message\":\"refused\"}");
            }
            return;
        }
        if (o.path("state").asText().equals("PENDING")) {
            pay(o, "TX-NOTIFY", "NOTIFY");
        } else {
            record(o, "NOTIFY", "DUPLICATE");
        }
        switch (endpoint) {
            case "wechatpay" ->
                reply(
                        ex,
                        200,
                        "application/xml",
                        "<xml><return_code><![CDATA[SUCCESS]]></return_code>"
                                + "<return_msg><![CDATA[OK]]></return_msg></xml>");
            case "alipay" -> reply(ex, 200, "text/plain", "success");
            default -> reply(ex, 204, null, "");
        }
    }

    /** The decrypted resource of a v3 notice, with the channel's API v3 key from the dev table. */
    private static JsonNode v3Resource(String channel, String body) throws IOException {
        JsonNode r = JSON.readTree(body).path("resource");
        String key = DevProfile.table().channel(channel).orElseThrow().apiV3Key();
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(
                    Cipher.DECRYPT_MODE,
                    new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "AES"),
                    new GCMParameterSpec(128, r.path("nonce").asText().getBytes(StandardCharsets.UTF_8)));
            c.updateAAD(r.path("associated_data").asText("").getBytes(StandardCharsets.UTF_8));
            return JSON.readTree(c.doFinal(Base64.getDecoder().decode(r.path("ciphertext").asText())));
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    /** Alipay's signature with the key of the certificate-mode dev channel's Alipay certificate. */
    private static boolean alipaySigned(Map<String, String> form) {
        try {
            String key = DevKeys.pem("alipay-cert-dev-public.pem")
                    .replaceAll("-----(BEGIN|END) [A-Z ]+-----", "")
                    .replaceAll("\\s", "");
            return AlipaySignature.rsaCheckV1(new HashMap<>(form), key, "utf-8", "RSA2");
        } catch (AlipayApiException e) {
            return false;
        }
    }

    private void pay(ObjectNode o, String txn, String source) {
        o.put("state", "SUCCESS");
        o.put("transactionId", txn);
        record(o, source, "APPLIED");
        String id = "evt_" + Integer.toHexString(o.path("outTradeNo").asText().hashCode());
        webhook(id, "{\"id\":\"" + id + "\",\"type\":\"order.paid\",\"data\":{\"order\":" + o + "}}");
    }

    private void record(ObjectNode o, String source, String outcome) {
        ObjectNode n = notifications
                .get(key(o.path("channel").asText(), o.path("outTradeNo").asText()))
                .addObject();
        n.put("source", source);
        n.put("outcome", outcome);
        n.put("providerStatus", "SUCCESS");
        n.put("receivedAt", Instant.now().toString());
    }

    /** Delivers a signed event to the demo's receiver, as paynotify's worker would (synchronously, for the test). */
    private void webhook(String id, String body) {
        try {
            String ts = Long.toString(Instant.now().getEpochSecond());
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(
                    Base64.getDecoder().decode(DevProfile.WEBHOOK_SECRET.substring("whsec_".length())), "HmacSHA256"));
            String sig = Base64.getEncoder()
                    .encodeToString(mac.doFinal((id + "." + ts + "." + body).getBytes(StandardCharsets.UTF_8)));
            http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webhookPort + "/webhooks"))
                            .header("webhook-id", id)
                            .header("webhook-timestamp", ts)
                            .header("webhook-signature", "v1," + sig)
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (IOException | InterruptedException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void reply(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (type != null) {
            ex.getResponseHeaders().set("Content-Type", type);
        }
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            ex.getResponseBody().write(bytes);
        }
    }

    private static Map<String, String> form(String body) {
        Map<String, String> m = new HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            m.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return m;
    }

    private static String between(String s, String from, String to) {
        int i = s.indexOf(from) + from.length();
        return s.substring(i, s.indexOf(to, i));
    }

    private static String decode(String segment) {
        return URLDecoder.decode(segment, StandardCharsets.UTF_8);
    }

    private static String key(String channel, String no) {
        return channel + "/" + no;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
