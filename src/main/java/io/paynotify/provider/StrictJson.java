package io.paynotify.provider;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * The JSON reading of provider messages (the v3 envelope, resource and query answers, Alipay's query answers): a
 * tree (no data binding, so no reflection and nothing native builds must register), tolerant of fields it does not
 * know, strict about everything else. A key given twice is refused rather than silently resolved to its last value
 * (two {@code amount} objects would let the stored body and the checked amount disagree); nesting and number
 * lengths are bounded; trailing tokens after the object are refused.
 */
public final class StrictJson {

    /** Deeper than anything the providers send (v3 {@code promotion_detail[].goods_detail[]} is four levels). */
    public static final int MAX_DEPTH = 16;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .maxNumberLength(64)
                    .maxStringLength(RawNotify.MAX_BODY_BYTES)
                    .build())
            .build();

    private static final ObjectMapper MAPPER = JsonMapper.builder(FACTORY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private StrictJson() {}

    /** The text was not exactly one well-formed JSON object. */
    public static final class Malformed extends Exception {
        public Malformed() {
            super(null, null, false, false);
        }
    }

    /** Reads one JSON object from UTF-8 bytes. */
    public static JsonNode readObject(byte[] bytes) throws Malformed {
        try {
            return object(MAPPER.readTree(bytes));
        } catch (IOException e) {
            // JacksonException (malformed) or, from a byte array, nothing else: the same answer
            throw new Malformed();
        }
    }

    /**
     * A streaming parser over the text, with the same limits and duplicate detection as the tree reading, for callers
     * that need where a value stands in the text ({@link JsonParser#currentTokenLocation()}); its failures are
     * {@link IOException}s.
     */
    public static JsonParser parser(String text) throws Malformed {
        try {
            return MAPPER.createParser(text);
        } catch (IOException e) {
            throw new Malformed();
        }
    }

    /**
     * A streaming parser over UTF-8 (or BOM/heuristically detected UTF-16/32) bytes, exactly as {@link
     * #readObject(byte[])} reads them (same factory, limits and duplicate detection); the caller must check the
     * root is an object and that nothing follows it. Its failures are {@link IOException}s.
     */
    public static JsonParser parser(byte[] bytes) throws Malformed {
        try {
            return MAPPER.createParser(bytes);
        } catch (IOException e) {
            throw new Malformed();
        }
    }

    /** Reads one JSON object from text. */
    public static JsonNode readObject(String text) throws Malformed {
        try {
            return object(MAPPER.readTree(text));
        } catch (IOException e) {
            throw new Malformed();
        }
    }

    private static JsonNode object(JsonNode node) throws Malformed {
        if (node == null || !node.isObject()) {
            throw new Malformed();
        }
        return node;
    }

    /** The field's value when it is a JSON string, else null (absent, null, a number, an object...). */
    public static String text(JsonNode object, String field) {
        JsonNode v = object == null ? null : object.get(field);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    /** The object as compact JSON text. */
    public static String compact(JsonNode object) {
        try {
            return MAPPER.writeValueAsString(object);
        } catch (JacksonException e) {
            throw new IllegalStateException("a parsed tree cannot fail to serialise", e);
        }
    }
}
