package io.paynotify.simulator.trigger;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Posts notices to paynotify as a provider's servers would, and reads the answer. */
public final class NotifySender {

    /** Providers give up on an answer after about 5 s (WeChat Pay's documented retry schedule); the simulator waits a bit longer. */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http;
    private final URI service;

    public NotifySender(HttpClient http, URI service) {
        this.http = http;
        this.service = service;
    }

    /** An HTTP/1.1 client with a 5 s connect timeout and no redirects, as providers use. */
    public static HttpClient newHttpClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    public URI service() {
        return service;
    }

    /** Sends one notice; a transport failure is an {@link Answer} with status 0, never an exception. */
    public Answer send(Notice notice) {
        HttpRequest.Builder b = HttpRequest.newBuilder(service.resolve(notice.path()))
                .timeout(TIMEOUT)
                .header("Content-Type", notice.contentType())
                .header("User-Agent", "paynotify-simulator")
                .POST(HttpRequest.BodyPublishers.ofByteArray(notice.body()));
        notice.headers().forEach(b::header);
        try {
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return Answer.of(
                    r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(""),
                    new String(r.body(), StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            return Answer.failed("no answer within " + TIMEOUT.toSeconds() + " s");
        } catch (ConnectException e) {
            return Answer.failed("connection refused: is paynotify running at " + service + "?");
        } catch (IOException e) {
            return Answer.failed(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.failed("interrupted");
        }
    }
}
