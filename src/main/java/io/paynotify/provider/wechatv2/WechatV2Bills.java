package io.paynotify.provider.wechatv2;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.BillSink;
import io.paynotify.core.statement.StatementError;
import io.paynotify.provider.BillFiles;
import io.paynotify.provider.BillHttp;
import io.paynotify.provider.BillSource;
import io.paynotify.provider.QuerySigning;
import io.paynotify.provider.SafeXml;
import io.paynotify.provider.WechatBillReader;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The WeChat Pay v2 trade bill (docs/bills.md "WeChat Pay v2"; WeChat Pay's v2 {@code downloadbill}): {@code POST
 * {api-base-url}/pay/downloadbill} with an XML body of {@code appid} (the channel's first), {@code mch_id},
 * {@code nonce_str}, {@code sign_type}, {@code bill_date} ({@code yyyyMMdd}), {@code bill_type=ALL},
 * {@code tar_type=GZIP} and {@code sign}, signed as the order query is. A partner channel sends the same: without
 * {@code sub_mch_id} the bill covers every sub-merchant. The answer is the bill itself, gzip or plain text, streamed to
 * the target file; an XML answer is an error: {@code return_msg} {@code No Bill Exist} (any case) or
 * {@code error_code} {@code 20002} is {@code NO_BILL}, {@code Bill Creating} is {@code NOT_READY}, anything else
 * {@code PROVIDER}. The bill carries no signature.
 */
@ApplicationScoped
public class WechatV2Bills implements BillSource {

    static final String PATH = "/pay/downloadbill";
    static final String NO_BILL_MSG = "No Bill Exist";
    static final String NO_BILL_CODE = "20002";
    static final String CREATING_MSG = "Bill Creating";

    /** An XML error answer is a few hundred bytes; a larger XML file is not an answer of downloadbill. */
    private static final int MAX_XML = 64 * 1024;

    private static final DateTimeFormatter COMPACT = DateTimeFormatter.ofPattern("uuuuMMdd", Locale.ROOT);

    private final BillHttp http;

    @Inject
    public WechatV2Bills(BillHttp http) {
        this.http = http;
    }

    @Override
    public Provider provider() {
        return Provider.WECHATPAY_V2;
    }

    @Override
    public Fetch fetch(Channel channel, LocalDate billDate, Path target, Duration downloadTimeout) {
        try {
            WechatV2Keys keys = channel.keys(WechatV2Keys.class);
            byte[] body = request(keys, billDate, QuerySigning.nonce(32));
            BillHttp.Download d = http.download(
                    HttpRequest.newBuilder(URI.create(keys.apiBaseUrl() + PATH))
                            .header("Content-Type", "text/xml; charset=UTF-8")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body)),
                    target,
                    downloadTimeout);
            if (!d.ok()) {
                return new Fetch.Failed(StatementError.HTTP, "HTTP status " + d.status());
            }
            return answer(target, d.bytes());
        } catch (BillHttp.Failed f) {
            return new Fetch.Failed(f.error(), f.getMessage());
        } catch (RuntimeException e) {
            return new Fetch.Failed(
                    StatementError.PROVIDER, "unexpected " + e.getClass().getSimpleName());
        }
    }

    /** The request's fields, in the order they are sent, {@code sign} last. */
    static Map<String, String> requestFields(WechatV2Keys keys, LocalDate billDate, String nonce) {
        String type = keys.requestSignType();
        var f = new LinkedHashMap<String, String>();
        f.put("appid", keys.appIds().iterator().next());
        f.put("mch_id", keys.mchId());
        f.put("nonce_str", nonce);
        f.put("sign_type", type);
        f.put("bill_date", billDate.format(COMPACT));
        f.put("bill_type", "ALL");
        f.put("tar_type", "GZIP");
        f.put("sign", WechatV2Query.sign(f, type, keys.apiKeys().get(0)));
        return f;
    }

    static byte[] request(WechatV2Keys keys, LocalDate billDate, String nonce) {
        var xml = new StringBuilder(320).append("<xml>");
        requestFields(keys, billDate, nonce)
                .forEach((k, v) -> xml.append('<')
                        .append(k)
                        .append('>')
                        .append(v)
                        .append("</")
                        .append(k)
                        .append('>'));
        return xml.append("</xml>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Tells the bill (gzip or text) from an XML error answer by the file's first bytes. */
    static Fetch answer(Path file, long bytes) {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(MAX_XML + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the downloaded bill failed", e);
        }
        if (!xml(head)) {
            return new Fetch.Downloaded(bytes, null);
        }
        if (head.length > MAX_XML) {
            return new Fetch.Failed(StatementError.PROVIDER, "an XML answer larger than an error answer");
        }
        Map<String, String> f;
        try {
            f = SafeXml.readFlat(head, "xml");
        } catch (SafeXml.XmlRefused e) {
            return new Fetch.Failed(StatementError.PROVIDER, "an XML answer that is not a flat document");
        }
        String msg = f.getOrDefault("return_msg", "").strip();
        if (NO_BILL_MSG.equalsIgnoreCase(msg)
                || NO_BILL_CODE.equals(f.getOrDefault("error_code", "").strip())) {
            return new Fetch.NoBill("No Bill Exist");
        }
        if (CREATING_MSG.equalsIgnoreCase(msg)) {
            return new Fetch.NotReady("Bill Creating");
        }
        return new Fetch.Failed(StatementError.PROVIDER, "an XML answer, not a bill");
    }

    /** An XML answer starts with {@code <} after optional whitespace (a bill starts with its header or gzip bytes). */
    private static boolean xml(byte[] head) {
        int i = 0;
        if (head.length >= 3 && (head[0] & 0xFF) == 0xEF && (head[1] & 0xFF) == 0xBB && (head[2] & 0xFF) == 0xBF) {
            i = 3;
        }
        while (i < head.length && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) {
            i++;
        }
        return i < head.length && head[i] == '<';
    }

    @Override
    public void read(Channel channel, Path file, BillRequest request, String expectedSha1, BillSink sink)
            throws BillProblem {
        // v2 bills carry no hash: expectedSha1 is null from a v2 fetch and from an upload
        BillFiles.readWechat(file, expectedSha1, sink, (in, s) -> WechatBillReader.read(in, request, s));
    }
}
