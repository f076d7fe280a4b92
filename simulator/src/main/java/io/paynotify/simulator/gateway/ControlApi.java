package io.paynotify.simulator.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulator's own HTTP API, on the gateway's port, for the CLI and for integrators with curl:
 *
 * <pre>
 * PUT    /_sim/trades/{outTradeNo}  {"state":"PAID","amount":100,"transactionId":null,"paidAt":null,
 *                                    "fault":"NONE","delayMillis":0,"rawState":null}   → 204 (only state required)
 * GET    /_sim/trades/{outTradeNo}  → the script and "queries": n; 404 when unscripted
 * GET    /_sim/requests             → {"items":[{"api","outTradeNo","accepted","rejection","receivedAt"}]}
 * DELETE /_sim/trades               → 204; forgets scripts, owners, recorded requests and the certificate rotation
 * </pre>
 *
 * Errors are {@code {"message":"…"}}: 400 for a body that is not such JSON, 404 and 405 for other paths and methods.
 */
final class ControlApi {

    static final String PREFIX = "/_sim/";
    private static final String TRADES = "/_sim/trades";
    private static final long MAX_DELAY_MILLIS = 600_000;
    private static final Set<String> FIELDS =
            Set.of(
                    "state",
                    "amount",
                    "transactionId",
                    "paidAt",
                    "fault",
                    "delayMillis",
                    "rawState",
                    "subMerchant",
                    "subAppId");

    private final Trades trades;
    private final TradeOwners owners;
    private final ObjectMapper json;
    private final Runnable alsoReset;

    /** {@code alsoReset}: what else {@code DELETE /_sim/trades} forgets (the Alipay certificate rotation). */
    ControlApi(Trades trades, TradeOwners owners, ObjectMapper json, Runnable alsoReset) {
        this.trades = trades;
        this.owners = owners;
        this.json = json;
        this.alsoReset = alsoReset;
    }

    Reply handle(ReceivedRequest request) {
        String path = request.rawPath();
        String method = request.method();
        if (path.equals("/_sim/requests")) {
            return method.equals("GET") ? requests() : notAllowed("GET");
        }
        if (path.equals(TRADES) || path.equals(TRADES + "/")) {
            return method.equals("DELETE") ? reset() : notAllowed("DELETE");
        }
        if (path.startsWith(TRADES + "/")) {
            String outTradeNo;
            try {
                outTradeNo = ReceivedRequest.decodePathSegment(path.substring(TRADES.length() + 1));
            } catch (IllegalArgumentException e) {
                return message(400, "bad out_trade_no in the path: " + e.getMessage());
            }
            if (outTradeNo.isEmpty() || outTradeNo.contains("/")) {
                return message(404, "no such path; see PUT/GET /_sim/trades/{outTradeNo}");
            }
            return switch (method) {
                case "PUT" -> script(outTradeNo, request.body());
                case "GET" -> show(outTradeNo);
                default -> notAllowed("PUT, GET");
            };
        }
        return message(404, "no such path; the control API is /_sim/trades/{outTradeNo}, /_sim/trades, /_sim/requests");
    }

    private Reply script(String outTradeNo, byte[] body) {
        ScriptedTrade trade;
        String subMerchant;
        String subAppId;
        try {
            trade = parse(body);
            JsonNode root = json.readTree(body);
            subMerchant = text(root.get("subMerchant"), "subMerchant");
            subAppId = text(root.get("subAppId"), "subAppId");
        } catch (IllegalArgumentException e) {
            return message(400, e.getMessage());
        } catch (IOException e) {
            return message(400, "the body is not JSON: " + e.getMessage());
        }
        if (subMerchant == null && subAppId != null) {
            return message(400, "\"subAppId\" needs \"subMerchant\"");
        }
        trades.script(outTradeNo, trade);
        owners.script(outTradeNo, subMerchant, subAppId);
        return Reply.empty(204);
    }

