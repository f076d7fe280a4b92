package io.paynotify.simulator.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Alipay's public-key-certificate mode (PROTOCOLS §12) for the apps configured in it: requests must carry the
 * configured {@code app_cert_sn} and {@code alipay_root_cert_sn} (else Alipay's {@code isv.missing-app-cert-sn},
 * {@code isv.app-cert-not-exist}, {@code isv.missing-alipay-root-cert-sn}, {@code isv.invalid-alipay-root-cert-sn});
 * answers name {@code alipay_cert_sn} beside {@code sign}; {@code alipay.open.app.alipaycert.download} hands out a
 * known certificate as the base64 of its PEM chain file. {@code PUT /_sim/alipay/cert {"rotated":true}} makes answers
 * name the re-issued certificate's SN (the same key: PROTOCOLS §12.6), so a client must download it once.
 */
final class AlipayCerts {

    static final String DOWNLOAD_METHOD = "alipay.open.app.alipaycert.download";
    static final String CONTROL = "/_sim/alipay/cert";

    private final AccountModes modes;
    private final ObjectMapper json;
    private final AtomicBoolean rotated = new AtomicBoolean();

    AlipayCerts(AccountModes modes, ObjectMapper json) {
        this.modes = modes;
        this.json = json;
    }

    /** The error an app in certificate mode gets for a request without its SNs, or null (also for other apps). */
    Map<String, Object> refusal(String appId, Map<String, String> params) {
        AlipayCertMode mode = modes.certMode(appId).orElse(null);
        if (mode == null) {
            return null;
        }
        String appSn = params.get("app_cert_sn");
        String rootSn = params.get("alipay_root_cert_sn");
        if (appSn == null || appSn.isBlank()) {
            return error("40001", "Missing Required Arguments", "isv.missing-app-cert-sn", "缺少应用公钥证书序列号");
        }
        if (!appSn.equals(mode.appCertSn())) {
            return error("40002", "Invalid Arguments", "isv.app-cert-not-exist", "应用公钥证书不存在");
        }
        if (rootSn == null || rootSn.isBlank()) {
            return error(
                    "40001", "Missing Required Arguments", "isv.missing-alipay-root-cert-sn", "缺少支付宝根证书序列号");
        }
        if (!rootSn.equals(mode.rootCertSn())) {
            return error("40002", "Invalid Arguments", "isv.invalid-alipay-root-cert-sn", "无效支付宝根证书序列号");
        }
        return null;
    }

    /** The {@code alipay_cert_sn} an answer to {@code appId} names, or null when the app is not in certificate mode. */
    String answerSn(String appId) {
        return modes.certMode(appId)
                .map(m -> rotated.get() && m.reissuedSn() != null ? m.reissuedSn() : m.alipayCertSn())
                .orElse(null);
    }

    /** {@code alipay.open.app.alipaycert.download}'s response object for {@code biz_content}. */
    Map<String, Object> download(String appId, String bizContent) {
        String sn = snOf(bizContent);
        if (sn == null || sn.isBlank()) {
            return error("40001", "Missing Required Arguments", "isv.missing-alipay-cert-sn", "缺少支付宝公钥证书序列号");
        }
        // any app may download Alipay's certificates; those of the app's own mode first, then every known one
        String chain = modes.certMode(appId).map(m -> m.chainsBySn().get(sn)).orElse(null);
        if (chain == null) {
            for (AlipayCertMode m : modes.certModes().values()) {
                chain = chain == null ? m.chainsBySn().get(sn) : chain;
            }
        }
        if (chain == null) {
            return error("40004", "Business Failed", "isv.alipay-cert-not-exist", "支付宝公钥证书不存在");
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("code", "10000");
        r.put("msg", "Success");
        r.put("alipay_cert_content", Base64.getEncoder().encodeToString(chain.getBytes(StandardCharsets.US_ASCII)));
        return r;
    }

    private String snOf(String bizContent) {
        try {
            JsonNode node = json.readTree(bizContent == null ? "" : bizContent);
            return node == null ? null : node.path("alipay_cert_sn").asText(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code PUT /_sim/alipay/cert {"rotated":true|false}} → 204; {@code GET} → the SNs answers name. */
    Reply control(ReceivedRequest request) {
        switch (request.method()) {
            case "PUT" -> {
                JsonNode body;
                try {
                    body = json.readTree(request.body());
                } catch (IOException e) {
                    body = null;
                }
                if (body == null || !body.path("rotated").isBoolean() || body.size() != 1) {
                    return Reply.json(400, "{\"message\":\"the body must be {\\\"rotated\\\":true} or false\"}");
                }
                rotated.set(body.path("rotated").asBoolean());
                return Reply.empty(204);
            }
            case "GET" -> {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("rotated", rotated.get());
                Map<String, Object> apps = new LinkedHashMap<>();
                modes.certModes().forEach((appId, m) -> {
                    Map<String, Object> a = new LinkedHashMap<>();
                    a.put("appCertSn", m.appCertSn());
                    a.put("alipayRootCertSn", m.rootCertSn());
                    a.put("alipayCertSn", answerSn(appId));
                    a.put("knownAlipayCertSns", m.chainsBySn().keySet());
                    apps.put(appId, a);
                });
                out.put("apps", apps);
                try {
                    return Reply.json(200, json.writeValueAsString(out));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
            default -> {
                return Reply.json(405, "{\"message\":\"PUT or GET\"}").withHeader("Allow", "PUT, GET");
            }
        }
    }

    void rotate(boolean on) {
        rotated.set(on);
    }

    void reset() {
        rotated.set(false);
    }

    static Map<String, Object> error(String code, String msg, String subCode, String subMsg) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("code", code);
        e.put("msg", msg);
        e.put("sub_code", subCode);
        e.put("sub_msg", subMsg);
        return e;
    }

    /** Alipay's answer text: the response object, then {@code alipay_cert_sn} (certificate mode), then {@code sign}. */
    static String envelope(String root, String responseText, String certSn, String sign) {
        return "{\"" + root + "\":" + responseText
                + (certSn == null ? "" : ",\"alipay_cert_sn\":\"" + certSn + "\"")
                + (sign == null ? "" : ",\"sign\":\"" + sign + "\"") + "}";
    }
}
