package io.paynotify.provider.wechatv2;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A raw HTTP/1.1 exchange over a socket, for bodies a client library would not send: a body larger than the
 * server reads, with a Content-Length or chunked. The writer runs in its own thread and ignores a reset, because
 * the server answers and closes without reading the rest. Public for the notify tests of the other providers.
 */
public final class RawHttp {

    /** Status line code and body of the answer. */
    public record Answer(int status, String headers, String body) {}

    private RawHttp() {}

    public static Answer post(int port, String path, byte[] body, boolean chunked) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            String head = "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml\r\n"
                    + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n") + "\r\n";
            Thread writer = new Thread(
                    () -> {
                        try {
                            out.write(head.getBytes(StandardCharsets.US_ASCII));
                            int chunk = 4096;
                            for (int off = 0; off < body.length; off += chunk) {
                                int n = Math.min(chunk, body.length - off);
                                if (chunked) {
                                    out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                                }
                                out.write(body, off, n);
                                if (chunked) {
                                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                                }
                                out.flush();
                            }
                            if (chunked) {
                                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                            }
                            out.flush();
                        } catch (IOException e) {
                            // the server answered and closed without reading everything: expected for refused bodies
                        }
                    },
                    "raw-http-writer");
            writer.setDaemon(true);
            writer.start();
            InputStream in = s.getInputStream();
            var buf = new ByteArrayOutputStream();
            byte[] b = new byte[4096];
            int n;
            String text;
            while (true) {
                try {
                    n = in.read(b);
                } catch (IOException e) {
                    break;
                }
                if (n < 0) {
                    break;
                }
                buf.write(b, 0, n);
                text = buf.toString(StandardCharsets.UTF_8);
                int end = text.indexOf("\r\n\r\n");
                if (end >= 0) {
                    int cl = contentLength(text.substring(0, end));
                    if (cl >= 0 && buf.size() >= end + 4 + cl) {
                        break;
                    }
                }
            }
            text = buf.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            if (end < 0) {
                throw new IOException("no answer: " + text);
            }
            String headers = text.substring(0, end);
            int status = Integer.parseInt(headers.substring(9, 12));
            return new Answer(status, headers, text.substring(end + 4));
        }
    }

    private static int contentLength(String headers) {
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                return Integer.parseInt(line.substring(15).trim());
            }
        }
        return -1;
    }
}
