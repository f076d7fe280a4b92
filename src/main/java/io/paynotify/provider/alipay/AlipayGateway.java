package io.paynotify.provider.alipay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.provider.Fields;
import io.paynotify.provider.QueryHttp;
import io.paynotify.provider.QueryLog;
import io.paynotify.provider.QuerySigning;
import io.paynotify.provider.StrictJson;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One call of Alipay's OpenAPI gateway (docs/api.md "Active query" and "Account modes"): a UTF-8 form POSTed to the
 * gateway with the public parameters, {@code biz_content} and, on an ISV channel, the merchant's
 * {@code app_auth_token}; in certificate mode also {@code app_cert_sn} and {@code alipay_root_cert_sn}; signed RSA2
 * with the app private key over every other parameter ({@code sign_type} included, as the SDK's
 * {@code getSignatureContent}). The answer {@code {"<method>_response":{…},"sign":"…"}} is verified over the exact
 * text of the response object as it stands in the body, and once more with {@code \/} read as {@code /} where that
 * fails (the SDK's {@code checkResponseSign}): in public-key mode with the channel's Alipay keys, in certificate mode
 * with the entity certificate the answer's {@code alipay_cert_sn} names, downloaded with
 * {@code alipay.open.app.alipaycert.download} when no configured or trusted certificate has that SN. An unsigned
 * answer or an {@code error_response} is an error.
 */
final class AlipayGateway {

    static final String ERROR_RESPONSE = "error_response";
    static final String SUCCESS_CODE = "10000";
    static final String CERT_DOWNLOAD = "alipay.open.app.alipaycert.download";

    private static final Pattern CHARSET = Pattern.compile("(?i)charset\\s*=\\s*\"?([A-Za-z0-9_-]+)");

    private final Clock clock;
    private final QueryHttp http;
    private final AlipayCertStore store;

    AlipayGateway(Clock clock, QueryHttp http, AlipayCertStore store) {
        this.clock = clock;
        this.http = http;
        this.store = store;
    }

    /**
     * A verified answer, or why there is none.
     *
     * @param response the response object (null on error)
     * @param code its {@code code}
     * @param body the answer's bytes as received
     * @param error the logged error answer (null when verified)
     */
    record Verified(JsonNode response, String code, byte[] body, QueryAnswer error) {

        static Verified failed(QueryAnswer error) {
            return new Verified(null, null, null, error);
        }

        boolean ok() {
            return error == null;
        }
    }

    /** The name of a method's response object: dots as underscores, then {@code _response}. */
    static String responseName(String method) {
        return method.replace('.', '_') + "_response";
    }

    /** A {@code biz_content} of one string field. */
    static String bizContent(String field, String value) {
        return "{\"" + field + "\":\""
                + new String(JsonStringEncoder.getInstance().quoteAsString(value)) + "\"}";
    }

    /**
     * Calls {@code method} and verifies its answer.
     *
     * @param appAuthToken the ISV merchant's token, or null
     */
    Verified call(String channel, AlipayKeys keys, String method, String bizContent, String appAuthToken)
            throws QueryHttp.Failed {
        return call(channel, keys, method, bizContent, appAuthToken, false);
    }

    private Verified call(
            String channel, AlipayKeys keys, String method, String bizContent, String appAuthToken, boolean download)
            throws QueryHttp.Failed {
        Map<String, String> params =
                requestParams(keys, method, bizContent, appAuthToken, AlipayFormats.timestamp(clock.instant()));
        QueryHttp.Answer answer = http.send(HttpRequest.newBuilder(URI.create(keys.gatewayUrl()))
                .header("Content-Type", "application/x-www-form-urlencoded;charset=utf-8")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(form(params), StandardCharsets.UTF_8)));
        return verify(channel, keys, responseName(method), answer, download);
    }

    /** The request's parameters, {@code sign} last. */
    static Map<String, String> requestParams(
            AlipayKeys keys, String method, String bizContent, String appAuthToken, String timestamp) {
        var p = new LinkedHashMap<String, String>();
        p.put("app_id", keys.appId());
        p.put("method", method);
        p.put("format", "JSON");
        p.put("charset", "utf-8");
        p.put("sign_type", "RSA2");
        p.put("timestamp", timestamp);
        p.put("version", "1.0");
        if (keys.certMode() != null) {
            p.put("app_cert_sn", keys.certMode().appCertSn());
            p.put("alipay_root_cert_sn", keys.certMode().rootCertSn());
        }
        if (appAuthToken != null) {
            p.put("app_auth_token", appAuthToken);
        }
        p.put("biz_content", bizContent);
        p.put("sign", sign(p, keys));
        return p;
    }

    /** RSA2 over the request content, in UTF-8 (the request's charset). */
    static String sign(Map<String, String> params, AlipayKeys keys) {
        return QuerySigning.sha256WithRsa(
                keys.appPrivateKey(), AlipaySignature.requestContent(params).getBytes(StandardCharsets.UTF_8));
    }

    /** {@code application/x-www-form-urlencoded}, UTF-8. */
    static String form(Map<String, String> params) {
        var sb = new StringBuilder(512);
        params.forEach((k, v) -> {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
        });
        return sb.toString();
    }

    /**
     * The top-level parts of an answer: the exact text of the response object (or of {@code error_response}), the
     * {@code sign} and, in certificate mode, the {@code alipay_cert_sn} beside it (not signed).
     */
    record Parts(String response, String error, String sign, String certSn) {}

    /**
     * Splits an answer, keeping the response object's text exactly as it stands in the body (whitespace, escapes and
     * key order included: that text is what Alipay signed). Duplicate keys, trailing data and anything that is not
     * one JSON object are refused.
     */
    static Parts parts(String body, String responseName) throws StrictJson.Malformed {
        String response = null;
        String error = null;
        String sign = null;
        String certSn = null;
        try (JsonParser p = StrictJson.parser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new StrictJson.Malformed();
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                int start = (int) p.currentTokenLocation().getCharOffset();
                p.skipChildren();
                int end = (int) p.currentTokenLocation().getCharOffset() + 1;
                if (responseName.equals(field) && value == JsonToken.START_OBJECT) {
                    response = body.substring(start, end);
                } else if (ERROR_RESPONSE.equals(field) && value == JsonToken.START_OBJECT) {
                    error = body.substring(start, end);
                } else if ("sign".equals(field) && value == JsonToken.VALUE_STRING) {
                    sign = p.getText();
                } else if ("alipay_cert_sn".equals(field) && value == JsonToken.VALUE_STRING) {
                    certSn = p.getText();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw new StrictJson.Malformed();
            }
        } catch (IOException e) {
            throw new StrictJson.Malformed();
        }
        return new Parts(response, error, sign, certSn);
    }

    /** True when the sign verifies over the text, or over it with every {@code \/} read as {@code /}. */
    static boolean verified(String response, String sign, Charset charset, List<PublicKey> keys) {
        String algorithm = AlipaySignature.algorithm("RSA2");
        if (AlipaySignature.verify(response, charset, sign, algorithm, keys)) {
            return true;
        }
        return response.contains("\\/")
                && AlipaySignature.verify(response.replace("\\/", "/"), charset, sign, algorithm, keys);
    }

    private Verified verify(
            String name, AlipayKeys keys, String responseName, QueryHttp.Answer answer, boolean download)
            throws QueryHttp.Failed {
        if (answer.status() != 200) {
            return Verified.failed(QueryLog.error(name, QueryError.HTTP_STATUS, "HTTP status " + answer.status()));
        }
        Charset charset;
        Parts parts;
        JsonNode r;
        try {
            charset = charset(answer.header("Content-Type"));
            String body = decode(answer.body(), charset);
            parts = parts(body, responseName);
            if (parts.error() != null) {
                return Verified.failed(QueryLog.error(name, QueryError.PROVIDER_ERROR, "error_response"));
            }
            if (parts.response() == null) {
                return Verified.failed(QueryLog.error(name, QueryError.MALFORMED, "no " + responseName));
            }
            r = StrictJson.readObject(parts.response());
        } catch (StrictJson.Malformed e) {
            return Verified.failed(QueryLog.error(name, QueryError.MALFORMED, "not a readable JSON answer"));
        }
        String code = StrictJson.text(r, "code");
        boolean gatewayError = code != null && !SUCCESS_CODE.equals(code);
        if (!Fields.present(parts.sign())) {
            if (download && !gatewayError) {
                // a certificate download's answer is trusted by the certificate's chain, not by its signature
                return new Verified(r, code, answer.body(), null);
            }
            // never trusted, whatever it says: a gateway error is a provider error, anything else a forgery
            return Verified.failed(QueryLog.error(
                    name, gatewayError ? QueryError.PROVIDER_ERROR : QueryError.VERIFICATION, "unsigned answer"));
        }
        List<PublicKey> verifying;
        if (keys.certMode() == null) {
            verifying = keys.publicKeys();
        } else {
            String sn = parts.certSn();
            if (!Fields.present(sn)) {
                if (!gatewayError) {
                    return Verified.failed(
                            QueryLog.error(name, QueryError.VERIFICATION, "answer without alipay_cert_sn"));
                }
                verifying = allKeys(name, keys);
            } else {
                PublicKey key = known(name, keys, sn);
                if (key == null && download) {
                    // the download's own answer names a certificate we do not hold: its chain decides
                    return new Verified(r, code, answer.body(), null);
                }
                if (key == null) {
                    key = download(name, keys, sn);
                }
                if (key == null) {
                    return Verified.failed(
                            QueryLog.error(name, QueryError.VERIFICATION, "no trusted certificate for alipay_cert_sn"));
                }
                verifying = List.of(key);
            }
        }
        if (!verified(parts.response(), parts.sign(), charset, verifying)) {
            return Verified.failed(QueryLog.error(name, QueryError.VERIFICATION, "answer signature"));
        }
        return new Verified(r, code, answer.body(), null);
    }

    /** The key of a configured or already trusted certificate with that SN, or null. */
    private PublicKey known(String channel, AlipayKeys keys, String sn) {
        PublicKey key = keys.certMode().alipayKeys().get(sn);
        return key != null ? key : store.key(channel, sn);
    }

    private List<PublicKey> allKeys(String channel, AlipayKeys keys) {
        var all = new ArrayList<>(keys.publicKeys());
        all.addAll(store.keys(channel));
        return all;
    }

    /**
     * Downloads the certificate of that SN and trusts it when it chains to a configured root, is within its
     * validity period and has that SN; null otherwise, or when a download of it was tried less than a minute ago.
     */
    private PublicKey download(String channel, AlipayKeys keys, String sn) throws QueryHttp.Failed {
        if (!store.mayDownload(channel, sn, clock.instant())) {
            return null;
        }
        Verified v = call(channel, keys, CERT_DOWNLOAD, bizContent("alipay_cert_sn", sn), null, true);
        if (!v.ok()) {
            return null;
        }
        if (!SUCCESS_CODE.equals(v.code())) {
            QueryLog.error(channel, QueryError.PROVIDER_ERROR, "certificate download code");
            return null;
        }
        String content = StrictJson.text(v.response(), "alipay_cert_content");
        X509Certificate leaf;
        List<X509Certificate> chain;
        try {
            chain = AlipayCertificates.read(new String(
                    Base64.getMimeDecoder().decode(content == null ? "" : content), StandardCharsets.US_ASCII));
            leaf = AlipayCertificates.leaf(chain);
        } catch (IllegalArgumentException e) {
            QueryLog.error(channel, QueryError.MALFORMED, "downloaded certificate unreadable");
            return null;
        }
        var intermediates = new ArrayList<>(keys.certMode().intermediates());
        chain.stream().filter(c -> c != leaf).forEach(intermediates::add);
        if (!AlipayCertificates.sn(leaf).equals(sn)
                || !AlipayCertificates.chainsTo(
                        leaf, intermediates, keys.certMode().roots())
                || !AlipayCertificates.valid(leaf, clock.instant())
                || !(leaf.getPublicKey() instanceof RSAPublicKey rsa)
                || rsa.getModulus().bitLength() < io.paynotify.config.KeyParsing.MIN_RSA_BITS) {
            QueryLog.error(channel, QueryError.VERIFICATION, "downloaded certificate not trusted");
            return null;
        }
        store.trust(channel, sn, leaf.getPublicKey());
        return leaf.getPublicKey();
    }

    /** The answer's charset from its Content-Type: UTF-8 (what was asked for) unless it names GBK. */
    static Charset charset(String contentType) throws StrictJson.Malformed {
        Matcher m = contentType == null ? null : CHARSET.matcher(contentType);
        if (m == null || !m.find()) {
            return StandardCharsets.UTF_8;
        }
        try {
            return AlipayForm.charset(m.group(1));
        } catch (AlipayForm.Malformed e) {
            throw new StrictJson.Malformed();
        }
    }

    /** Strict decoding: malformed bytes are refused, never replaced (the text is verified as it stands). */
    static String decode(byte[] body, Charset charset) throws StrictJson.Malformed {
        try {
            return charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new StrictJson.Malformed();
        }
    }
}
