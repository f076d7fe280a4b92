package io.paynotify.statements;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.core.statement.DifferenceKind;
import io.paynotify.core.statement.LineType;
import io.paynotify.core.statement.StatementStatus;
import io.paynotify.core.statement.Windows;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.StatementDifferences;
import io.paynotify.persistence.Statements;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The statement meters of CONTRACT.md §11, every label from a closed set (configured channels, the contract's
 * statuses, kinds and line types), registered at zero at start: {@code paynotify_statements_total{channel,status}},
 * {@code paynotify_statement_lines_total{channel,type}}, {@code paynotify_statement_fetch_seconds}, and the gauges
 * {@code paynotify_statement_differences_open{channel,kind}} and
 * {@code paynotify_statement_last_reconciled_day_timestamp_seconds{channel}} (statements-enabled channels), read from PostgreSQL every 30 s (the
 * same on every replica: take {@code max}).
 */
@ApplicationScoped
public class StatementMetrics {

    static final String RUNS = "paynotify_statements_total";
    static final String LINES = "paynotify_statement_lines_total";
    static final String FETCH = "paynotify_statement_fetch_seconds";
    static final String OPEN = "paynotify_statement_differences_open";
    static final String LAST_DAY = "paynotify_statement_last_reconciled_day_timestamp_seconds";

    private static final Logger LOG = Logger.getLogger("io.paynotify.metrics");

    private final StatementDb db;
    private final ChannelRegistry channels;
    private final Map<String, Counter> runs = new ConcurrentHashMap<>();
    private final Map<String, Counter> lines = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> open = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> lastDay = new ConcurrentHashMap<>();
    private final Timer fetch;

    @Inject
    StatementMetrics(MeterRegistry registry, ChannelRegistry channels, StatementDb db) {
        this.db = db;
        this.channels = channels;
        this.fetch = Timer.builder(FETCH)
                .description("Time a bill download took, whatever it gave")
                .publishPercentileHistogram()
                .register(registry);
        for (String channel : channels.channels().keySet()) {
            for (StatementStatus s : StatementStatus.values()) {
                runs.put(
                        channel + "|" + s,
                        Counter.builder(RUNS)
                                .description("Statement runs (fetch or upload) by resulting status")
                                .tag("channel", channel)
                                .tag("status", s.name())
                                .register(registry));
            }
            for (LineType t : LineType.values()) {
                lines.put(
                        channel + "|" + t,
                        Counter.builder(LINES)
                                .description("Bill lines read, by type")
                                .tag("channel", channel)
                                .tag("type", t.name())
                                .register(registry));
            }
            for (DifferenceKind k : DifferenceKind.values()) {
                AtomicLong v = new AtomicLong();
                open.put(channel + "|" + k, v);
                Gauge.builder(OPEN, v, AtomicLong::get)
                        .description("OPEN statement differences (read from PostgreSQL)")
                        .tag("channel", channel)
                        .tag("kind", k.name())
                        .register(registry);
            }
            if (channels.statements().enabled(channel)) {
                // only where bills are fetched: the not-reconciled alert reads it
                AtomicLong day = new AtomicLong();
                lastDay.put(channel, day);
                Gauge.builder(LAST_DAY, day, AtomicLong::get)
                        .description("00:00 Beijing time of the newest RECONCILED, DIFFERENCES or NO_BILL day")
                        .tag("channel", channel)
                        .register(registry);
            }
        }
    }

    /** One run that ended in this status. */
    void run(String channel, String status) {
        Counter c = runs.get(channel + "|" + status);
        if (c != null) {
            c.increment();
        }
    }

    /** Lines read of one bill. */
    void lines(String channel, long payments, long refunds, long others) {
        add(channel, LineType.PAYMENT, payments);
        add(channel, LineType.REFUND, refunds);
        add(channel, LineType.OTHER, others);
    }

    private void add(String channel, LineType type, long n) {
        Counter c = lines.get(channel + "|" + type);
        if (c != null && n > 0) {
            c.increment(n);
        }
    }

    void fetched(Duration took) {
        fetch.record(took);
    }

    @Scheduled(identity = "statement-metrics", every = "30s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            refresh();
        } catch (DatabaseUnavailable e) {
            LOG.debugf("statement metrics not refreshed (SQLState %s)", e.sqlState());
        }
    }

    /** Reads the gauges' values now. */
    public void refresh() {
        Map<String, Map<String, Long>> counts = db.read(StatementDifferences::openCounts);
        Map<String, LocalDate> days = db.read(Statements::lastSettledDays);
        for (String channel : channels.channels().keySet()) {
            Map<String, Long> byKind = counts.getOrDefault(channel, Map.of());
            for (DifferenceKind k : DifferenceKind.values()) {
                open.get(channel + "|" + k).set(byKind.getOrDefault(k.name(), 0L));
            }
            AtomicLong last = lastDay.get(channel);
            if (last != null) {
                LocalDate d = days.get(channel);
                last.set(d == null ? 0 : Windows.start(d).getEpochSecond());
            }
        }
    }
}
