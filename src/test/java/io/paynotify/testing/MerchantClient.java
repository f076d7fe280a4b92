package io.paynotify.testing;

import io.paynotify.merchant.MerchantSignature;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Sends real signed HTTP requests to the merchant API of the running test application, with
 * {@link java.net.http.HttpClient} (which puts the raw path and query on the request line unchanged). Every part
 * of the signature can be tampered with separately: what is signed and what is sent.
 */
public final class MerchantClient {

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final String clientId;
    private final String secret;

    public MerchantClient(String clientId, String secret) {
        this.clientId = clientId;
        this.secret = secret;
    }

    /** merchant-a: channels wx-test, ali-test, wx3-test. */
    public static MerchantClient a() {
        return new MerchantClient(TestChannels.CLIENT_A, TestChannels.CLIENT_A_SECRET);
    }

    /** merchant-b: channels wx-hmac, ali-rsa. */
    public static MerchantClient b() {
        return new MerchantClient(TestChannels.CLIENT_B, TestChannels.CLIENT_B_SECRET);
    }

    public Answer create(String key, String json) {
        return request("POST", "/api/v1/orders").key(key).body(json).send();
    }

    public Answer get(String channel, String outTradeNo) {
        return request("GET", orderPath(channel, outTradeNo)).send();
    }

    public Answer close(String channel, String outTradeNo, String key) {
        return request("POST", orderPath(channel, outTradeNo) + "/close")
                .key(key)
                .send();
    }

    /** {@code /api/v1/orders/{channel}/{outTradeNo}} with {@code |} as {@code %7C}, as the contract asks. */
    public static String orderPath(String channel, String outTradeNo) {
        return "/api/v1/orders/" + channel + "/" + outTradeNo.replace("|", "%7C");
    }

    /** A create body. */
    public static String order(String channel, String outTradeNo, long amount) {
        return "{\"channel\":\"" + channel + "\",\"outTradeNo\":\"" + outTradeNo + "\",\"amount\":" + amount + "}";
    }

    public Request request(String method, String target) {
        return new Request(method, target);
    }

    /** One request; by default signed correctly, now, with this client's id and secret. */
    public final class Request {
        private final String method;
        private final String target;
        private byte[] body = new byte[0];
        private String key;
        private String timestamp = Long.toString(Instant.now().getEpochSecond());
        private String sendClientId = clientId;
        private String signSecret = secret;
        private String signedMethod;
        private String signedTarget;
        private byte[] signedBody;
        private String signedKey;
        private String signature;
        private final Map<String, List<String>> extra = new LinkedHashMap<>();
        private final Set<String> omitted = new HashSet<>();

        Request(String method, String target) {
            this.method = method;
            this.target = target;
        }

        public Request body(String json) {
            return body(json.getBytes(StandardCharsets.UTF_8));
        }

        public Request body(byte[] bytes) {
            this.body = bytes;
            return this;
        }

        public Request key(String key) {
            this.key = key;
            return this;
        }

        public Request timestamp(String timestamp) {
            this.timestamp = timestamp;
            return this;
        }

        /**
         * A timestamp at least {@code seconds} away from the server's clock when the server reads it. The server
         * compares whole seconds and reads its clock after ours, possibly in the next second: a past timestamp only
         * gets further away, a future one one second closer, so a future one gets that second added.
         */
        public Request skew(long seconds) {
            long now = Instant.now().getEpochSecond();
            return timestamp(Long.toString(now + seconds + (seconds > 0 ? 1 : 0)));
        }

        public Request clientId(String id) {
            this.sendClientId = id;
            return this;
        }

        public Request secret(String s) {
            this.signSecret = s;
            return this;
        }

        /** Sign these instead of what is sent. */
        public Request signedMethod(String m) {
            this.signedMethod = m;
            return this;
        }

        public Request signedTarget(String t) {
            this.signedTarget = t;
            return this;
        }

        public Request signedBody(String b) {
            this.signedBody = b.getBytes(StandardCharsets.UTF_8);
            return this;
        }

        public Request signedKey(String k) {
            this.signedKey = k;
            return this;
        }

        /** Send this X-Signature value instead of the computed one. */
        public Request signature(String s) {
            this.signature = s;
            return this;
        }

        /** Adds a header line (a second one for a name already sent repeats it). */
        public Request header(String name, String value) {
            extra.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            return this;
        }

        /** Leaves out one of X-Client-Id, X-Timestamp, X-Signature. */
        public Request omit(String name) {
            omitted.add(name);
            return this;
        }

