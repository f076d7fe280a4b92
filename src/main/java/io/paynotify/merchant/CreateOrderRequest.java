package io.paynotify.merchant;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
import io.paynotify.core.money.MinorUnits;
import io.paynotify.core.order.OutTradeNo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The body of {@code POST /api/v1/orders}, parsed strictly from the raw bytes (docs/api.md "Orders"). Strict on
 * purpose, as merchant DTOs should be: an unknown field, a repeated field, a value of the wrong JSON type, a string
 * amount, a fraction or an exponent, trailing content, or anything but one JSON object is {@code 400} naming the
 * field (or {@code body}). A null value counts as absent.
 *
 * @param channel the configured channel
 * @param outTradeNo the merchant's order number
 * @param amount fen, 1..10,000,000,000
 * @param currency always CNY in this version
 * @param description optional, at most {@link #MAX_DESCRIPTION} characters, no control characters
 * @param subMerchantId the sub-merchant: required on service-provider and ISV channels, refused on direct ones
 * @param subAppId the sub-merchant's app id: optional on service-provider channels, refused elsewhere
 */
record CreateOrderRequest(
        Channel channel,
        String outTradeNo,
        long amount,
        String currency,
        String description,
        String subMerchantId,
        String subAppId) {

    static final int MAX_DESCRIPTION = 256;
    static final String CURRENCY = "CNY";
    private static final Set<String> FIELDS =
            Set.of("channel", "outTradeNo", "amount", "currency", "description", "subMerchantId", "subAppId");
    private static final Pattern ISO_4217_SHAPE = Pattern.compile("[A-Z]{3}");
    private static final JsonFactory JSON = JsonFactory.builder().build();

    /** Parses and validates; the first broken rule wins, fields in the order of the contract's JSON. */
    static CreateOrderRequest parse(byte[] body, Function<String, Optional<Channel>> channels) throws InvalidRequest {
        Map<String, Object> fields = readObject(body);
        Channel channel = channel(fields.get("channel"), channels);
        String outTradeNo = outTradeNo(fields.get("outTradeNo"), channel);
        long amount = amount(fields.get("amount"));
        String currency = currency(fields.get("currency"));
        String description = description(fields.get("description"));
        String subMerchantId = subMerchantId(fields.get("subMerchantId"), channel.mode());
        String subAppId = subAppId(fields.get("subAppId"), channel.mode());
        return new CreateOrderRequest(channel, outTradeNo, amount, currency, description, subMerchantId, subAppId);
    }

    /** Required, in its mode's shape, on service-provider and ISV channels; refused on a direct channel. */
    private static String subMerchantId(Object value, AccountMode mode) throws InvalidRequest {
        if (!mode.hasSubMerchants()) {
            if (value != null) {
                throw new InvalidRequest("subMerchantId", "subMerchantId is only for partner and isv channels");
            }
            return null;
        }
        if (value == null) {
            throw new InvalidRequest("subMerchantId", "subMerchantId is required on a " + mode.value() + " channel");
        }
        if (!(value instanceof String id) || !mode.subMerchantId().matcher(id).matches()) {
            throw new InvalidRequest(
                    "subMerchantId",
                    "subMerchantId must match " + mode.subMerchantId().pattern() + " on this channel");
        }
        return id;
    }

    /** Optional, {@code [A-Za-z0-9_]{1,32}}, on service-provider channels; refused elsewhere. */
    private static String subAppId(Object value, AccountMode mode) throws InvalidRequest {
        if (value == null) {
            return null;
        }
        if (!mode.allowsSubAppId()) {
            throw new InvalidRequest("subAppId", "subAppId is only for partner channels");
        }
        if (!(value instanceof String id) || !AccountMode.SUB_APP_ID.matcher(id).matches()) {
            throw new InvalidRequest("subAppId", "subAppId must match " + AccountMode.SUB_APP_ID.pattern());
        }
        return id;
    }

    /** A channel path or body value: a configured channel name, else 400 naming {@code channel}. */
    static Channel channel(Object value, Function<String, Optional<Channel>> channels) throws InvalidRequest {
        if (value == null) {
            throw new InvalidRequest("channel", "channel is required");
        }
        if (!(value instanceof String name)) {
            throw new InvalidRequest("channel", "channel must be a string");
        }
        return channels.apply(name).orElseThrow(() -> new InvalidRequest("channel", "channel is not a known channel"));
    }

    /** An outTradeNo: {@code [A-Za-z0-9_\-|*]{1,64}}, at most 32 characters on WeChat channels. */
    static String outTradeNo(Object value, Channel channel) throws InvalidRequest {
        if (value == null) {
            throw new InvalidRequest("outTradeNo", "outTradeNo is required");
        }
        if (!(value instanceof String no) || !OutTradeNo.isValid(no, OutTradeNo.MAX_LENGTH)) {
            throw new InvalidRequest("outTradeNo", "outTradeNo must match " + OutTradeNo.SHAPE);
        }
        if (no.length() > channel.maxOutTradeNo()) {
            throw new InvalidRequest(
                    "outTradeNo",
                    "outTradeNo must be at most " + channel.maxOutTradeNo() + " characters on this channel's provider");
        }
        return no;
    }

    private static long amount(Object value) throws InvalidRequest {
        if (value == null) {
            throw new InvalidRequest("amount", "amount is required");
        }
        if (!(value instanceof Long fen)) {
            throw new InvalidRequest(
                    "amount", "amount must be a JSON integer in fen (no fraction, no exponent, " + "not a string)");
        }
        if (fen < 1 || fen > MinorUnits.MAX_ORDER_AMOUNT) {
            throw new InvalidRequest("amount", "amount must be between 1 and " + MinorUnits.MAX_ORDER_AMOUNT);
        }
        return fen;
    }

    private static String currency(Object value) throws InvalidRequest {
        if (value == null) {
            return CURRENCY;
        }
        if (!(value instanceof String code) || !ISO_4217_SHAPE.matcher(code).matches()) {
            throw new InvalidRequest("currency", "currency must be an ISO 4217 code");
        }
        if (!CURRENCY.equals(code)) {
            throw new InvalidRequest("currency", "currency must be CNY in this version");
        }
        return code;
    }

    private static String description(Object value) throws InvalidRequest {
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text)) {
            throw new InvalidRequest("description", "description must be a string");
        }
        if (text.codePointCount(0, text.length()) > MAX_DESCRIPTION) {
            throw new InvalidRequest("description", "description must be at most " + MAX_DESCRIPTION + " characters");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c)) {
                // NUL cannot be stored in PostgreSQL text; other controls have no place in a description
                throw new InvalidRequest("description", "description must not contain control characters");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidRequest("description", "description must be valid Unicode");
            }
        }
        return text;
    }

    /**
     * One JSON object of scalar members: strings as String, integers that fit a long as Long, other numbers as
     * Double, big integers as a marker, booleans as Boolean; null values are left out.
     */
    private static Map<String, Object> readObject(byte[] body) throws InvalidRequest {
        if (body.length == 0) {
            throw new InvalidRequest("body", "the body must be a JSON object");
        }
        if (!isUtf8(body)) {
            // Jackson decodes some malformed sequences (overlong forms such as C0 AF) instead of refusing them
            throw new InvalidRequest("body", "the body must be UTF-8");
        }
        var out = new HashMap<String, Object>();
        var seen = new java.util.HashSet<String>();
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new InvalidRequest("body", "the body must be a JSON object");
            }
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                String name = p.currentName();
                if (!seen.add(name)) {
                    throw new InvalidRequest(safeName(name), "a field must not appear twice");
                }
                if (!FIELDS.contains(name)) {
                    throw new InvalidRequest(safeName(name), "unknown field");
                }
                JsonToken value = p.nextToken();
                switch (value) {
                    case VALUE_STRING -> out.put(name, p.getText());
                    case VALUE_NUMBER_INT ->
                        out.put(
                                name,
                                p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                                        ? (Object) Double.NaN
                                        : (Object) p.getLongValue());
                    case VALUE_NUMBER_FLOAT -> out.put(name, Double.NaN);
                    case VALUE_TRUE, VALUE_FALSE -> out.put(name, Boolean.valueOf(value == JsonToken.VALUE_TRUE));
                    case VALUE_NULL -> {
                        // null counts as absent
                    }
                    default -> throw new InvalidRequest(name, name + " must be a scalar value");
                }
            }
            if (p.nextToken() != null) {
                throw new InvalidRequest("body", "the body must hold exactly one JSON object");
            }
        } catch (JsonProcessingException e) {
            throw new InvalidRequest("body", "the body is not valid JSON");
        } catch (IOException e) {
            throw new InvalidRequest("body", "the body is not valid JSON");
        }
        return out;
    }

    private static boolean isUtf8(byte[] body) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** An unknown field's name is echoed only when it is short printable ASCII; else it is called {@code body}. */
    private static String safeName(String name) {
        return name.length() <= 64 && name.chars().allMatch(ch -> ch > 0x20 && ch < 0x7F) ? name : "body";
    }
}
