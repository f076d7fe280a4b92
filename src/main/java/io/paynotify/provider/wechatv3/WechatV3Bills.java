package io.paynotify.provider.wechatv3;

import com.fasterxml.jackson.databind.JsonNode;
import io.paynotify.config.Channel;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.BillSink;
import io.paynotify.core.statement.StatementError;
import io.paynotify.provider.BillFiles;
import io.paynotify.provider.BillHttp;
import io.paynotify.provider.BillSource;
import io.paynotify.provider.Fields;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.QueryHttp;
import io.paynotify.provider.QuerySigning;
import io.paynotify.provider.StrictJson;
import io.paynotify.provider.WechatBillReader;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The WeChat Pay v3 trade bill (docs/bills.md "WeChat Pay v3"; WeChat Pay's v3 {@code tradebill}): {@code GET
 * {api-base-url}/v3/bill/tradebill?bill_date=yyyy-MM-dd&bill_type=ALL&tar_type=GZIP}, signed and its answer verified
 * as the order query's; its JSON names {@code hash_type} {@code SHA1}, {@code hash_value} and {@code download_url}.
 * The {@code download_url} must have the scheme, host and port of {@code api-base-url} ({@code URL_REFUSED});
 * it is fetched at once with its own {@code Authorization}, signed over that URL's path and query, and its answer
 * carries no {@code Wechatpay-*} signature: the bill's integrity is its SHA-1, checked by {@link #read} over the
 * whole gunzipped text ({@code HASH}). {@code NO_STATEMENT_EXIST} is {@code NO_BILL}, {@code STATEMENT_CREATING}
 * {@code NOT_READY}. A partner channel asks for the provider-wide bill (no {@code sub_mchid}).
 */
@ApplicationScoped
public class WechatV3Bills implements BillSource {

    static final String PATH = "/v3/bill/tradebill";
    static final String NO_STATEMENT = "NO_STATEMENT_EXIST";
    static final String CREATING = "STATEMENT_CREATING";

    private static final Pattern SHA1_HEX = Pattern.compile("[0-9A-Fa-f]{40}");

    private final Clock clock;
    private final QueryHttp api;
    private final BillHttp http;
    private final WechatV3Verifier verifier;

    @Inject
    public WechatV3Bills(Clock clock, QueryHttp api, BillHttp http) {
        this.clock = clock;
        this.api = api;
        this.http = http;
        this.verifier = new WechatV3Verifier(clock);
    }

    @Override
    public Provider provider() {
        return Provider.WECHATPAY_V3;
    }

    @Override
    public Fetch fetch(Channel channel, LocalDate billDate, Path target, Duration downloadTimeout) {
        try {
            WechatV3Keys keys = channel.keys(WechatV3Keys.class);
            if (keys.merchantPrivateKey() == null || keys.merchantSerial() == null) {
                return new Fetch.Failed(StatementError.PROVIDER, "no merchant-private-key or merchant-serial");
            }
            URI uri = uri(keys, billDate);
            var request = HttpRequest.newBuilder(uri)
                    .header("Accept", "application/json")
                    .header("Authorization", authorization(keys, uri))
                    .GET();
            if (keys.querySerial() != null) {
                request.header("Wechatpay-Serial", keys.querySerial());
            }
            QueryHttp.Answer answer;
            try {
                answer = api.send(request);
            } catch (QueryHttp.Failed f) {
                return new Fetch.Failed(
                        f.error() == QueryError.TIMEOUT ? StatementError.TIMEOUT : StatementError.HTTP, f.getMessage());
            }
            Answer a = answer(keys, answer);
            if (a.fetch() != null) {
                return a.fetch();
            }
            URI download = allowed(keys.apiBaseUrl(), a.downloadUrl());
            if (download == null) {
                return new Fetch.Failed(
                        StatementError.URL_REFUSED, "download_url is not on the scheme, host and port of api-base-url");
            }
            BillHttp.Download d = http.download(
                    HttpRequest.newBuilder(download)
                            .header("Accept", "*/*")
                            .header("Authorization", authorization(keys, download))
                            .GET(),
                    target,
                    downloadTimeout);
            if (!d.ok()) {
                return new Fetch.Failed(StatementError.HTTP, "download HTTP status " + d.status());
            }
            return new Fetch.Downloaded(d.bytes(), a.hash());
        } catch (BillHttp.Failed f) {
            return new Fetch.Failed(f.error(), f.getMessage());
        } catch (RuntimeException e) {
            return new Fetch.Failed(
                    StatementError.PROVIDER, "unexpected " + e.getClass().getSimpleName());
        }
    }

