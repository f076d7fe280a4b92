package io.paynotify.simulator.gateway;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** One gateway's scripts and the query requests it received. Thread-safe; nothing is shared between gateways. */
final class Trades {

    /** Oldest requests are forgotten past this many, so a long {@code serve} stays small; counts stay exact. */
    static final int MAX_RECORDED = 10_000;

    private final Map<String, ScriptedTrade> scripts = new ConcurrentHashMap<>();
    private final ArrayDeque<RecordedRequest> requests = new ArrayDeque<>(); // guarded by this
    private final Map<String, Long> counts = new HashMap<>(); // guarded by this

    void script(String outTradeNo, ScriptedTrade trade) {
        scripts.put(Objects.requireNonNull(outTradeNo, "outTradeNo"), Objects.requireNonNull(trade, "trade"));
    }

    Optional<ScriptedTrade> scripted(String outTradeNo) {
        return Optional.ofNullable(outTradeNo == null ? null : scripts.get(outTradeNo));
    }

    /** What the providers answer about {@code outTradeNo}: its script, else NOT_FOUND without fault. */
    ScriptedTrade answerFor(String outTradeNo) {
        return scripted(outTradeNo).orElseGet(() -> ScriptedTrade.of(TradeState.NOT_FOUND, 0));
    }

    synchronized void record(RecordedRequest request) {
        if (requests.size() >= MAX_RECORDED) {
            requests.removeFirst();
        }
        requests.addLast(request);
        if (request.outTradeNo() != null) {
            counts.merge(request.outTradeNo(), 1L, Long::sum);
        }
    }

    synchronized List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    synchronized long queryCount(String outTradeNo) {
        return counts.getOrDefault(outTradeNo, 0L);
    }

    synchronized void reset() {
        scripts.clear();
        requests.clear();
        counts.clear();
    }
}
