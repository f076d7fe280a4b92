package io.paynotify.statements;

import io.paynotify.concurrent.DaemonThreads;
import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.StatementSettings;
import io.paynotify.core.statement.Windows;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.StatementLines;
import io.paynotify.persistence.StatementRow;
import io.paynotify.persistence.Statements;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The daily fetches (CONTRACT.md §11 "Statuses and scheduling"). Every minute, for each statements-enabled channel:
 * once {@code paynotify.statements.time} (Beijing) has passed, each of the last 7 days that has no statement yet
 * (yesterday, and days missed while no replica ran), and each {@code ERROR} day of the last 7 whose last series
 * of attempts began before today's run time (so: once per daily run); at any time, each day whose retry is due ({@code nextAttemptAt}). A day
 * that is {@code RECONCILED}, {@code DIFFERENCES} or {@code NO_BILL}, or came from an upload, is never fetched again
 * by the scheduler. A day claimed by another replica (or an operator) is skipped: its claim decides. Once an hour
 * it also deletes the bill lines past {@code paynotify.statements.retention} ({@link #cleanUp}).
 */
@ApplicationScoped
public class StatementScheduler {

    private static final Logger LOG = Logger.getLogger(StatementScheduler.class);

    /** Days back the daily run looks: missed days are caught up, ERROR days retried once. */
    static final int CATCH_UP_DAYS = 7;

    private final StatementService service;
    private final StatementDb db;
    private final StatementSettings settings;
    private final List<Channel> channels;
    private final Reconciler reconciler;
    private ScheduledExecutorService ticker;
    private Instant lastCleanUp = Instant.EPOCH;

    @Inject
    StatementScheduler(StatementService service, StatementDb db, ChannelRegistry registry, Reconciler reconciler) {
        this.service = service;
        this.reconciler = reconciler;
        this.db = db;
        this.settings = registry.statements();
        this.channels = registry.channels().values().stream()
                .filter(c -> settings.enabled(c.name()))
                .toList();
    }

    void onStart(@Observes StartupEvent event) {
        if (settings.schedulerEnabled() && !channels.isEmpty()) {
            ticker = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("paynotify-statements"));
            ticker.scheduleWithFixedDelay(
                    () -> {
                        try {
                            Instant now = service.clock().instant();
                            runOnce(now);
                            if (now.isAfter(lastCleanUp.plus(java.time.Duration.ofHours(1)))) {
                                lastCleanUp = now;
                                cleanUp(now);
                            }
                        } catch (RuntimeException e) {
                            LOG.warnf("statements run failed: %s", e.toString());
                        }
                    },
                    30,
                    60,
                    TimeUnit.SECONDS);
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        if (ticker != null) {
            ticker.shutdownNow();
        }
    }

    /** The days of each channel that are due at {@code now}, in the order they are fetched. */
    public List<Due> due(Instant now) {
        LocalDateTime beijing = LocalDateTime.ofInstant(now, Windows.BEIJING);
        LocalDate today = beijing.toLocalDate();
        boolean dailyRun = !beijing.toLocalTime().isBefore(settings.time());
        Instant runTime = today.atTime(settings.time()).toInstant(Windows.BEIJING);
        var out = new ArrayList<Due>();
        for (Channel channel : channels) {
            Map<LocalDate, StatementRow> rows = db.read(
                    c -> Statements.range(c, channel.name(), today.minusDays(CATCH_UP_DAYS), today.minusDays(1)));
            for (LocalDate day = today.minusDays(1);
                    !day.isBefore(today.minusDays(CATCH_UP_DAYS));
                    day = day.minusDays(1)) {
                StatementRow r = rows.get(day);
                if (r == null) {
                    if (dailyRun) {
                        out.add(new Due(channel, day));
                    }
                    continue;
                }
                if (r.settled() || "UPLOAD".equals(r.source())) {
                    continue;
                }
                if (r.nextAttemptAt() != null) {
                    if (!r.nextAttemptAt().isAfter(now)) {
                        out.add(new Due(channel, day));
                    }
                } else if (dailyRun
                        && "ERROR".equals(r.storedStatus())
                        && (r.firstAttemptAt() == null || r.firstAttemptAt().isBefore(runTime))) {
                    out.add(new Due(channel, day));
                }
            }
        }
        return out;
    }

    /**
     * Deletes bill lines past {@code paynotify.statements.retention} (the days keep their totals, differences and
     * per-order refund lines) and staged lines no day took, in batches. Returns how many line sets it deleted.
     */
    public int cleanUp(Instant now) {
        LocalDate keepFrom = Windows.day(now.minus(settings.retention()));
        int sets = 0;
        List<Long> expired;
        do {
            expired = db.auto(c -> StatementLines.expiredSets(c, keepFrom, 100));
            for (long id : expired) {
                db.tx(c -> {
                    StatementLines.detach(c, id);
                    return null;
                });
                reconciler.discard(id);
                sets++;
            }
        } while (expired.size() == 100);
        return sets;
    }

    /** A channel's day to fetch. */
    public record Due(Channel channel, LocalDate day) {}

    /** One round at {@code now}: fetches every due day, one at a time. Returns how many it fetched. */
    public int runOnce(Instant now) {
        int fetched = 0;
        for (Due d : due(now)) {
            try {
                StatementRow r = service.fetch(d.channel(), d.day());
                fetched++;
                LOG.debugf("statements channel=%s day=%s status=%s", d.channel().name(), d.day(), r.status());
            } catch (StatementProblem e) {
                // claimed elsewhere: that claim decides
            } catch (DatabaseUnavailable e) {
                LOG.warnf(
                        "statements channel=%s day=%s not fetched: %s",
                        d.channel().name(), d.day(), e.getMessage());
            }
        }
        return fetched;
    }
}