        /** The X-Signature this request carries. */
        public String computedSignature() {
            if (signature != null) {
                return signature;
            }
            return MerchantSignature.sign(
                    signSecret.getBytes(StandardCharsets.UTF_8),
                    signedMethod != null ? signedMethod : method,
                    signedTarget != null ? signedTarget : target,
                    timestamp,
                    signedKey != null ? signedKey : key,
                    signedBody != null ? signedBody : body);
        }

        public HttpRequest build() {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + target))
                    .timeout(Duration.ofSeconds(20))
                    .method(
                            method,
                            body.length == 0
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofByteArray(body));
            if (!omitted.contains("X-Client-Id")) {
                b.header("X-Client-Id", sendClientId);
            }
            if (!omitted.contains("X-Timestamp")) {
                b.header("X-Timestamp", timestamp);
            }
            if (!omitted.contains("X-Signature")) {
                b.header("X-Signature", computedSignature());
            }
            if (key != null) {
                b.header("Idempotency-Key", key);
            }
            if (body.length > 0) {
                b.header("Content-Type", "application/json");
            }
            extra.forEach((name, values) -> values.forEach(v -> b.header(name, v)));
            return b.build();
        }

        /**
         * Sends the request over a plain socket, byte for byte: the target and header values as ISO-8859-1 bytes
         * (so malformed escapes and non-ASCII bytes reach the server as they are), one request per connection.
         */
        public Answer sendRaw() {
            return sendRaw(true);
        }

        /**
         * Sends only the head (with the body's Content-Length) and reads the answer: for a server that must answer
         * from the declared length alone.
         */
        public Answer sendHeadOnly() {
            return sendRaw(false);
        }

        private Answer sendRaw(boolean withBody) {
            var head = new StringBuilder();
            head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
            head.append("Host: localhost\r\n");
            if (!omitted.contains("X-Client-Id")) {
                head.append("X-Client-Id: ").append(sendClientId).append("\r\n");
            }
            if (!omitted.contains("X-Timestamp")) {
                head.append("X-Timestamp: ").append(timestamp).append("\r\n");
            }
            if (!omitted.contains("X-Signature")) {
                head.append("X-Signature: ").append(computedSignature()).append("\r\n");
            }
            if (key != null) {
                head.append("Idempotency-Key: ").append(key).append("\r\n");
            }
            extra.forEach((name, values) ->
                    values.forEach(v -> head.append(name).append(": ").append(v).append("\r\n")));
            head.append("Content-Length: ").append(body.length).append("\r\n");
            head.append("Connection: close\r\n\r\n");
            try (java.net.Socket socket = new java.net.Socket("localhost", io.restassured.RestAssured.port)) {
                socket.setSoTimeout(20_000);
                var out = socket.getOutputStream();
                out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                if (withBody) {
                    out.write(body);
                    out.flush();
                }
                byte[] all = socket.getInputStream().readAllBytes();
                return parse(all);
            } catch (IOException e) {
                throw new IllegalStateException("raw request failed: " + method + " " + target, e);
            }
        }

        public Answer send() {
            try {
                HttpResponse<byte[]> r = HTTP.send(build(), HttpResponse.BodyHandlers.ofByteArray());
                return new Answer(r.statusCode(), r.headers().map(), r.body());
            } catch (IOException e) {
                throw new IllegalStateException("request failed: " + method + " " + target, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static String base() {
        return "http://localhost:" + io.restassured.RestAssured.port;
    }

    /** Parses a complete HTTP/1.1 answer with a Content-Length (what the API always sends). */
    static Answer parse(byte[] all) {
        int end = -1;
        for (int i = 0; i + 3 < all.length; i++) {
            if (all[i] == '\r' && all[i + 1] == '\n' && all[i + 2] == '\r' && all[i + 3] == '\n') {
                end = i;
                break;
            }
        }
        if (end < 0) {
            throw new IllegalStateException("no complete answer");
        }
        String[] lines = new String(all, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        var headers = new LinkedHashMap<String, List<String>>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(), n -> new ArrayList<>())
                    .add(lines[i].substring(colon + 1).trim());
        }
        byte[] body = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        List<String> length = headers.get("content-length");
        if (length != null) {
            body = java.util.Arrays.copyOf(body, Integer.parseInt(length.get(0)));
        }
        return new Answer(status, headers, body);
    }

    /** One answer: status, headers, exact body bytes. */
    public record Answer(int status, Map<String, List<String>> headers, byte[] body) {

        public Optional<String> header(String name) {
            for (var e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().isEmpty()
                            ? Optional.empty()
                            : Optional.of(e.getValue().get(0));
                }
            }
            return Optional.empty();
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public JsonPath json() {
            return new JsonPath(text());
        }

        @Override
        public String toString() {
            return status + " " + text();
        }
    }
}
