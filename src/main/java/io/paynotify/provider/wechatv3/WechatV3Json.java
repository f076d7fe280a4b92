package io.paynotify.provider.wechatv3;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.StrictJson;
import io.paynotify.provider.Utf8;
import java.io.IOException;

/**
 * The JSON reading of the v3 envelope and of the decrypted resource, on {@link StrictJson} (duplicate keys refused,
 * depth and numbers bounded, trailing tokens refused), with the notify route's rejections.
 *
 * <p>A notification is read in one streaming pass per document ({@link #readEnvelope}, {@link #readResource}):
 * the parser is {@link StrictJson}'s, every token of the document is read and every string and number finished
 * exactly as the tree reading does (so the same bytes are refused), but only the fields the adapter needs become
 * Java objects. The query path keeps the tree ({@link #readObject}).
 */
final class WechatV3Json {

    private WechatV3Json() {}

    /**
     * Reads one JSON object from UTF-8 bytes.
     *
     * @throws NotifyRejection 400 when the bytes are not exactly one well-formed JSON object
     */
    static JsonNode readObject(byte[] bytes) throws NotifyRejection {
        try {
            return StrictJson.readObject(bytes);
        } catch (StrictJson.Malformed e) {
            throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
        }
    }

    /** The field's value when it is a JSON string, else null (absent, null, a number, an object...). */
    static String text(JsonNode object, String field) {
        return StrictJson.text(object, field);
    }

    /** The field's value when it is a non-empty JSON string. */
    static String requiredText(JsonNode object, String field) throws NotifyRejection {
        String v = text(object, field);
        if (v == null || v.isEmpty()) {
            throw NotifyRejection.badRequest(Cause.MISSING_FIELD);
        }
        return v;
    }

    /** The object as compact JSON text, for the stored {@code decoded} column. */
    static String compact(JsonNode object) {
        return StrictJson.compact(object);
    }

    // ------------------------------------------------------------------ the streaming pass of a notification

    /** What the adapter reads of the envelope; a field that is not a JSON string is null, as {@link #text}. */
    static final class Envelope {
        String id;
        String eventType;
        /** {@code resource} is present and a JSON object. */
        boolean resource;

        String algorithm;
        /** The ciphertext when a string read as text; null when absent, not a string, or read in place. */
        String ciphertext;
        /** When non-null, the ciphertext string is {@code ciphertextBytes[ciphertextFrom, +ciphertextLength)}. */
        byte[] ciphertextBytes;

        int ciphertextFrom;
        int ciphertextLength;

        /** {@code ciphertext} is a non-empty JSON string (as {@link #requiredText} requires). */
        boolean hasCiphertext() {
            return ciphertextBytes != null ? ciphertextLength > 0 : ciphertext != null && !ciphertext.isEmpty();
        }

        String nonce;
        /** {@code associated_data} when a string; null when absent or JSON null. */
        String associatedData;
        /** {@code associated_data} is present and neither a string nor JSON null. */
        boolean associatedDataInvalid;
    }

