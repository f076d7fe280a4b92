package io.paynotify.statements;

import io.paynotify.config.AccountMode;
import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.StatementSettings;
import io.paynotify.core.order.OrderState;
import io.paynotify.core.statement.BillLine;
import io.paynotify.core.statement.BillProblem;
import io.paynotify.core.statement.BillRequest;
import io.paynotify.core.statement.Comparison;
import io.paynotify.core.statement.DifferenceKind;
import io.paynotify.core.statement.LedgerOrder;
import io.paynotify.core.statement.LineType;
import io.paynotify.core.statement.StatementTotals;
import io.paynotify.core.statement.Windows;
import io.paynotify.events.EventOutbox;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.Refunds;
import io.paynotify.persistence.StatementClaims;
import io.paynotify.persistence.StatementDifferences;
import io.paynotify.persistence.StatementLines;
import io.paynotify.persistence.StatementRefunds;
import io.paynotify.persistence.StatementRow;
import io.paynotify.persistence.Statements;
import io.paynotify.provider.BillSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Reconciles one day's bill with the ledger (CONTRACT.md §11 "Comparing" and "Effects"): stages the lines as the
 * bill is read (nothing of it used before the read ended without a problem), swaps them in with one short
 * transaction while the claim is still its own, then compares them in transactions of at most {@link #BATCH} orders
 * and evaluates the missing-at-provider windows that depend on the day. The rules themselves are
 * {@link Comparison}'s; a bill never changes an order: it writes differences, flags orders (with their
 * {@code order.attention} event) and schedules active queries.
 */
@ApplicationScoped
public class Reconciler {

    /** Lines staged per insert, orders per comparing transaction. */
    static final int STAGE_BATCH = 1000;

    static final int BATCH = 100;

    /**
     * The share of the wall time that statement work may use while it runs: after each batch it pauses for as long as
     * the batch took (bench/README.md "Statements": on 2 cores, the intake's p99 grew tenfold while a million-line
     * bill was staged and compared flat out).
     */
    static final double DUTY = 0.5;

    /** A test's extra pause after each batch (0 in the application), to make a reconcile last. */
    static volatile long testPauseMillis;

    /**
     * The duty cycle of one run of statement work: {@link #pause} after each batch sleeps in proportion to the time
     * since the last pause (reading, parsing, the batch's statements), so that the run uses at most {@link #DUTY} of a
     * core and of PostgreSQL's time, and the intake's transactions and log flushes never queue behind a burst of it.
     */
    static final class DutyCycle {
        private long since = System.nanoTime();

        void pause() {
            long worked = System.nanoTime() - since;
            long restNanos = (long) (worked * (1 - DUTY) / DUTY) + testPauseMillis * 1_000_000L;
            if (restNanos > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(restNanos);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            since = System.nanoTime();
        }
    }

    private static final List<String> LINE_KINDS = List.of(
            DifferenceKind.ACCOUNT_MISMATCH.name(),
            DifferenceKind.UNKNOWN_ORDER.name(),
            DifferenceKind.MISSING_LOCALLY.name(),
            DifferenceKind.TRANSACTION_MISMATCH.name(),
            DifferenceKind.AMOUNT_MISMATCH.name());

    private final StatementDb db;
    private final EventOutbox outbox;
    private final StatementSettings settings;
    private final StatementQueries queries;

    @Inject
    Reconciler(StatementDb db, EventOutbox outbox, ChannelRegistry registry, StatementQueries queries) {
        this.db = db;
        this.outbox = outbox;
        this.settings = registry.statements();
        this.queries = queries;
    }

    /** A bill as staged: its line set, totals, and its refund lines per (order, refund number). */
    record Staged(long setId, StatementTotals totals, List<StatementRefunds.Line> refunds, long lines) {}

