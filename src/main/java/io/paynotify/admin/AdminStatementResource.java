package io.paynotify.admin;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.core.statement.DifferenceKind;
import io.paynotify.core.statement.StatementStatus;
import io.paynotify.core.statement.Windows;
import io.paynotify.http.KeysetCursor;
import io.paynotify.http.OrderJson;
import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;
import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.DifferenceRow;
import io.paynotify.persistence.StatementDifferences;
import io.paynotify.persistence.StatementLedger;
import io.paynotify.persistence.StatementRow;
import io.paynotify.persistence.Statements;
import io.paynotify.persistence.Transactions;
import io.paynotify.statements.StatementProblem;
import io.paynotify.statements.StatementService;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;

/**
 * The statement calls of the admin API (CONTRACT.md §11, docs/api.md "Statements"): the days with their status and
 * totals, one day with its differences, fetch now, upload a bill file, the differences, and their resolution. The
 * bearer token is checked by {@link BearerTokenFilter} before any method here runs.
 */
@Path("/admin")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@Blocking
public class AdminStatementResource {

    private static final Logger LOG = Logger.getLogger(AdminStatementResource.class);

    /** An operator's fetch reaches at most this many days back. */
    static final int FETCH_DAYS_BACK = 90;

    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
    private static final DateTimeFormatter ISO =
            DateTimeFormatter.ofPattern("uuuu-MM-dd").withResolverStyle(ResolverStyle.STRICT);
    private static final Pattern ID = Pattern.compile("[1-9][0-9]{0,17}");

    private final ChannelRegistry registry;
    private final Transactions transactions;
    private final StatementService statements;
    private final Clock clock;

    @Inject
    AdminAudit audit;

    @ConfigProperty(name = "quarkus.http.idle-timeout")
    Duration idleTimeout;

    @Inject
    AdminStatementResource(
            ChannelRegistry registry, Transactions transactions, StatementService statements, Clock clock) {
        this.registry = registry;
        this.transactions = transactions;
        this.statements = statements;
        this.clock = clock;
    }

    @GET
    @Path("/statements")
    @Operation(summary = "Statements by (billDate desc, channel asc)", description = "Keyset-paginated.")
    public byte[] list(
            @QueryParam("channel") String channel,
            @QueryParam("status") String status,
            @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        List<String> names = new ArrayList<>(registry.channels().keySet());
        List<String> filter = channel == null || channel.isEmpty()
                ? names
                : List.of(channel(channel).name());
        String st = enumValue("status", status, StatementStatus.class);
        int rows = Params.limit(limit);
        LocalDate afterDate = null;
        String afterChannel = null;
        if (after != null) {
            long key = KeysetCursor.decode("statements", after);
            int rank = (int) (key % 100_000) - 1;
            if (key < 1 || rank < 0 || rank >= names.size()) {
                throw new ProblemException(Problem.invalid("after", "after is not a cursor returned by this list"));
            }
            afterDate = LocalDate.ofEpochDay(key / 100_000);
            afterChannel = names.get(rank);
        }
        LocalDate d = afterDate;
        String ch = afterChannel;
        List<StatementRow> page = transactions.autoCommit(c -> Statements.list(c, filter, st, d, ch, rows + 1));
        String next = null;
        if (page.size() > rows) {
            page = page.subList(0, rows);
            StatementRow last = page.get(rows - 1);
            next = KeysetCursor.encode(
                    "statements", last.billDate().toEpochDay() * 100_000 + names.indexOf(last.channel()) + 1);
        }
        List<StatementRow> shown = page;
        Map<StatementLedger.Day, StatementLedger.Totals> ledgers =
                ledgers(shown.stream().map(AdminStatementResource::dayOf).toList());
        return AdminJson.page(page, next, (g, r) -> StatementJson.statement(g, r, ledgers.get(dayOf(r))));
    }

    @GET
    @Path("/statements/{channel}/{billDate}")
    @Operation(summary = "One day's statement with its differences")
    public byte[] get(@PathParam("channel") String channel, @PathParam("billDate") String billDate) {
        Channel ch = channel(channel);
        LocalDate day = date(billDate);
        StatementRow row = transactions.autoCommit(c -> Statements.find(c, ch.name(), day));
        if (row == null) {
            throw new ProblemException(Problem.notFound("That day has no statement."));
        }
        List<DifferenceRow> differences = transactions.autoCommit(c -> StatementDifferences.forDay(c, ch.name(), day));
        return StatementJson.statement(row, ledger(row), differences);
    }

