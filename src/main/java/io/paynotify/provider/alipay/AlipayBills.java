package io.paynotify.provider.alipay;

import io.paynotify.config.AccountMode;
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
import io.paynotify.provider.QueryHttp;
import io.paynotify.provider.StrictJson;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Locale;

/**
 * Alipay's trade bill (docs/bills.md "Alipay"; Alipay's {@code alipay.data.dataservice.bill.downloadurl.query}): the
 * gateway call of the query ({@link AlipayGateway}: signed with the app key, in certificate mode with
 * {@code app_cert_sn}/{@code alipay_root_cert_sn}, the answer verified over its exact text) with {@code biz_content}
 * {@code {"bill_type":"trade","bill_date":"yyyy-MM-dd"}}; a verified {@code 40004} {@code isp.bill_not_exist} is
 * {@code NO_BILL}. The {@code bill_download_url} (valid 30 s) is fetched at once with a plain GET when its host is that
 * of {@code api-base-url} or ends in {@code .alipay.com}, scheme {@code http} or {@code https}
 * ({@code URL_REFUSED}); the file is a zip of GBK CSVs, read by {@link AlipayBillReader}. Not on {@code isv}
 * channels.
 */
@ApplicationScoped
public class AlipayBills implements BillSource {

    static final String METHOD = "alipay.data.dataservice.bill.downloadurl.query";
    static final String NOT_EXIST_CODE = "40004";
    static final String NOT_EXIST_SUB_CODE = "isp.bill_not_exist";
    static final String ALIPAY_DOMAIN = ".alipay.com";

    private final AlipayGateway gateway;
    private final BillHttp http;

    /** For tests: its own store of downloaded certificates. */
    public AlipayBills(Clock clock, QueryHttp api, BillHttp http) {
        this(clock, api, http, new AlipayCertStore());
    }

    @Inject
    public AlipayBills(Clock clock, QueryHttp api, BillHttp http, AlipayCertStore store) {
        this.gateway = new AlipayGateway(clock, api, store);
        this.http = http;
    }

    @Override
    public Provider provider() {
        return Provider.ALIPAY;
    }

    /** {@code {"bill_type":"trade","bill_date":"yyyy-MM-dd"}}. */
    static String bizContent(LocalDate billDate) {
        return "{\"bill_type\":\"trade\",\"bill_date\":\"" + billDate + "\"}";
    }

    @Override
    public Fetch fetch(Channel channel, LocalDate billDate, Path target, Duration downloadTimeout) {
        try {
            AlipayKeys keys = channel.keys(AlipayKeys.class);
            if (channel.mode() == AccountMode.ISV) {
                // an ISV fetches one bill per authorising merchant with its app_auth_token: not in this build
                return new Fetch.Failed(StatementError.PROVIDER, "statements are not fetched on isv channels");
            }
            if (keys.appPrivateKey() == null) {
                return new Fetch.Failed(StatementError.PROVIDER, "no merchant-private-key");
            }
            AlipayGateway.Verified v;
            try {
                v = gateway.call(channel.name(), keys, METHOD, bizContent(billDate), null);
            } catch (QueryHttp.Failed f) {
                return new Fetch.Failed(
                        f.error() == QueryError.TIMEOUT ? StatementError.TIMEOUT : StatementError.HTTP, f.getMessage());
            }
            if (!v.ok()) {
                return failed(v.error().error());
            }
            if (NOT_EXIST_CODE.equals(v.code())
                    && NOT_EXIST_SUB_CODE.equals(StrictJson.text(v.response(), "sub_code"))) {
                return new Fetch.NoBill(NOT_EXIST_SUB_CODE);
            }
            if (!AlipayGateway.SUCCESS_CODE.equals(v.code())) {
                return new Fetch.Failed(StatementError.PROVIDER, "code " + Fields.tokenOrNull(v.code()));
            }
            String url = StrictJson.text(v.response(), "bill_download_url");
            if (!Fields.present(url)) {
                return new Fetch.Failed(StatementError.PROVIDER, "no bill_download_url");
            }
            URI download = allowed(keys.gatewayUrl(), url.strip());
            if (download == null) {
                return new Fetch.Failed(
                        StatementError.URL_REFUSED,
                        "bill_download_url is neither on the host of api-base-url nor under .alipay.com");
            }
            BillHttp.Download d = http.download(HttpRequest.newBuilder(download).GET(), target, downloadTimeout);
            if (!d.ok()) {
                return new Fetch.Failed(StatementError.HTTP, "download HTTP status " + d.status());
            }
            return new Fetch.Downloaded(d.bytes(), null);
        } catch (BillHttp.Failed f) {
            return new Fetch.Failed(f.error(), f.getMessage());
        } catch (RuntimeException e) {
            return new Fetch.Failed(
                    StatementError.PROVIDER, "unexpected " + e.getClass().getSimpleName());
        }
    }

    /** A gateway call without a verified answer, in the contract's error codes. */
    static Fetch failed(QueryError error) {
        return switch (error) {
            case VERIFICATION -> new Fetch.Failed(StatementError.SIGNATURE, "answer not verified");
            case HTTP_STATUS, TRANSPORT -> new Fetch.Failed(StatementError.HTTP, "gateway HTTP failure");
            case TIMEOUT -> new Fetch.Failed(StatementError.TIMEOUT, "gateway timed out");
            default -> new Fetch.Failed(StatementError.PROVIDER, "gateway error " + error);
        };
    }

    /**
     * The download URL when its scheme is {@code http} or {@code https}, it has no user info and its host is that of
     * {@code api-base-url} or ends in {@code .alipay.com} (Alipay's documented URL is plain http on
     * {@code dwbillcenter.alipay.com}); null otherwise.
     */
    static URI allowed(String gatewayUrl, String downloadUrl) {
        URI url;
        try {
            url = new URI(downloadUrl);
        } catch (URISyntaxException e) {
            return null;
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        String host = url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https"))
                || host.isEmpty()
                || url.getRawUserInfo() != null
                || url.getRawFragment() != null) {
            return null;
        }
        String gatewayHost = URI.create(gatewayUrl).getHost();
        if (host.equalsIgnoreCase(gatewayHost == null ? "" : gatewayHost) || host.endsWith(ALIPAY_DOMAIN)) {
            return url;
        }
        return null;
    }

    @Override
    public void read(Channel channel, Path file, BillRequest request, String expectedSha1, BillSink sink)
            throws BillProblem {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024)) {
            BillFiles.run(in, sink, (zip, s) -> AlipayBillReader.read(zip, request, s));
        } catch (IOException e) {
            throw new UncheckedIOException("reading the bill file failed", e);
        }
    }
}