    /**
     * Reads the whole file without staging anything: the checks an upload's answer waits for (a {@link BillProblem}
     * is its 400) before it commits to 200. Not paced: until it ends the connection has no way to be kept alive, and
     * it must end within {@code quarkus.http.idle-timeout} (docs/api.md "A long reconcile"); it is CPU only (no
     * database work), a few seconds for a million lines.
     */
    void check(Channel channel, BillSource source, Path file, LocalDate day) throws BillProblem {
        source.read(channel, file, new BillRequest(day, channel.keys().billAccount()), null, line -> {});
    }

    /**
     * Reads the file into a new line set. On a {@link BillProblem} (or any failure) the staged lines are deleted and
     * the day is left as it was.
     */
    Staged stage(Channel channel, BillSource source, Path file, LocalDate day, String expectedSha1) throws BillProblem {
        long setId = db.auto(c -> StatementLines.newSet(c, channel.name(), day));
        var totals = new StatementTotals();
        var batch = new ArrayList<StatementLines.Staged>(STAGE_BATCH);
        var refunds = new LinkedHashMap<String, StatementRefunds.Line>();
        var subMerchants = new HashMap<String, Boolean>();
        boolean perOrder = source.refundsPerOrder();
        int[] lineNo = {0};
        var duty = new DutyCycle();
        try {
            source.read(channel, file, new BillRequest(day, channel.keys().billAccount()), expectedSha1, line -> {
                boolean foreign = foreign(channel, line, subMerchants);
                totals.add(line, foreign);
                batch.add(new StatementLines.Staged(++lineNo[0], line, foreign));
                if (line.type() == LineType.REFUND && !foreign && !Comparison.REFUND_CLOSED.equals(line.status())) {
                    String no = line.outRefundNo() == null ? "" : line.outRefundNo();
                    String key = line.outTradeNo() + "\n" + no;
                    StatementRefunds.Line before = refunds.get(key);
                    long amount = perOrder && before != null ? before.amount() + line.amount() : line.amount();
                    refunds.put(key, new StatementRefunds.Line(line.outTradeNo(), no, amount));
                }
                if (batch.size() == STAGE_BATCH) {
                    flush(setId, batch);
                    duty.pause();
                }
            });
            flush(setId, batch);
        } catch (BillProblem | RuntimeException e) {
            discard(setId);
            throw e;
        }
        return new Staged(setId, totals, List.copyOf(refunds.values()), lineNo[0]);
    }

    private void flush(long setId, List<StatementLines.Staged> batch) {
        if (batch.isEmpty()) {
            return;
        }
        var copy = List.copyOf(batch);
        batch.clear();
        db.tx(c -> {
            StatementLines.insert(c, setId, copy);
            return null;
        });
    }

    /** Deletes a line set no day holds, in batches (never one long statement). */
    void discard(long setId) {
        int deleted;
        var duty = new DutyCycle();
        do {
            deleted = db.auto(c -> StatementLines.deleteSet(c, setId, 10_000));
            if (deleted == 10_000) {
                duty.pause();
            }
        } while (deleted == 10_000);
    }

    /**
     * Whether a line is another's trade (counted in {@code foreign}, raising nothing): its order number does not
     * match {@code statements-order-pattern}, its WeChat app id is none of the channel's, or on a partner channel its
     * sub-merchant is that of no order of the channel.
     */
    private boolean foreign(Channel channel, BillLine line, Map<String, Boolean> subMerchants) {
        if (!settings.ours(channel.name(), line.outTradeNo())) {
            return true;
        }
        Set<String> appIds = channel.keys().appIds();
        if (!appIds.isEmpty() && line.appId() != null && !appIds.contains(line.appId())) {
            return true;
        }
        if (channel.mode() == AccountMode.PARTNER) {
            String sub = line.subMerchantId();
            if (sub == null) {
                return true;
            }
            return !subMerchants.computeIfAbsent(sub, s -> db.auto(c -> Orders.hasSubMerchant(c, channel.name(), s)));
        }
        return false;
    }

    /** How the swap ended. */
    enum Swap {
        DONE,
        CLAIM_LOST
    }