    /**
     * The envelope in one pass: {@code id}, {@code event_type} and the resource's {@code algorithm},
     * {@code ciphertext}, {@code nonce} and {@code associated_data}; everything else is read and checked, not kept.
     *
     * @throws NotifyRejection 400 when the bytes are not exactly one well-formed JSON object
     */
    static Envelope readEnvelope(byte[] body) throws NotifyRejection {
        Envelope e = new Envelope();
        try (JsonParser p = StrictJson.parser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                switch (name) {
                    case "id" -> e.id = textOrSkip(p, t);
                    case "event_type" -> e.eventType = textOrSkip(p, t);
                    case "resource" -> {
                        if (t == JsonToken.START_OBJECT) {
                            e.resource = true;
                            readEncrypted(p, e, body);
                        } else {
                            skip(p, t);
                        }
                    }
                    default -> skip(p, t);
                }
            }
            end(p);
        } catch (IOException | StrictJson.Malformed x) {
            throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
        }
        return e;
    }

    /** The resource object's fields; the parser stands on its START_OBJECT and ends on its END_OBJECT. */
    private static void readEncrypted(JsonParser p, Envelope e, byte[] body) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (name) {
                case "algorithm" -> e.algorithm = textOrSkip(p, t);
                case "ciphertext" -> {
                    if (t != JsonToken.VALUE_STRING || !rawRange(p, body, e)) {
                        e.ciphertext = textOrSkip(p, t);
                    }
                }
                case "nonce" -> e.nonce = textOrSkip(p, t);
                case "associated_data" -> {
                    if (t == JsonToken.VALUE_STRING) {
                        e.associatedData = p.getText();
                    } else if (t != JsonToken.VALUE_NULL) {
                        e.associatedDataInvalid = true;
                        skip(p, t);
                    }
                }
                default -> skip(p, t);
            }
        }
    }

    /**
     * The string the parser stands on as a range of the body, when its raw bytes are its text (ASCII, no escape):
     * base64 is decoded from there, without a String of it. The parser still reads the string on its next token.
     */
    private static boolean rawRange(JsonParser p, byte[] body, Envelope e) {
        long quote = p.currentTokenLocation().getByteOffset();
        if (quote < 0 || quote >= body.length || body[(int) quote] != '"') {
            return false; // not UTF-8 bytes read in place (a UTF-16/32 body), or not where expected
        }
        int from = (int) quote + 1;
        for (int i = from; i < body.length; i++) {
            byte b = body[i];
            if (b == '"') {
                e.ciphertextBytes = body;
                e.ciphertextFrom = from;
                e.ciphertextLength = i - from;
                return true;
            }
            if (b == '\\' || b < 0x20) {
                return false; // an escape (or a control character, which the parser refuses): read it as text
            }
        }
        return false;
    }

    /** A number's shape, as the tree reading would see it. */
    static final byte MISSING = 0;

    static final byte NULL = 1;
    static final byte INTEGRAL = 2;
    static final byte OTHER = 3;

    /** What the adapter reads of a decrypted resource; a field that is not a JSON string is null, as {@link #text}. */
    static final class Resource {
        String outTradeNo;
        String mchId;
        String appId;
        /** {@code appid} is present, whatever its value (JSON null included). */
        boolean hasAppId;

        String tradeState;
        String transactionId;
        String successTime;
        String refundStatus;
        String outRefundNo;
        String refundId;
        /** {@code sp_mchid} / {@code sub_mchid} present and not JSON null. */
        boolean carriesSpMchid;

        boolean carriesSubMchid;
        /** {@code mchid} / {@code appid} present and not JSON null (a direct id in a partner resource). */
        boolean carriesMchid;

        boolean carriesAppId;
        /** The service-provider ids of a partner resource, when JSON strings. */
        String spMchId;

        String subMchId;
        String spAppId;
        /** {@code sp_appid} is present, whatever its value (JSON null included). */
        boolean hasSpAppId;

        String subAppId;
        /** {@code amount} is present and a JSON object. */
        boolean amount;
        /** {@code amount.total}, {@code amount.refund}: {@link #MISSING}, {@link #NULL}, {@link #INTEGRAL}, {@link #OTHER}. */
        byte totalKind;

        byte refundKind;
        /** The integral value as the tree's {@code asText()} gives it (so {@code -0} is {@code 0}). */
        String totalText;

        String refundText;
        /** {@code amount.currency} is present and not JSON null. */
        boolean currencyGiven;
        /** {@code amount.currency} when a string. */
        String currency;
        /** The resource as compact JSON text, exactly as {@link #compact} renders its tree. */
        String compact;
    }

    /**
     * The decrypted resource in one pass, with its compact text for the {@code decoded} column.
     *
     * @throws NotifyRejection 400 when the bytes are not exactly one well-formed JSON object
     */
    static Resource readResource(byte[] plain) throws NotifyRejection {
        Resource r = new Resource();
        try (JsonParser p = StrictJson.parser(plain)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                switch (name) {
                    case "out_trade_no" -> r.outTradeNo = textOrSkip(p, t);
                    case "mchid" -> {
                        r.carriesMchid = t != JsonToken.VALUE_NULL;
                        r.mchId = textOrSkip(p, t);
                    }
                    case "appid" -> {
                        r.hasAppId = true;
                        r.carriesAppId = t != JsonToken.VALUE_NULL;
                        r.appId = textOrSkip(p, t);
                    }
                    case "sp_appid" -> {
                        r.hasSpAppId = true;
                        r.spAppId = textOrSkip(p, t);
                    }
                    case "sub_appid" -> r.subAppId = textOrSkip(p, t);
                    case "trade_state" -> r.tradeState = textOrSkip(p, t);
                    case "transaction_id" -> r.transactionId = textOrSkip(p, t);
                    case "success_time" -> r.successTime = textOrSkip(p, t);
                    case "refund_status" -> r.refundStatus = textOrSkip(p, t);
                    case "out_refund_no" -> r.outRefundNo = textOrSkip(p, t);
                    case "refund_id" -> r.refundId = textOrSkip(p, t);
                    case "sp_mchid" -> {
                        r.carriesSpMchid = t != JsonToken.VALUE_NULL;
                        r.spMchId = textOrSkip(p, t);
                    }
                    case "sub_mchid" -> {
                        r.carriesSubMchid = t != JsonToken.VALUE_NULL;
                        r.subMchId = textOrSkip(p, t);
                    }
                    case "amount" -> {
                        if (t == JsonToken.START_OBJECT) {
                            r.amount = true;
                            readAmount(p, r);
                        } else {
                            skip(p, t);
                        }
                    }
                    default -> skip(p, t);
                }
            }
            end(p);
        } catch (IOException | StrictJson.Malformed x) {
            throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
        }
        r.compact = compactText(plain);
        return r;
    }

    private static void readAmount(JsonParser p, Resource r) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (name) {
                case "total" -> {
                    r.totalKind = kind(t);
                    r.totalText =
                            t == JsonToken.VALUE_NUMBER_INT ? p.getNumberValue().toString() : null;
                    skip(p, t);
                }
                case "refund" -> {
                    r.refundKind = kind(t);
                    r.refundText =
                            t == JsonToken.VALUE_NUMBER_INT ? p.getNumberValue().toString() : null;
                    skip(p, t);
                }
                case "currency" -> {
                    r.currencyGiven = t != JsonToken.VALUE_NULL;
                    r.currency = textOrSkip(p, t);
                }
                default -> skip(p, t);
            }
        }
    }

    private static byte kind(JsonToken t) {
        return t == JsonToken.VALUE_NULL ? NULL : t == JsonToken.VALUE_NUMBER_INT ? INTEGRAL : OTHER;
    }

    /** The string value, or null after reading past any other value. */
    private static String textOrSkip(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        skip(p, t);
        return null;
    }

    /**
     * Reads past the value the parser stands on, finishing every string and number as the tree reading does (a
     * lazily skipped string or an unread number could let bytes through that the tree refuses).
     */
    private static void skip(JsonParser p, JsonToken t) throws IOException {
        int depth = 0;
        while (true) {
            if (t == null) {
                throw new IOException("unexpected end of input");
            }
            switch (t) {
                case START_OBJECT, START_ARRAY -> depth++;
                case END_OBJECT, END_ARRAY -> depth--;
                case VALUE_STRING -> p.getTextLength();
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberValue();
                default -> {}
            }
            if (depth == 0) {
                return;
            }
            t = p.nextToken();
        }
    }

    /** The root object has ended: nothing but whitespace may follow (the tree's FAIL_ON_TRAILING_TOKENS). */
    private static void end(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
            throw new IOException("not exactly one object");
        }
    }

    /**
     * The compact text of a resource that has just parsed as one strict JSON object. When the bytes already are
     * that text — UTF-8 without whitespace between tokens, no escape in a string, integers only and no {@code -0} —
     * they are decoded as they are (in the same scan); otherwise (rare: WeChat sends compact JSON) the tree is read
     * and written as before. Both give the same text: Jackson writes names and strings unescaped unless they hold
     * a quote, a backslash or a control character, none of which an escape-free string can hold.
     */
    static String compactText(byte[] b) throws NotifyRejection {
        int n = b.length;
        char[] out = new char[n];
        int k = 0;
        boolean inString = false;
        for (int i = 0; i < n; i++) {
            int c = b[i];
            if (inString) {
                if (c >= 0x20) {
                    if (c == '"') {
                        inString = false;
                    } else if (c == '\\') {
                        return treeCompact(b); // an escape
                    }
                    out[k++] = (char) c;
                    continue;
                }
                if (c >= 0) {
                    return treeCompact(b); // a control character (the parser refuses it anyway)
                }
                int cp = Utf8.codePoint(b, i, n);
                if (cp < 0) {
                    return treeCompact(b);
                }
                if (cp < 0x10000) {
                    out[k++] = (char) cp;
                    i += cp < 0x800 ? 1 : 2;
                } else {
                    out[k++] = Character.highSurrogate(cp);
                    out[k++] = Character.lowSurrogate(cp);
                    i += 3;
                }
                continue;
            }
            switch (c) {
                case '"' -> inString = true;
                case 'e', 'E' -> {
                    if (i > 0 && b[i - 1] >= '0' && b[i - 1] <= '9') {
                        return treeCompact(b); // an exponent
                    }
                }
                case '-' -> {
                    if (i + 1 < n && b[i + 1] == '0') {
                        return treeCompact(b); // -0 is written 0
                    }
                }
                default -> {
                    if (c <= ' ' || c == '.') {
                        // whitespace, a fraction, a UTF-16/32 text's zero bytes, a byte-order mark or any other
                        // non-ASCII byte outside a string
                        return treeCompact(b);
                    }
                }
            }
            out[k++] = (char) c;
        }
        return new String(out, 0, k);
    }

    private static String treeCompact(byte[] b) throws NotifyRejection {
        return compact(readObject(b));
    }
}
