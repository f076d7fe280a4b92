package io.paynotify.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SafeXml on its own: the flat WeChat shape is read; DTDs, entities, XInclude and malformations are refused. */
@Tag("unit")
public class SafeXmlTest {

    /** A local TCP listener that counts connections: an XML parser that fetches anything shows up here. */
    public static final class Listener implements AutoCloseable {
        private final ServerSocket server;
        private final AtomicInteger connections = new AtomicInteger();

        public Listener() throws IOException {
            server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread t = new Thread(
                    () -> {
                        while (!server.isClosed()) {
                            try (Socket s = server.accept()) {
                                connections.incrementAndGet();
                                // answer like a web server with a harmless DTD, so a fetching parser would go on
                                s.getOutputStream()
                                        .write(("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n"
                                                        + "<!ENTITY leak \"LEAKED\">")
                                                .getBytes(StandardCharsets.US_ASCII));
                            } catch (IOException e) {
                                // closed
                            }
                        }
                    },
                    "xxe-listener");
            t.setDaemon(true);
            t.start();
        }

        public String url(String path) {
            return "http://127.0.0.1:" + server.getLocalPort() + path;
        }

        public int connections() {
            return connections.get();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    Listener listener;

    @TempDir
    Path tmp;

    @BeforeEach
    void listen() throws IOException {
        listener = new Listener();
    }

    @AfterEach
    void stop() throws IOException {
        listener.close();
    }

    static Map<String, String> read(String xml) throws SafeXml.XmlRefused {
        return SafeXml.readFlat(xml.getBytes(StandardCharsets.UTF_8), "xml");
    }

    @Test
    void readsCdataAndBareValuesInOrder() throws Exception {
        var f = read("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xml>\n  <b><![CDATA[two & <three>]]></b>\n"
                + "  <a>1</a><c></c><d><![CDATA[x]]>y<![CDATA[z]]></d><e>&amp;&lt;&gt;&quot;&apos;</e>"
                + "<!-- comment --><f>中文 😀</f></xml>");
        assertEquals(Map.of("b", "two & <three>", "a", "1", "c", "", "d", "xyz", "e", "&<>\"'", "f", "中文 😀"), f);
        assertEquals("b", f.keySet().iterator().next());
    }

    @Test
    void keepsWhitespaceInsideValues() throws Exception {
        assertEquals(" 1 ", read("<xml><total_fee> 1 </total_fee></xml>").get("total_fee"));
    }

    @Test
    void externalEntityToAFileIsRefusedWithoutReadingIt() throws Exception {
        Path secret = tmp.resolve("secret.txt");
        Files.writeString(secret, "TOP-SECRET");
        String xml = "<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY xxe SYSTEM \"" + secret.toUri()
                + "\">]><xml><return_code>&xxe;</return_code></xml>";
        assertThrows(SafeXml.XmlRefused.class, () -> read(xml));
    }

    @Test
    void externalEntitiesAndDtdsAreNeverFetched() {
        for (String xml : new String[] {
            "<!DOCTYPE xml [<!ENTITY % remote SYSTEM \"" + listener.url("/p.dtd")
                    + "\"> %remote;]><xml><a>&leak;</a></xml>",
            "<!DOCTYPE xml [<!ENTITY x SYSTEM \"" + listener.url("/e") + "\">]><xml><a>&x;</a></xml>",
            "<!DOCTYPE xml SYSTEM \"" + listener.url("/d.dtd") + "\"><xml><a>&leak;</a></xml>",
            "<!DOCTYPE xml PUBLIC \"-//X//Y\" \"" + listener.url("/pub.dtd") + "\"><xml><a>1</a></xml>",
            "<xml xmlns:xi=\"http://www.w3.org/2001/XInclude\"><a>1</a><xi:include href=\"" + listener.url("/xi")
                    + "\" parse=\"text\"/></xml>",
        }) {
            assertThrows(SafeXml.XmlRefused.class, () -> read(xml), xml);
        }
        assertEquals(0, listener.connections());
    }

    @Test
    void xincludeIsRefused() {
        assertThrows(
                SafeXml.XmlRefused.class,
                () -> read("<xml xmlns:xi=\"http://www.w3.org/2001/XInclude\">"
                        + "<a>1</a><xi:include href=\"file:///etc/passwd\" parse=\"text\"/></xml>"));
        assertThrows(
                SafeXml.XmlRefused.class,
                () -> read("<xml><a>1</a><xi:include href=\"file:///etc/passwd\"" + " parse=\"text\"/></xml>"));
    }

    @Test
    void billionLaughsIsRefusedWithoutExpanding() {
        var sb = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY lol0 \"lol\">");
        for (int i = 1; i <= 9; i++) {
            sb.append("<!ENTITY lol").append(i).append(" \"");
            for (int j = 0; j < 10; j++) {
                sb.append("&lol").append(i - 1).append(';');
            }
            sb.append("\">");
        }
        sb.append("]><xml><a>&lol9;</a></xml>");
        // a generous bound: expanding would take far longer and a gigabyte of memory
        assertTimeoutPreemptively(
                Duration.ofSeconds(5), () -> assertThrows(SafeXml.XmlRefused.class, () -> read(sb.toString())));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "<xml><a>1</a></xml><xml><b>2</b></xml>",
                "<xml><a>1</a></xml>junk",
                "<xml><a>1</a></xml><x/>",
                "<xml><a><b>1</b></a></xml>",
                "<xml><a>1</a><a>2</a></xml>",
                "<xml><a>1</a>text</xml>",
                "<notxml><a>1</a></notxml>",
                "<xml><a>1</a>",
                "<xml><a>1</b></xml>",
                "",
                "not xml",
                "<?xml version=\"1.0\" encoding=\"UTF-16\"?><xml><a>1</a></xml>",
                "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><xml><a>1</a></xml>",
                "<xml><a x=\"1\">1</a></xml>",
                "<xml><a>&undefined;</a></xml>",
            })
    void malformedOrUnexpectedShapesAreRefused(String xml) {
        assertThrows(SafeXml.XmlRefused.class, () -> read(xml));
    }

    @Test
    void byteOrderMarkIsRefused() {
        byte[] body = "\uFEFF<xml><a>1</a></xml>".getBytes(StandardCharsets.UTF_8);
        assertThrows(SafeXml.XmlRefused.class, () -> SafeXml.readFlat(body, "xml"));
    }

    @Test
    void utf16BytesAreRefused() {
        byte[] body =
                "<?xml version=\"1.0\" encoding=\"UTF-16\"?><xml><a>1</a></xml>".getBytes(StandardCharsets.UTF_16);
        assertThrows(SafeXml.XmlRefused.class, () -> SafeXml.readFlat(body, "xml"));
    }

    @Test
    void invalidUtf8IsRefused() {
        byte[] body = {
            '<',
            'x',
            'm',
            'l',
            '>',
            '<',
            'a',
            '>',
            (byte) 0xC0,
            (byte) 0xAF,
            '<',
            '/',
            'a',
            '>',
            '<',
            '/',
            'x',
            'm',
            'l',
            '>'
        };
        assertThrows(SafeXml.XmlRefused.class, () -> SafeXml.readFlat(body, "xml"));
    }
}