    /**
     * Makes the staged set the day's, in one short transaction that commits only while {@code token} still holds the
     * claim; the replaced set is deleted afterwards.
     */
    Swap swap(Channel channel, LocalDate day, UUID token, String source, String sha256, boolean fetched, Staged s) {
        StatementTotals t = s.totals();
        Long[] previous = {null};
        boolean held = db.tx(c -> {
            if (!StatementClaims.holds(c, channel.name(), day, token)) {
                return false;
            }
            previous[0] = Statements.read(
                    c,
                    channel.name(),
                    day,
                    source,
                    sha256,
                    fetched ? 1 : 0,
                    s.setId(),
                    new Statements.Totals(
                            t.paymentCount,
                            t.paymentAmount,
                            t.refundCount,
                            t.refundAmount,
                            t.foreignCount,
                            t.foreignAmount,
                            t.fees));
            StatementRefunds.replaceDay(c, channel.name(), day, s.refunds());
            return true;
        });
        if (!held) {
            discard(s.setId());
            return Swap.CLAIM_LOST;
        }
        if (previous[0] != null) {
            discard(previous[0]);
        }
        return Swap.DONE;
    }

    /** Compares the day's lines with the ledger, then evaluates every window that depends on the day. */
    void compare(Channel channel, BillSource source, LocalDate day, long setId) {
        StatementDifferences.Run run = db.auto(StatementDifferences::newRun);
        boolean perOrder = source.refundsPerOrder();
        int after = 0;
        var duty = new DutyCycle();
        while (true) {
            int from = after;
            List<StatementLines.Compared> page = db.auto(c -> StatementLines.page(c, setId, from, BATCH));
            if (page.isEmpty()) {
                break;
            }
            after = page.get(page.size() - 1).lineNo();
            List<Query> scheduled = db.tx(c -> comparePage(c, channel, day, page, perOrder, run));
            queries.schedule(channel, scheduled);
            outbox.wake();
            duty.pause();
        }
        var kinds = new ArrayList<>(LINE_KINDS);
        if (!perOrder) {
            kinds.add(DifferenceKind.REFUND_MISSING_LOCALLY.name());
        }
        db.tx(c -> StatementDifferences.resolveStale(c, channel.name(), day, kinds, run));
        evaluateWindows(channel, source, day);
    }

    /** An active query to run after the commit, for this difference. */
    record Query(long differenceId, String outTradeNo) {}

    private List<Query> comparePage(
            Connection c,
            Channel channel,
            LocalDate day,
            List<StatementLines.Compared> page,
            boolean perOrder,
            StatementDifferences.Run run)
            throws SQLException {
        var numbers = new HashSet<String>();
        var refundOrders = new HashSet<String>();
        for (var l : page) {
            numbers.add(l.outTradeNo());
            if (l.type() == LineType.REFUND) {
                refundOrders.add(l.outTradeNo());
            }
        }
        Map<String, OrderRow> orders = Orders.findAll(c, channel.name(), numbers);
        var localRefunds = new HashMap<String, Long>();
        if (!perOrder && !refundOrders.isEmpty()) {
            for (var r : Refunds.ofOrders(c, channel.name(), List.copyOf(refundOrders))) {
                localRefunds.put(r.outTradeNo() + "\n" + r.outRefundNo(), r.amount());
            }
        }
        boolean partner = channel.mode() == AccountMode.PARTNER;
        var effects = new Effects(c, channel);
        for (var l : page) {
            OrderRow o = orders.get(l.outTradeNo());
            if (l.type() == LineType.PAYMENT) {
                BillLine line = new BillLine(
                        l.type(),
                        l.outTradeNo(),
                        l.transactionId(),
                        null,
                        l.amount(),
                        null,
                        null,
                        null,
                        l.subMerchantId(),
                        l.status());
                LedgerOrder ledger =
                        o == null ? null : new LedgerOrder(o.state(), o.amount(), o.transactionId(), o.subMerchantId());
                DifferenceKind kind = Comparison.payment(line, ledger, partner);
                if (kind != null) {
                    effects.write(
                            new StatementDifferences.Computed(
                                    channel.name(),
                                    day,
                                    kind.name(),
                                    l.outTradeNo(),
                                    null,
                                    l.subMerchantId(),
                                    l.transactionId(),
                                    l.amount(),
                                    o == null ? null : o.amount(),
                                    o == null ? null : o.state().name()),
                            kind,
                            o,
                            run);
                }
            } else if (l.type() == LineType.REFUND && !perOrder) {
                Long local = localRefunds.get(l.outTradeNo() + "\n" + l.outRefundNo());
                BillLine line = new BillLine(
                        l.type(),
                        l.outTradeNo(),
                        l.transactionId(),
                        l.outRefundNo(),
                        l.amount(),
                        null,
                        null,
                        null,
                        l.subMerchantId(),
                        l.status());
                DifferenceKind kind = Comparison.wechatRefund(line, local);
                if (kind != null && l.outRefundNo() != null) {
                    effects.write(
                            new StatementDifferences.Computed(
                                    channel.name(),
                                    day,
                                    kind.name(),
                                    l.outTradeNo(),
                                    l.outRefundNo(),
                                    l.subMerchantId(),
                                    l.transactionId(),
                                    l.amount(),
                                    local,
                                    o == null ? null : o.state().name()),
                            kind,
                            o,
                            run);
                }
            }
        }
        return effects.queries;
    }

