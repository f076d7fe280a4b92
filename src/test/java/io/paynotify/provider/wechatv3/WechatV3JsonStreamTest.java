package io.paynotify.provider.wechatv3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.StrictJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The one-pass reading of the envelope and the resource ({@link WechatV3Json#readEnvelope},
 * {@link WechatV3Json#readResource}) against the tree reading it replaced: the same bytes refused, the same fields,
 * and the same {@code decoded} text, over hand-picked documents and random mutations of them.
 */
@Tag("unit")
class WechatV3JsonStreamTest {

    static final String RESOURCE = "{\"mchid\":\"1230000109\",\"appid\":\"wxd678efh567hg6787\",\"out_trade_no\":"
            + "\"1217752501201407033233368018\",\"transaction_id\":\"1217752501201407033233368018\","
            + "\"trade_type\":\"MICROPAY\",\"trade_state\":\"SUCCESS\",\"trade_state_desc\":\"支付成功\","
            + "\"bank_type\":\"CMC\",\"attach\":\"订单附言：深圳市腾讯科技 ½ ✓ 😀\",\"success_time\":"
            + "\"2018-06-08T10:34:56+08:00\",\"payer\":{\"openid\":\"oUpF8uMuAJO_M2pxb1Q9zNjWeS6o\"},"
            + "\"amount\":{\"total\":100,\"payer_total\":100,\"currency\":\"CNY\",\"payer_currency\":\"CNY\"},"
            + "\"promotion_detail\":[{\"coupon_id\":\"109519\",\"amount\":100,\"goods_detail\":[{\"goods_id\":"
            + "\"M1006\",\"quantity\":1,\"unit_price\":100,\"discount_amount\":1}]}],\"flag\":true,\"none\":null}";

    static final String ENVELOPE = "{\"id\":\"EV-2018022511223320873\",\"create_time\":\"2015-05-20T13:29:35+08:00\","
            + "\"resource_type\":\"encrypt-resource\",\"event_type\":\"TRANSACTION.SUCCESS\",\"summary\":\"支付成功\","
            + "\"resource\":{\"original_type\":\"transaction\",\"algorithm\":\"AEAD_AES_256_GCM\",\"ciphertext\":"
            + "\"c2VhbGVk\",\"associated_data\":\"transaction\",\"nonce\":\"fdasflkja484\"}}";

    static final List<String> RESOURCES = List.of(
            RESOURCE,
            "{}",
            "{\"amount\":{\"total\":-0,\"refund\":5,\"currency\":null}}",
            "{\"amount\":{\"total\":1.0,\"refund\":\"5\",\"currency\":7}}",
            "{\"amount\":{\"total\":1e2,\"refund\":null}}",
            "{\"amount\":[1,2],\"appid\":null,\"sp_mchid\":null,\"sub_mchid\":0}",
            "{\"amount\":null,\"sp_mchid\":{},\"sub_mchid\":null}",
            "{\"amount\":{\"total\":123456789012345678901234567890}}",
            "{ \"out_trade_no\" : \"A\\u0042C\" , \"mchid\":\"x\\/y\"}\n",
            "{\"s\":\"tab\\there \\\"quoted\\\" \\\\ back\",\"t\":\"\\ud83d\\ude00\"}",
            "{\"line\":\"\u2028\u2029\u007f\"}",
            "{\"a\":{\"b\":{\"c\":[[[[]]]]}},\"n\":-12,\"f\":false}",
            "\ufeff{\"a\":1}",
            "{\"a\":1}  ",
            "{\"a\":1} x",
            "{\"a\":1}{}",
            "[]",
            "\"s\"",
            "",
            "{\"a\":1,\"a\":2}",
            "{\"amount\":{\"total\":1,\"total\":1}}",
            "{\"a\":01}",
            "{\"a\":\"raw\u0001control\"}",
            "{\"a\":" + "9".repeat(65) + "}",
            "{\"a\":" + "[".repeat(20) + "]".repeat(20) + "}");

    @Test
    void resourcesReadAsTheTreeReadsThem() {
        for (String doc : RESOURCES) {
            compareResource(doc.getBytes(StandardCharsets.UTF_8));
            compareResource(doc.getBytes(StandardCharsets.UTF_16LE));
        }
    }

    @Test
    void envelopesReadAsTheTreeReadsThem() throws NotifyRejection {
        compareEnvelope(ENVELOPE.getBytes(StandardCharsets.UTF_8));
        // WeChat's plain base64 is read in place, not as a String
        assertTrue(WechatV3Json.readEnvelope(ENVELOPE.getBytes(StandardCharsets.UTF_8)).ciphertextBytes != null);
        compareEnvelope(
                ENVELOPE.replace("\"transaction\",\"nonce", "null,\"nonce").getBytes(StandardCharsets.UTF_8));
        compareEnvelope(ENVELOPE.replace("\"transaction\",\"nonce", "5,\"nonce").getBytes(StandardCharsets.UTF_8));
        compareEnvelope(ENVELOPE.replace("\"resource\":{", "\"resource\":[{")
                .replace("}}", "}]}")
                .getBytes(StandardCharsets.UTF_8));
        compareEnvelope(ENVELOPE.replace("\"id\":", "\"id\":1,\"x\":").getBytes(StandardCharsets.UTF_8));
        for (String doc : RESOURCES) {
            compareEnvelope(doc.getBytes(StandardCharsets.UTF_8));
        }
        // the ciphertext read in place: after a byte-order mark, with whitespace, escaped, empty, in UTF-16
        for (String doc : List.of(
                "\ufeff" + ENVELOPE,
                ENVELOPE.replace("\"ciphertext\":", "\"ciphertext\" :\n "),
                ENVELOPE.replace("c2VhbGVk", "c2Vh\\u0062GVk"),
                ENVELOPE.replace("c2VhbGVk", "c2Vh\\/GVk"),
                ENVELOPE.replace("c2VhbGVk", ""),
                ENVELOPE.replace("c2VhbGVk", "c2Vh中bGVk"),
                "{\"resource\":{\"ciphertext\":\"a\"}}")) {
            compareEnvelope(doc.getBytes(StandardCharsets.UTF_8));
            compareEnvelope(doc.getBytes(StandardCharsets.UTF_16BE));
        }
    }

    /** Random edits of valid documents, in the bytes that matter to a JSON reader. */
    @Test
    void mutationsAreRefusedOrReadExactlyAsTheTreeDoes() {
        Random random = new Random(20261130);
        byte[][] pieces = {
            b("\""),
            b("\\"),
            b("{"),
            b("}"),
            b("["),
            b("]"),
            b(":"),
            b(","),
            b(" "),
            b("\n"),
            b("-"),
            b("0"),
            b("-0"),
            b("1.5"),
            b("e5"),
            b("E"),
            b("\\u0041"),
            b("\\/"),
            b("\\ud800"),
            b("null"),
            b("true"),
            b("\"total\":"),
            b("\"amount\":"),
            b("\"appid\":"),
            b("\"id\":"),
            b("\"resource\":"),
            b("\"nonce\":"),
            {(byte) 0xC3, (byte) 0xA9},
            {(byte) 0xC3},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xE0, (byte) 0x80, (byte) 0x80},
            {(byte) 0xC0, (byte) 0xAF},
            {0},
            {(byte) 0xFF}
        };
        byte[][] seeds = {RESOURCE.getBytes(StandardCharsets.UTF_8), ENVELOPE.getBytes(StandardCharsets.UTF_8)};
        int accepted = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] doc = seeds[round % 2];
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                doc = edit(doc, random, pieces);
            }
            accepted += compareResource(doc) ? 1 : 0;
            compareEnvelope(doc);
        }
        assertTrue(accepted > 1000, "the mutations must leave many documents valid: " + accepted);
    }

    private static byte[] edit(byte[] doc, Random random, byte[][] pieces) {
        int at = random.nextInt(doc.length + 1);
        var out = new ByteArrayOutputStream();
        switch (random.nextInt(3)) {
            case 0 -> { // insert
                out.write(doc, 0, at);
                out.writeBytes(pieces[random.nextInt(pieces.length)]);
                out.write(doc, at, doc.length - at);
            }
            case 1 -> { // delete a few bytes
                int to = Math.min(doc.length, at + 1 + random.nextInt(3));
                out.write(doc, 0, at);
                out.write(doc, to, doc.length - to);
            }
            default -> { // replace a byte
                out.write(doc, 0, at);
                out.writeBytes(pieces[random.nextInt(pieces.length)]);
                if (at < doc.length) {
                    out.write(doc, at + 1, doc.length - at - 1);
                }
            }
        }
        return out.toByteArray();
    }

    /** True when the tree accepted the document. */
    private static boolean compareResource(byte[] doc) {
        JsonNode tree;
        try {
            tree = StrictJson.readObject(doc);
        } catch (StrictJson.Malformed e) {
            assertThrows(NotifyRejection.class, () -> WechatV3Json.readResource(doc), () -> show(doc));
            return false;
        }
        WechatV3Json.Resource r;
        try {
            r = WechatV3Json.readResource(doc);
        } catch (NotifyRejection e) {
            throw new AssertionError("refused what the tree reads: " + show(doc));
        }
        String at = show(doc);
        assertEquals(StrictJson.compact(tree), r.compact, at);
        for (String[] f : new String[][] {
            {"out_trade_no", r.outTradeNo},
            {"mchid", r.mchId},
            {"appid", r.appId},
            {"trade_state", r.tradeState},
            {"transaction_id", r.transactionId},
            {"success_time", r.successTime},
            {"refund_status", r.refundStatus},
            {"out_refund_no", r.outRefundNo},
            {"refund_id", r.refundId}
        }) {
            assertEquals(StrictJson.text(tree, f[0]), f[1], f[0] + " of " + at);
        }
        assertEquals(tree.has("appid"), r.hasAppId, at);
        assertEquals(carries(tree, "sp_mchid"), r.carriesSpMchid, at);
        assertEquals(carries(tree, "sub_mchid"), r.carriesSubMchid, at);
        JsonNode amount = tree.get("amount");
        assertEquals(amount != null && amount.isObject(), r.amount, at);
        JsonNode total = amount == null ? null : amount.get("total");
        JsonNode refund = amount == null ? null : amount.get("refund");
        assertEquals(WechatV3Adapter.fen(total), WechatV3Adapter.fen(r.totalKind, r.totalText), at);
        assertEquals(WechatV3Adapter.fen(refund), WechatV3Adapter.fen(r.refundKind, r.refundText), at);
        assertEquals(total == null || total.isNull(), r.totalKind <= WechatV3Json.NULL, at);
        assertEquals(refund == null || refund.isNull(), r.refundKind <= WechatV3Json.NULL, at);
        assertEquals(
                WechatV3Adapter.currency(amount),
                r.currencyGiven ? io.paynotify.provider.Fields.currencyOrInvalid(r.currency) : "CNY",
                at);
        return true;
    }

    private static void compareEnvelope(byte[] doc) {
        JsonNode tree;
        try {
            tree = StrictJson.readObject(doc);
        } catch (StrictJson.Malformed e) {
            assertThrows(NotifyRejection.class, () -> WechatV3Json.readEnvelope(doc), () -> show(doc));
            return;
        }
        WechatV3Json.Envelope e;
        try {
            e = WechatV3Json.readEnvelope(doc);
        } catch (NotifyRejection x) {
            throw new AssertionError("refused what the tree reads: " + show(doc));
        }
        String at = show(doc);
        assertEquals(StrictJson.text(tree, "id"), e.id, at);
        assertEquals(StrictJson.text(tree, "event_type"), e.eventType, at);
        JsonNode resource = tree.get("resource");
        assertEquals(resource != null && resource.isObject(), e.resource, at);
        if (e.resource) {
            assertEquals(StrictJson.text(resource, "algorithm"), e.algorithm, at);
            String ciphertext = e.ciphertextBytes == null
                    ? e.ciphertext
                    : new String(e.ciphertextBytes, e.ciphertextFrom, e.ciphertextLength, StandardCharsets.ISO_8859_1);
            assertEquals(StrictJson.text(resource, "ciphertext"), ciphertext, at);
            String text = StrictJson.text(resource, "ciphertext");
            assertEquals(text != null && !text.isEmpty(), e.hasCiphertext(), at);
            assertEquals(StrictJson.text(resource, "nonce"), e.nonce, at);
            JsonNode aad = resource.get("associated_data");
            assertEquals(aad != null && !aad.isNull() && !aad.isTextual(), e.associatedDataInvalid, at);
            assertEquals(aad == null || !aad.isTextual() ? null : aad.textValue(), e.associatedData, at);
        }
    }

    private static boolean carries(JsonNode r, String field) {
        JsonNode v = r.get(field);
        return v != null && !v.isNull();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String show(byte[] doc) {
        return Objects.toString(new String(doc, StandardCharsets.UTF_8)) + " "
                + java.util.HexFormat.of().formatHex(doc, 0, Math.min(doc.length, 16));
    }
}