    @POST
    @Path("/statements/{channel}/{billDate}/fetch")
    @Operation(summary = "Fetch and reconcile the day's bill now")
    public Response fetch(@PathParam("channel") String channel, @PathParam("billDate") String billDate) {
        audit.action("statement-fetch", "channel", channel, "billDate", billDate);
        Channel ch = channel(channel);
        LocalDate day = date(billDate);
        LocalDate today = Windows.day(clock.instant());
        if (!day.isBefore(today) || day.isBefore(today.minusDays(FETCH_DAYS_BACK))) {
            throw new ProblemException(Problem.invalid(
                    "billDate", "billDate must be a past Beijing day, at most " + FETCH_DAYS_BACK + " days back"));
        }
        if (!registry.statements().enabled(ch.name())) {
            throw new ProblemException(Problem.conflict(
                    "statements-disabled", "The channel does not have statements-enabled=true.", null));
        }
        return answer(statements.start(checked -> statements.fetch(ch, day, checked)));
    }

    @POST
    @Path("/statements/{channel}/{billDate}")
    @Consumes(MediaType.APPLICATION_OCTET_STREAM)
    @Operation(summary = "Reconcile an uploaded bill file (exactly what the provider's download gave)")
    public Response upload(
            @PathParam("channel") String channel, @PathParam("billDate") String billDate, InputStream body) {
        audit.action("statement-upload", "channel", channel, "billDate", billDate);
        Channel ch = channel(channel);
        LocalDate day = date(billDate);
        StatementService.Received received = run(() -> statements.receive(ch, day, body));
        return answer(statements.start(checked -> statements.upload(received, checked)));
    }