    /**
     * The writes of the differences of one transaction: each difference created OPEN on an existing order adds
     * {@code STATEMENT_<kind>} to its attention once (with its event); a new MISSING_LOCALLY on a PENDING order of a
     * query-enabled channel schedules one active query.
     */
    private final class Effects {
        final Connection c;
        final Channel channel;
        final List<Query> queries = new ArrayList<>();

        Effects(Connection c, Channel channel) {
            this.c = c;
            this.channel = channel;
        }

        void write(StatementDifferences.Computed d, DifferenceKind kind, OrderRow order, StatementDifferences.Run run)
                throws SQLException {
            StatementDifferences.Written w = StatementDifferences.upsert(c, d, run);
            if (!w.created() || order == null) {
                return;
            }
            OrderRow locked = Orders.lock(c, channel.name(), order.outTradeNo());
            String reason = kind.attentionReason();
            if (locked != null && !locked.attention().contains(reason)) {
                var attention = new ArrayList<>(locked.attention());
                attention.add(reason);
                OrderRow flagged = Orders.flag(c, locked.id(), attention, java.time.Instant.now());
                outbox.attention(c, flagged, reason);
            }
            if (kind == DifferenceKind.MISSING_LOCALLY
                    && locked != null
                    && locked.state() == OrderState.PENDING
                    && channel.keys().queryEnabled()) {
                queries.add(new Query(w.id(), order.outTradeNo()));
            }
        }
    }

    /**
     * The missing-at-provider rules of every day whose window holds {@code day} (reconciling it, or recording that
     * it has no bill, may settle them), and Alipay's per-order refund sums. A window with a day not yet settled
     * raises nothing.
     */
    void evaluateWindows(Channel channel, BillSource source, LocalDate day) {
        int hold = settings.holdDays();
        LocalDate first = db.auto(c -> Statements.firstDay(c, channel.name()));
        if (first == null) {
            return;
        }
        for (LocalDate p : Windows.paymentDaysDependingOn(day, hold)) {
            if (!p.isBefore(first) && settled(channel, Windows.paymentWindow(p, hold))) {
                paymentsOf(channel, p, hold);
            }
        }
        if (source.refundsPerOrder()) {
            alipayRefunds(channel, day, hold);
        } else {
            for (LocalDate r : Windows.refundDaysDependingOn(day, hold)) {
                if (!r.isBefore(first) && settled(channel, Windows.refundWindow(r, hold))) {
                    wechatRefundsOf(channel, r);
                }
            }
        }
    }

    private boolean settled(Channel channel, List<LocalDate> window) {
        Map<LocalDate, StatementRow> rows =
                db.auto(c -> Statements.range(c, channel.name(), window.get(0), window.get(window.size() - 1)));
        for (LocalDate d : window) {
            StatementRow r = rows.get(d);
            if (r == null || !r.settled()) {
                return false;
            }
        }
        return true;
    }