    static URI uri(WechatV3Keys keys, LocalDate billDate) {
        return URI.create(keys.apiBaseUrl() + PATH + "?bill_date=" + billDate + "&bill_type=ALL&tar_type=GZIP");
    }

    private String authorization(WechatV3Keys keys, URI uri) {
        return WechatV3Query.authorization(
                keys, WechatV3Query.target(uri), clock.instant().getEpochSecond(), QuerySigning.nonce(32));
    }

    /** The tradebill answer: a terminal fetch result, or the hash and URL to download. */
    record Answer(Fetch fetch, String hash, String downloadUrl) {
        static Answer of(Fetch fetch) {
            return new Answer(fetch, null, null);
        }
    }

    /** Checks the tradebill answer as the order query's (signature and freshness), then its three fields. */
    Answer answer(WechatV3Keys keys, QueryHttp.Answer answer) {
        int status = answer.status();
        if (status < 200 || status > 299) {
            // an error answer applies nothing, signed or not (as the query's ORDER_NOT_EXIST)
            String code = errorCode(answer);
            if (NO_STATEMENT.equals(code)) {
                return Answer.of(new Fetch.NoBill(NO_STATEMENT));
            }
            if (CREATING.equals(code)) {
                return Answer.of(new Fetch.NotReady(CREATING));
            }
            boolean providerError = status >= 400 && status < 500 && code != null;
            return Answer.of(new Fetch.Failed(
                    providerError ? StatementError.PROVIDER : StatementError.HTTP, "HTTP status " + status));
        }
        try {
            verifier.verify(keys.platformKeys(), answer::headerValues, answer.body());
        } catch (NotifyRejection r) {
            return Answer.of(new Fetch.Failed(
                    StatementError.SIGNATURE,
                    r.rejectionCause() == NotifyRejection.Cause.STALE ? "answer timestamp" : "answer signature"));
        }
        JsonNode r;
        try {
            r = StrictJson.readObject(answer.body());
        } catch (StrictJson.Malformed e) {
            return Answer.of(new Fetch.Failed(StatementError.PROVIDER, "not a JSON object"));
        }
        String hashType = StrictJson.text(r, "hash_type");
        if (!"SHA1".equalsIgnoreCase(hashType == null ? "" : hashType.strip())) {
            return Answer.of(new Fetch.Failed(StatementError.PROVIDER, "hash_type is not SHA1"));
        }
        String hash = StrictJson.text(r, "hash_value");
        if (hash == null || !SHA1_HEX.matcher(hash.strip()).matches()) {
            return Answer.of(new Fetch.Failed(StatementError.PROVIDER, "hash_value is not a SHA-1"));
        }
        String url = StrictJson.text(r, "download_url");
        if (!Fields.present(url)) {
            return Answer.of(new Fetch.Failed(StatementError.PROVIDER, "no download_url"));
        }
        return new Answer(null, hash.strip(), url.strip());
    }

    /**
     * The download URL when its scheme, host and port are those of {@code api-base-url} (the default port of its
     * scheme where none is written), with no user info; null otherwise.
     */
    static URI allowed(String apiBaseUrl, String downloadUrl) {
        URI base = URI.create(apiBaseUrl);
        URI url;
        try {
            url = new URI(downloadUrl);
        } catch (URISyntaxException e) {
            return null;
        }
        if (url.getScheme() == null
                || url.getHost() == null
                || url.getRawUserInfo() != null
                || url.getRawFragment() != null) {
            return null;
        }
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals(base.getScheme().toLowerCase(Locale.ROOT))
                || !url.getHost().equalsIgnoreCase(base.getHost())
                || port(url, scheme) != port(base, scheme)) {
            return null;
        }
        return url;
    }

    private static int port(URI uri, String scheme) {
        if (uri.getPort() >= 0) {
            return uri.getPort();
        }
        return "https".equals(scheme) ? 443 : "http".equals(scheme) ? 80 : -1;
    }

    /** The {@code code} of a v3 error answer ({@code {"code":"…","message":"…"}}), or null. */
    private static String errorCode(QueryHttp.Answer answer) {
        try {
            return Fields.tokenOrNull(StrictJson.text(StrictJson.readObject(answer.body()), "code"));
        } catch (StrictJson.Malformed e) {
            return null;
        }
    }

    @Override
    public void read(Channel channel, Path file, BillRequest request, String expectedSha1, BillSink sink)
            throws BillProblem {
        // an upload has no hash_value (expectedSha1 null): its integrity is the operator's
        BillFiles.readWechat(file, expectedSha1, sink, (in, s) -> WechatBillReader.read(in, request, s));
    }
}
