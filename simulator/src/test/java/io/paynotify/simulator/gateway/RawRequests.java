package io.paynotify.simulator.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Hand-built provider requests, signed (or not) independently of the gateway's code, sent with the JDK client: for
 * what the SDKs cannot do (a wrong signature, a stale timestamp, a missing header).
 */
final class RawRequests {

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String base;

    RawRequests(Gateway gateway) {
        this.base = gateway.baseUrl();
    }

    // ---- WeChat Pay v2

    /** An order query for {@code outTradeNo}; MD5 with no sign_type field when {@code signType} is null. */
    static Map<String, String> v2Query(String mchId, String appId, String outTradeNo, String signType, String key) {
        Map<String, String> fields = new TreeMap<>();
        fields.put("appid", appId);
        fields.put("mch_id", mchId);
        fields.put("out_trade_no", outTradeNo);
        fields.put("nonce_str", "5K8264ILTKCH16CQ2502SI8ZNMTM67VS");
        if (signType != null) {
            fields.put("sign_type", signType);
        }
        fields.put("sign", v2Sign(fields, signType, key));
        return fields;
    }

    /** WeChat's v2 sign, written here from the documentation rather than borrowed from the gateway. */
    static String v2Sign(Map<String, String> fields, String signType, String key) {
        String content = new TreeMap<>(fields)
                        .entrySet().stream()
                                .filter(e -> !e.getKey().equals("sign")
                                        && !e.getValue().isEmpty())
                                .map(e -> e.getKey() + "=" + e.getValue())
                                .collect(Collectors.joining("&"))
                + "&key=" + key;
        try {
            byte[] digest;
            if ("HMAC-SHA256".equals(signType)) {
                javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
                mac.init(new javax.crypto.spec.SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                digest = mac.doFinal(content.getBytes(StandardCharsets.UTF_8));
            } else {
                digest = MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> v2(Map<String, String> fields) {
        String xml = fields.entrySet().stream()
                .map(e -> "<" + e.getKey() + ">" + e.getValue() + "</" + e.getKey() + ">")
                .collect(Collectors.joining("", "<xml>", "</xml>"));
        return send(HttpRequest.newBuilder(URI.create(base + "/pay/orderquery"))
                .header("Content-Type", "text/xml")
                .POST(HttpRequest.BodyPublishers.ofString(xml))
                .build());
    }

    // ---- WeChat Pay v3

    /** A v3 order query as the contract sends it, signed with {@code merchantKey} at {@code timestamp}. */
    HttpRequest.Builder v3Query(
            String outTradeNo, String mchid, String serial, PrivateKey merchantKey, long timestamp) {
        String target = "/v3/pay/transactions/out-trade-no/" + outTradeNo + "?mchid=" + mchid;
        String nonce = "593BEC0C930BF1AFEB40B4A08C8FB242";
        String signature = rsaSign(merchantKey, "GET\n" + target + "\n" + timestamp + "\n" + nonce + "\n\n");
        String authorization = "WECHATPAY2-SHA256-RSA2048 mchid=\"" + mchid + "\",nonce_str=\"" + nonce
                + "\",signature=\"" + signature + "\",timestamp=\"" + timestamp + "\",serial_no=\"" + serial + "\"";
        return HttpRequest.newBuilder(URI.create(base + target))
                .header("Accept", "application/json")
                .header("User-Agent", "paynotify-simulator-test/1.0")
                .header("Authorization", authorization)
                .GET();
    }

    HttpRequest.Builder v3Query(String outTradeNo, String mchid, String serial, PrivateKey merchantKey) {
        return v3Query(outTradeNo, mchid, serial, merchantKey, Instant.now().getEpochSecond());
    }

    /** Whether a v3 answer's {@code Wechatpay-*} headers verify with {@code platformKey}. */
    static boolean v3AnswerVerifies(HttpResponse<String> response, PublicKey platformKey) {
        String timestamp = response.headers().firstValue("Wechatpay-Timestamp").orElse(null);
        String nonce = response.headers().firstValue("Wechatpay-Nonce").orElse(null);
        String signature = response.headers().firstValue("Wechatpay-Signature").orElse(null);
        if (timestamp == null || nonce == null || signature == null) {
            return false;
        }
        return rsaVerify(platformKey, timestamp + "\n" + nonce + "\n" + response.body() + "\n", signature);
    }

    // ---- Alipay

    /** An {@code alipay.trade.query} request's parameters, RSA2-signed over all but {@code sign}. */
    static Map<String, String> alipayQuery(String appId, String outTradeNo, PrivateKey appKey) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("app_id", appId);
        params.put("method", "alipay.trade.query");
        params.put("format", "JSON");
        params.put("charset", "utf-8");
        params.put("sign_type", "RSA2");
        params.put(
                "timestamp",
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
                        .withZone(ZoneOffset.ofHours(8))
                        .format(Instant.now()));
        params.put("version", "1.0");
        params.put("biz_content", "{\"out_trade_no\":\"" + outTradeNo + "\"}");
        params.put("sign", rsaSign(appKey, alipaySignContent(params)));
        return params;
    }

    static String alipaySignContent(Map<String, String> params) {
        return new TreeMap<>(params)
                .entrySet().stream()
                        .filter(e -> !e.getKey().equals("sign") && !e.getValue().isEmpty())
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining("&"));
    }

    /** All parameters in the form body, as the contract's client sends them. */
    HttpResponse<String> alipay(Map<String, String> params) {
        String form = params.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(base + "/gateway.do"))
                .header("Content-Type", "application/x-www-form-urlencoded;charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build());
    }

    // ---- plumbing

    HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    CompletableFuture<HttpResponse<String>> sendAsync(HttpRequest request) {
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10));
    }

    static String rsaSign(PrivateKey key, String message) {
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(key);
            s.update(message.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean rsaVerify(PublicKey key, String message, String signature) {
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initVerify(key);
            s.update(message.getBytes(StandardCharsets.UTF_8));
            return s.verify(Base64.getDecoder().decode(signature));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