    /** MISSING_AT_PROVIDER for the orders paid on {@code p} that no bill of D−1 … D+hold holds. */
    private void paymentsOf(Channel channel, LocalDate p, int hold) {
        StatementDifferences.Run run = db.auto(StatementDifferences::newRun);
        long after = 0;
        var duty = new DutyCycle();
        while (true) {
            long from = after;
            List<OrderRow> paid = db.auto(c ->
                    Orders.paidBetween(c, channel.name(), Windows.start(p), Windows.start(p.plusDays(1)), from, BATCH));
            if (paid.isEmpty()) {
                break;
            }
            after = paid.get(paid.size() - 1).id();
            db.tx(c -> {
                var numbers = paid.stream().map(OrderRow::outTradeNo).toList();
                Set<String> found = new HashSet<>(
                        StatementLines.paidInBills(c, channel.name(), p.minusDays(1), p.plusDays(hold), numbers));
                var effects = new Effects(c, channel);
                for (OrderRow o : paid) {
                    if (!found.contains(o.outTradeNo())) {
                        effects.write(
                                new StatementDifferences.Computed(
                                        channel.name(),
                                        p,
                                        DifferenceKind.MISSING_AT_PROVIDER.name(),
                                        o.outTradeNo(),
                                        null,
                                        o.subMerchantId(),
                                        o.transactionId(),
                                        null,
                                        o.amount(),
                                        o.state().name()),
                                DifferenceKind.MISSING_AT_PROVIDER,
                                o,
                                run);
                    }
                }
                return null;
            });
            outbox.wake();
            duty.pause();
        }
        db.tx(c -> StatementDifferences.resolveStale(
                c, channel.name(), p, List.of(DifferenceKind.MISSING_AT_PROVIDER.name()), run));
    }

    /** WeChat: REFUND_MISSING_AT_PROVIDER for the refunds that succeeded on {@code r} with no line in any bill. */
    private void wechatRefundsOf(Channel channel, LocalDate r) {
        StatementDifferences.Run run = db.auto(StatementDifferences::newRun);
        long after = 0;
        var duty = new DutyCycle();
        while (true) {
            long from = after;
            List<Refunds.Compared> page = db.auto(c -> Refunds.succeededBetween(
                    c, channel.name(), Windows.start(r), Windows.start(r.plusDays(1)), from, BATCH));
            if (page.isEmpty()) {
                break;
            }
            after = page.get(page.size() - 1).id();
            db.tx(c -> {
                var numbers = page.stream()
                        .map(Refunds.Compared::outTradeNo)
                        .distinct()
                        .toList();
                Set<String> inBills = StatementRefunds.numbers(c, channel.name(), numbers);
                Map<String, OrderRow> orders = Orders.findAll(c, channel.name(), numbers);
                var effects = new Effects(c, channel);
                for (Refunds.Compared refund : page) {
                    if (inBills.contains(refund.outTradeNo() + "\n" + refund.outRefundNo())) {
                        continue;
                    }
                    OrderRow o = orders.get(refund.outTradeNo());
                    effects.write(
                            new StatementDifferences.Computed(
                                    channel.name(),
                                    r,
                                    DifferenceKind.REFUND_MISSING_AT_PROVIDER.name(),
                                    refund.outTradeNo(),
                                    refund.outRefundNo(),
                                    o == null ? null : o.subMerchantId(),
                                    o == null ? null : o.transactionId(),
                                    null,
                                    refund.amount(),
                                    o == null ? null : o.state().name()),
                            DifferenceKind.REFUND_MISSING_AT_PROVIDER,
                            o,
                            run);
                }
                return null;
            });
            outbox.wake();
            duty.pause();
            if (page.size() < BATCH) {
                break;
            }
        }
        db.tx(c -> StatementDifferences.resolveStale(
                c, channel.name(), r, List.of(DifferenceKind.REFUND_MISSING_AT_PROVIDER.name()), run));
    }

