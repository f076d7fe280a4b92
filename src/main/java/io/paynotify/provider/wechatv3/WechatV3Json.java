package io.paynotify.provider.wechatv3;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.RawNotify;
import java.io.IOException;

/**
 * The JSON reading of the v3 envelope and of the decrypted resource: a tree (no data binding, so no reflection and
 * nothing native builds must register), tolerant of fields it does not know, strict about everything else. A key
 * given twice is refused rather than silently resolved to its last value (two {@code amount} objects would let the
 * stored body and the checked amount disagree); nesting and number lengths are bounded; trailing tokens after the
 * object are refused.
 */
final class WechatV3Json {

    /** Deeper than anything WeChat sends ({@code promotion_detail[].goods_detail[]} is four levels). */
    static final int MAX_DEPTH = 16;

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH)
                            .maxNumberLength(64)
                            .maxStringLength(RawNotify.MAX_BODY_BYTES)
                            .build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private WechatV3Json() {}

    /**
     * Reads one JSON object from UTF-8 bytes.
     *
     * @throws NotifyRejection 400 when the bytes are not exactly one well-formed JSON object
     */
    static JsonNode readObject(byte[] bytes) throws NotifyRejection {
        JsonNode node;
        try {
            node = MAPPER.readTree(bytes);
        } catch (JacksonException e) {
            throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
        } catch (IOException e) {
            // a byte array cannot fail to be read; treat it like any other unreadable body
            throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
        }
        if (node == null || !node.isObject()) {
            throw NotifyRejection.badRequest(Cause.UNPARSEABLE);
        }
        return node;
    }

    /** The field's value when it is a JSON string, else null (absent, null, a number, an object...). */
    static String text(JsonNode object, String field) {
        JsonNode v = object == null ? null : object.get(field);
        return v != null && v.isTextual() ? v.textValue() : null;
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
        try {
            return MAPPER.writeValueAsString(object);
        } catch (JacksonException e) {
            throw new IllegalStateException("a parsed tree cannot fail to serialise", e);
        }
    }
}