    /**
     * The answer of an upload or fetch (docs/api.md "Statements", "A long reconcile"). Work done within a third of
     * {@code quarkus.http.idle-timeout} answers as usual, any status. Longer work, once it passed the checks that
     * decide a 400, 409 or 413 (the claim, an upload's file), commits to {@code 200}: the body starts with a space
     * every third of the idle timeout (whitespace JSON ignores), so the connection is never idle for it, then the
     * statement. A failure after that (the database gone, the claim lost) aborts the answer: the chunked body never
     * ends, so no client can read it as a statement; the day's state is then {@code GET}'s.
     */
    private Response answer(StatementService.Running running) {
        long every = keepAliveEvery().toNanos();
        try {
            return Response.ok(statement(running.done().get(every, TimeUnit.NANOSECONDS)))
                    .build();
        } catch (TimeoutException e) {
            // longer than a third of the idle timeout: wait for the checks (or the end), then keep the connection
        } catch (ExecutionException e) {
            throw failure(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProblemException(Problem.unavailable());
        }
        CompletableFuture.anyOf(running.checked(), running.done())
                .handle((v, t) -> null)
                .join();
        if (running.done().isDone()) {
            try {
                return Response.ok(statement(running.done().join())).build();
            } catch (CompletionException e) {
                throw failure(e.getCause());
            }
        }
        StreamingOutput kept = out -> {
            while (true) {
                try {
                    StatementRow row = running.done().get(every, TimeUnit.NANOSECONDS);
                    out.write(statement(row));
                    return;
                } catch (TimeoutException e) {
                    out.write(' ');
                    out.flush();
                } catch (ExecutionException e) {
                    throw new IOException("statement work failed after its answer began: the answer is aborted", e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted: the answer is aborted", e);
                }
            }
        };
        return Response.ok(kept, MediaType.APPLICATION_JSON).build();
    }

    /** A third of {@code quarkus.http.idle-timeout}, between 100 ms and 10 s. */
    private Duration keepAliveEvery() {
        Duration third = idleTimeout.dividedBy(3);
        if (third.compareTo(Duration.ofMillis(100)) < 0) {
            return Duration.ofMillis(100);
        }
        return third.compareTo(Duration.ofSeconds(10)) > 0 ? Duration.ofSeconds(10) : third;
    }

    /** The statement JSON of an upload's or fetch's answer, with the ledger's totals read now. */
    private byte[] statement(StatementRow row) {
        return StatementJson.statement(row, ledger(row), null);
    }

    /** The failure of an operator's work as the answer's problem (StatementProblem's status, else as thrown). */
    private static RuntimeException failure(Throwable cause) {
        if (cause instanceof StatementProblem p) {
            return problem(p);
        }
        if (cause instanceof RuntimeException r) {
            return r;
        }
        return new IllegalStateException(cause);
    }

    @GET
    @Path("/statement-differences")
    @Operation(summary = "Statement differences, newest first", description = "Keyset-paginated.")
    public byte[] differences(
            @QueryParam("channel") String channel,
            @QueryParam("kind") String kind,
            @QueryParam("status") String status,
            @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        String ch =
                channel == null || channel.isEmpty() ? null : channel(channel).name();
        String k = enumValue("kind", kind, DifferenceKind.class);
        if (status != null && !status.isEmpty() && !status.equals("OPEN") && !status.equals("RESOLVED")) {
            throw new ProblemException(Problem.invalid("status", "status must be OPEN or RESOLVED"));
        }
        String s = status == null || status.isEmpty() ? null : status;
        int rows = Params.limit(limit);
        Long afterId = Cursor.decode("differences", after);
        List<DifferenceRow> page =
                transactions.autoCommit(c -> StatementDifferences.list(c, ch, k, s, afterId, rows + 1));
        String next = null;
        if (page.size() > rows) {
            page = page.subList(0, rows);
            next = Cursor.encode("differences", page.get(rows - 1).id());
        }
        return AdminJson.page(page, next, StatementJson::difference);
    }

    @POST
    @Path("/statement-differences/{id}/resolve")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Resolve a difference with a note", description = "Again: 200, unchanged.")
    public byte[] resolve(@PathParam("id") String id, byte[] body) {
        audit.action("statement-resolve", "difference", id);
        if (id == null || !ID.matcher(id).matches()) {
            throw new ProblemException(Problem.notFound("No difference with this id."));
        }
        long diffId = Long.parseLong(id);
        String note = note(body);
        DifferenceRow row = transactions.inTransaction(
                Transactions.Retry.ON_CONFLICT, c -> StatementDifferences.resolve(c, diffId, note));
        if (row == null) {
            throw new ProblemException(Problem.notFound("No difference with this id."));
        }
        return StatementJson.difference(row);
    }

    /** A statement's day for its ledger totals: the Beijing day's first instant to the next day's. */
    private static StatementLedger.Day dayOf(StatementRow r) {
        return new StatementLedger.Day(
                r.channel(),
                r.billDate(),
                Windows.start(r.billDate()),
                Windows.start(r.billDate().plusDays(1)));
    }

    /** The ledger's totals of the statement's day, read now (null when they could not be read). */
    private StatementLedger.Totals ledger(StatementRow r) {
        StatementLedger.Day d = dayOf(r);
        return ledgers(List.of(d)).get(d);
    }

    /**
     * The ledger's totals of these days, or none when the read fails (the 1.5 s statement timeout: a day of about a
     * million orders paid so recently that autovacuum has not yet made its index-only scan cheap): the statement is
     * then answered with {@code "ledger":null} rather than not at all.
     */
    private Map<StatementLedger.Day, StatementLedger.Totals> ledgers(List<StatementLedger.Day> days) {
        try {
            return transactions.autoCommit(c -> StatementLedger.totals(c, days));
        } catch (DatabaseUnavailable e) {
            LOG.warnf("statement ledger totals not read: %s", e.getMessage());
            return Map.of();
        }
    }

    /** {@code {"note":"…"}}, 1–500 characters, else 400. */
    private static String note(byte[] body) {
        String note = null;
        try (JsonParser p = OrderJson.factory().createParser(body == null ? new byte[0] : body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw badNote();
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if ("note".equals(name)) {
                    if (v != JsonToken.VALUE_STRING || note != null) {
                        throw badNote();
                    }
                    note = p.getText();
                } else {
                    p.skipChildren();
                }
            }
            if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw badNote();
            }
        } catch (IOException e) {
            throw badNote();
        }
        if (note == null || note.isBlank() || note.codePointCount(0, note.length()) > 500) {
            throw badNote();
        }
        return note;
    }

    private static ProblemException badNote() {
        return new ProblemException(Problem.invalid("note", "note must be a string of 1 to 500 characters"));
    }

    @FunctionalInterface
    private interface Work<T> {
        T run();
    }

    private static <T> T run(Work<T> work) {
        try {
            return work.run();
        } catch (StatementProblem e) {
            throw problem(e);
        }
    }

    private static ProblemException problem(StatementProblem e) {
        return new ProblemException(
                switch (e.status()) {
                    case 400 -> Problem.invalid("body", e.getMessage());
                    case 409 -> Problem.conflict(e.type(), e.getMessage(), null);
                    case 503 -> Problem.unavailable();
                    default -> Problem.status(e.status(), "Content Too Large");
                });
    }

    private Channel channel(String name) {
        return registry.channel(name)
                .orElseThrow(() -> new ProblemException(Problem.notFound("No channel of this name.")));
    }

    private static LocalDate date(String text) {
        if (text == null || !DATE.matcher(text).matches()) {
            throw new ProblemException(Problem.invalid("billDate", "billDate must be a date as yyyy-MM-dd"));
        }
        try {
            return LocalDate.parse(text, ISO);
        } catch (DateTimeParseException e) {
            throw new ProblemException(Problem.invalid("billDate", "billDate must be a date as yyyy-MM-dd"));
        }
    }

    private static <E extends Enum<E>> String enumValue(String name, String value, Class<E> type) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(value)) {
                return value;
            }
        }
        throw new ProblemException(Problem.invalid(name, name + " is not one of its values"));
    }
}
