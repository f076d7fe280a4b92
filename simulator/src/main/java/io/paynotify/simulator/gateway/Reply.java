package io.paynotify.simulator.gateway;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An HTTP response to write. Header names are written exactly as given: WeChat Pay's SDK looks up
 * {@code Wechatpay-Timestamp} and its siblings case-sensitively, which the JDK's {@code com.sun.net.httpserver} cannot
 * honour (it sends {@code Wechatpay-timestamp}).
 */
record Reply(int status, List<Map.Entry<String, String>> headers, byte[] body) {

    static final String JSON = "application/json; charset=utf-8";

    Reply {
        headers = List.copyOf(headers);
    }

    static Reply of(int status, String contentType, String body) {
        return new Reply(
                status, List.of(Map.entry("Content-Type", contentType)), body.getBytes(StandardCharsets.UTF_8));
    }

    static Reply json(int status, String body) {
        return of(status, JSON, body);
    }

    static Reply text(int status, String body) {
        return of(status, "text/plain; charset=utf-8", body);
    }

    static Reply empty(int status) {
        return new Reply(status, List.of(), new byte[0]);
    }

    /**
     * The HTML page a provider's front proxy (nginx and relatives) answers when the service behind it fails: no
     * provider format, no signature.
     */
    static Reply proxyError500() {
        return of(
                500,
                "text/html; charset=utf-8",
                "<html>\r\n<head><title>500 Internal Server Error</title></head>\r\n<body>\r\n"
                        + "<center><h1>500 Internal Server Error</h1></center>\r\n</body>\r\n</html>\r\n");
    }

    Reply withHeader(String name, String value) {
        List<Map.Entry<String, String>> more = new ArrayList<>(headers);
        more.add(Map.entry(name, value));
        return new Reply(status, more, body);
    }

    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