    /**
     * Alipay: each order with a refund line in the day's bill, or a SUCCESS refund on a day whose window holds it:
     * its refund lines of all stored bills against its {@code refundedAmount} (per order, {@code outRefundNo} null).
     */
    private void alipayRefunds(Channel channel, LocalDate day, int hold) {
        List<String> ofDay = db.auto(c -> StatementRefunds.ordersOfDay(c, channel.name(), day));
        var numbers = new java.util.TreeSet<String>(ofDay);
        for (LocalDate r : Windows.refundDaysDependingOn(day, hold)) {
            long after = 0;
            while (true) {
                long from = after;
                List<Refunds.Compared> page = db.auto(c -> Refunds.succeededBetween(
                        c, channel.name(), Windows.start(r), Windows.start(r.plusDays(1)), from, BATCH));
                page.forEach(x -> numbers.add(x.outTradeNo()));
                if (page.size() < BATCH) {
                    break;
                }
                after = page.get(page.size() - 1).id();
            }
        }
        var all = new ArrayList<>(numbers);
        for (int i = 0; i < all.size(); i += BATCH) {
            List<String> batch = all.subList(i, Math.min(all.size(), i + BATCH));
            StatementDifferences.Run run = db.auto(StatementDifferences::newRun);
            db.tx(c -> {
                Map<String, OrderRow> orders = Orders.findAll(c, channel.name(), batch);
                Map<String, StatementRefunds.Sum> sums = StatementRefunds.sums(c, channel.name(), batch);
                var lastSuccess = new HashMap<String, LocalDate>();
                for (var r : Refunds.ofOrders(c, channel.name(), batch)) {
                    if ("SUCCESS".equals(r.status()) && r.succeededAt() != null) {
                        lastSuccess.merge(r.outTradeNo(), Windows.day(r.succeededAt()), (a, b) -> a.isAfter(b) ? a : b);
                    }
                }
                var effects = new Effects(c, channel);
                for (String no : batch) {
                    OrderRow o = orders.get(no);
                    StatementRefunds.Sum sum = sums.get(no);
                    long billRefunds = sum == null ? 0 : sum.amount();
                    long refunded = o == null ? 0 : o.refundedAmount();
                    LocalDate last = lastSuccess.get(no);
                    boolean windowSettled = last != null && settledNoDb(c, channel, Windows.refundWindow(last, hold));
                    DifferenceKind kind = Comparison.alipayRefunds(billRefunds, refunded, windowSettled);
                    if (kind == null) {
                        continue;
                    }
                    LocalDate billDate = kind == DifferenceKind.REFUND_MISSING_LOCALLY ? sum.lastDay() : last;
                    effects.write(
                            new StatementDifferences.Computed(
                                    channel.name(),
                                    billDate,
                                    kind.name(),
                                    no,
                                    null,
                                    o == null ? null : o.subMerchantId(),
                                    o == null ? null : o.transactionId(),
                                    billRefunds,
                                    o == null ? null : refunded,
                                    o == null ? null : o.state().name()),
                            kind,
                            o,
                            run);
                }
                StatementDifferences.resolveStaleOfOrders(
                        c,
                        channel.name(),
                        batch,
                        List.of(
                                DifferenceKind.REFUND_MISSING_LOCALLY.name(),
                                DifferenceKind.REFUND_MISSING_AT_PROVIDER.name()),
                        run);
                return null;
            });
            outbox.wake();
        }
    }

    /** {@link #settled} on the caller's connection (inside a transaction that already holds the permit). */
    private static boolean settledNoDb(Connection c, Channel channel, List<LocalDate> window) throws SQLException {
        Map<LocalDate, StatementRow> rows =
                Statements.range(c, channel.name(), window.get(0), window.get(window.size() - 1));
        for (LocalDate d : window) {
            StatementRow r = rows.get(d);
            if (r == null || !r.settled()) {
                return false;
            }
        }
        return true;
    }
}
