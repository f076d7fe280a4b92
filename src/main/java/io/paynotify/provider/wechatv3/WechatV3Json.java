package io.paynotify.provider.wechatv3;

import com.fasterxml.jackson.databind.JsonNode;
import io.paynotify.provider.NotifyRejection;
import io.paynotify.provider.NotifyRejection.Cause;
import io.paynotify.provider.StrictJson;

/**
 * The JSON reading of the v3 envelope and of the decrypted resource, on {@link StrictJson} (duplicate keys refused,
 * depth and numbers bounded, trailing tokens refused), with the notify route's rejections.
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
}
