package io.paynotify.deploy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sends correctly signed WeChat Pay v2 payment notifications to a running paynotify, for the resident-memory
 * measurement of {@code dev/measure-rss.sh}. JDK only, so it runs as a single source file:
 *
 * <pre>java src/test/java/io/paynotify/deploy/NotifyLoad.java URL CHANNEL APPID MCHID APIKEY PREFIX COUNT THREADS</pre>
 *
 * <p>Notification {@code i} pays order {@code PREFIX + i} with 100 fen; the script registers those orders first.
 * Bounded: exactly COUNT requests to the given loopback URL, then it stops. Prints the status codes it saw.
 */
public final class NotifyLoad {

    private NotifyLoad() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 8) {
            System.err.println("usage: NotifyLoad URL CHANNEL APPID MCHID APIKEY PREFIX COUNT THREADS");
            System.exit(2);
        }
        String url = args[0];
        String channel = args[1];
        String appId = args[2];
        String mchId = args[3];
        String apiKey = args[4];
        String prefix = args[5];
        int count = Integer.parseInt(args[6]);
        int threads = Integer.parseInt(args[7]);
        if (!URI.create(url).getHost().matches("127\\.0\\.0\\.1|localhost")) {
            throw new IllegalArgumentException("load goes to this machine only");
        }
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        var statuses = new ConcurrentHashMap<Integer, LongAdder>();
        var next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < count) {
                    byte[] body = body(appId, mchId, apiKey, prefix + i, i);
                    HttpRequest req = HttpRequest.newBuilder(URI.create(url + "/notify/wechatpay/" + channel))
                            .timeout(Duration.ofSeconds(5))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                            .build();
                    int status;
                    try {
                        status = http.send(req, HttpResponse.BodyHandlers.discarding())
                                .statusCode();
                    } catch (Exception e) {
                        status = -1;
                    }
                    statuses.computeIfAbsent(status, k -> new LongAdder()).increment();
                }
                return null;
            });
        }
        pool.shutdown();
        if (!pool.awaitTermination(30, TimeUnit.MINUTES)) {
            pool.shutdownNow();
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        var summary = new TreeMap<Integer, Long>();
        statuses.forEach((k, v) -> summary.put(k, v.sum()));
        System.out.println("sent=" + count + " ms=" + ms + " statuses=" + summary);
    }

    static byte[] body(String appId, String mchId, String apiKey, String outTradeNo, int i) {
        var f = new TreeMap<String, String>(Map.of(
                "appid",
                appId,
                "mch_id",
                mchId,
                "nonce_str",
                Integer.toHexString(i * 31 + 7),
                "out_trade_no",
                outTradeNo,
                "result_code",
                "SUCCESS",
                "return_code",
                "SUCCESS",
                "time_end",
                "20260102110405",
                "total_fee",
                "100",
                "fee_type",
                "CNY",
                "transaction_id",
                "42000" + String.format("%015d", i)));
        var content = new StringBuilder();
        f.forEach((k, v) -> content.append(k).append('=').append(v).append('&'));
        content.append("key=").append(apiKey);
        String sign;
        try {
            sign = HexFormat.of()
                    .withUpperCase()
                    .formatHex(MessageDigest.getInstance("MD5")
                            .digest(content.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        var xml = new StringBuilder("<xml>");
        f.forEach((k, v) -> xml.append('<')
                .append(k)
                .append("><![CDATA[")
                .append(v)
                .append("]]></")
                .append(k)
                .append('>'));
        xml.append("<sign>").append(sign).append("</sign></xml>");
        return xml.toString().getBytes(StandardCharsets.UTF_8);
    }
}
