package io.paynotify.simulator.gateway;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What every query API answers for one out_trade_no.
 *
 * @param state the trade's state
 * @param amountFen the order amount in fen (Alipay answers it in yuan, {@code 100} → {@code "1.00"})
 * @param transactionId WeChat {@code transaction_id} / Alipay {@code trade_no}; null generates one
 * @param paidAt the payment time (v2 {@code time_end}, v3 {@code success_time}, Alipay {@code send_pay_date}), sent
 *     only for paid states; null means now
 * @param fault what goes wrong with the answer; null means {@link Fault#NONE}
 * @param delay how long {@link Fault#SLOW} waits before answering; null means zero
 * @param rawState a provider state string sent instead of the one {@code state} maps to (e.g. {@code "WEIRD"}); the
 *     answer is otherwise built from {@code state}; null means none
 */
public record ScriptedTrade(
        TradeState state,
        long amountFen,
        String transactionId,
        Instant paidAt,
        Fault fault,
        Duration delay,
        String rawState) {

    private static final DateTimeFormatter ID_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd").withZone(ZoneOffset.ofHours(8));

    public ScriptedTrade {
        Objects.requireNonNull(state, "state");
        if (amountFen < 0) {
            throw new IllegalArgumentException("amountFen must not be negative: " + amountFen);
        }
        paidAt = paidAt == null ? Instant.now() : paidAt;
        transactionId = transactionId == null ? generatedTransactionId(paidAt) : transactionId;
        fault = fault == null ? Fault.NONE : fault;
        delay = delay == null ? Duration.ZERO : delay;
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
    }

    /** A trade in {@code state} for {@code amountFen}: a generated transaction id, paid now, no fault, no delay. */
    public static ScriptedTrade of(TradeState state, long amountFen) {
        return new ScriptedTrade(state, amountFen, null, null, Fault.NONE, Duration.ZERO, null);
    }

    public ScriptedTrade withFault(Fault f) {
        return new ScriptedTrade(state, amountFen, transactionId, paidAt, f, delay, rawState);
    }

    public ScriptedTrade withDelay(Duration d) {
        return new ScriptedTrade(state, amountFen, transactionId, paidAt, fault, d, rawState);
    }

    public ScriptedTrade withRawState(String s) {
        return new ScriptedTrade(state, amountFen, transactionId, paidAt, fault, delay, s);
    }

    public ScriptedTrade withTransactionId(String id) {
        return new ScriptedTrade(state, amountFen, id, paidAt, fault, delay, rawState);
    }

    public ScriptedTrade withPaidAt(Instant t) {
        return new ScriptedTrade(state, amountFen, transactionId, t, fault, delay, rawState);
    }

    /** 28 digits shaped like both providers' ids: a prefix, the Beijing date, then random digits. */
    private static String generatedTransactionId(Instant at) {
        StringBuilder id = new StringBuilder("4200").append(ID_DATE.format(at));
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (id.length() < 28) {
            id.append(random.nextInt(10));
        }
        return id.toString();
    }
}