    private ScriptedTrade parse(byte[] body) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not JSON: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the body must be a JSON object with at least \"state\"");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field \"" + name + "\"; known: " + FIELDS);
            }
        }
        TradeState state = enumValue(TradeState.class, root.get("state"), "state", null);
        long amount = longValue(root.get("amount"), "amount", 1);
        if (amount < 0) {
            throw new IllegalArgumentException("\"amount\" (fen) must not be negative");
        }
        long delayMillis = longValue(root.get("delayMillis"), "delayMillis", 0);
        if (delayMillis < 0 || delayMillis > MAX_DELAY_MILLIS) {
            throw new IllegalArgumentException("\"delayMillis\" must be within 0.." + MAX_DELAY_MILLIS);
        }
        return new ScriptedTrade(
                state,
                amount,
                text(root.get("transactionId"), "transactionId"),
                instant(root.get("paidAt")),
                enumValue(Fault.class, root.get("fault"), "fault", Fault.NONE),
                Duration.ofMillis(delayMillis),
                text(root.get("rawState"), "rawState"));
    }

    private Reply show(String outTradeNo) {
        return trades.scripted(outTradeNo)
                .map(trade -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("outTradeNo", outTradeNo);
                    body.put("state", trade.state().name());
                    body.put("amount", trade.amountFen());
                    body.put("transactionId", trade.transactionId());
                    body.put("paidAt", trade.paidAt().toString());
                    body.put("fault", trade.fault().name());
                    body.put("delayMillis", trade.delay().toMillis());
                    body.put("rawState", trade.rawState());
                    TradeOwners.Owner owner = owners.scripted(outTradeNo);
                    body.put("subMerchant", owner == null ? null : owner.subMerchant());
                    body.put("subAppId", owner == null ? null : owner.subAppId());
                    body.put("queries", trades.queryCount(outTradeNo));
                    return Reply.json(200, write(body));
                })
                .orElseGet(
                        () -> message(404, "out_trade_no " + outTradeNo + " is not scripted (it answers NOT_FOUND)"));
    }

    private Reply requests() {
        List<Map<String, Object>> items = new ArrayList<>();
        for (RecordedRequest r : trades.requests()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("api", r.api().name());
            item.put("outTradeNo", r.outTradeNo());
            item.put("accepted", r.accepted());
            item.put("rejection", r.rejection());
            item.put("receivedAt", r.receivedAt().toString());
            items.add(item);
        }
        return Reply.json(200, write(Map.of("items", items)));
    }

    private Reply reset() {
        trades.reset();
        owners.reset();
        alsoReset.run();
        return Reply.empty(204);
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, JsonNode node, String field, E fallback) {
        if (node == null || node.isNull()) {
            if (fallback == null) {
                throw new IllegalArgumentException(
                        "\"" + field + "\" is required, one of " + Arrays.toString(type.getEnumConstants()));
            }
            return fallback;
        }
        try {
            return Enum.valueOf(type, node.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "\"" + field + "\" must be one of " + Arrays.toString(type.getEnumConstants()) + ", not " + node);
        }
    }

    private static long longValue(JsonNode node, String field, long fallback) {
        if (node == null || node.isNull()) {
            return fallback;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new IllegalArgumentException("\"" + field + "\" must be an integer, not " + node);
        }
        return node.asLong();
    }

    private static String text(JsonNode node, String field) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a string or null, not " + node);
        }
        return node.asText();
    }

    /** An ISO-8601 instant ({@code 2024-05-01T02:00:00Z}) or offset date-time ({@code …T10:00:00+08:00}). */
    private static Instant instant(JsonNode node) {
        String text = text(node, "paidAt");
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("\"paidAt\" must be an ISO-8601 date-time with offset, e.g. "
                    + "2024-05-01T10:00:00+08:00, not " + text);
        }
    }

    private Reply notAllowed(String allowed) {
        return message(405, "method not allowed here; allowed: " + allowed).withHeader("Allow", allowed);
    }

    private Reply message(int status, String message) {
        return Reply.json(status, write(Map.of("message", message)));
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }
}
