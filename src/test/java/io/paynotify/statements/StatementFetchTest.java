package io.paynotify.statements;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.statement.StatementError;
import io.paynotify.core.statement.Windows;
import io.paynotify.provider.BillSource;
import io.paynotify.testing.BillFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.TestBillSources;
import io.paynotify.testing.TestChannels;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fetching (CONTRACT.md §11 "Statuses and scheduling"): what each answer of a provider makes of the day, the retries
 * until 23:30 Beijing time of the first attempt's day, the claim (one fetch or upload of a day at a time, the others
 * 409), and the scheduler's rules, all with a fixed clock (nothing waits for the time of day). The providers are
 * {@link TestBillSources}, scripted per day.
 */
@QuarkusTest
class StatementFetchTest {

    static final String AUTH = StatementsTest.AUTH;
    static final String WX = TestChannels.WX_STMT;

    private static final AtomicInteger DAYS = new AtomicInteger();

    @Inject
    StatementService service;

    @Inject
    StatementScheduler scheduler;

    @AfterEach
    void realClock() {
        service.useClock(Clock.systemUTC());
    }

    /** A past day of its own for each use, within the 90 days an operator may fetch. */
    static LocalDate newDay() {
        return Windows.day(Instant.now()).minusDays(5 + DAYS.incrementAndGet());
    }

    static Instant beijing(LocalDate day, int hour, int minute) {
        return day.atTime(LocalTime.of(hour, minute)).toInstant(ZoneOffset.ofHours(8));
    }

    void at(Instant now) {
        service.useClock(Clock.fixed(now, ZoneOffset.UTC));
    }

    static Response fetch(String channel, LocalDate day) {
        return given().header("Authorization", AUTH).post("/admin/statements/" + channel + "/" + day + "/fetch");
    }

    static JsonPath fetched(LocalDate day) {
        Response r = fetch(WX, day);
        assertEquals(200, r.statusCode(), r.asString());
        return r.jsonPath();
    }

    static byte[] bill(LocalDate day) {
        return new BillFixtures.Wechat(day, TestChannels.WX_STMT_APPID, TestChannels.WX_STMT_MCH)
                .payment("ST" + UUID.randomUUID().toString().substring(0, 8), "4200000001", "1.00")
                .gzip();
    }

    @Test
    void aFetchedBillIsReconciledAsAnUploadedOne() {
        LocalDate d = newDay();
        at(beijing(d.plusDays(1), 11, 0));
        TestBillSources.script(WX, d, TestBillSources.bill(bill(d)));
        JsonPath s = fetched(d);
        assertEquals("DIFFERENCES", s.getString("status"));
        assertEquals("FETCH", s.getString("source"));
        assertEquals(1, s.getInt("attempts"));
        assertNull(s.getString("nextAttemptAt"));
        assertEquals(1, s.getInt("openDifferences"));

        // a later fetch that gives no bill keeps the bill the day holds
        TestBillSources.script(WX, d, TestBillSources.outcome(new BillSource.Fetch.Failed(StatementError.HTTP, "500")));
        JsonPath again = fetched(d);
        assertEquals("DIFFERENCES", again.getString("status"));
        assertNull(again.getString("error"));
    }

    @Test
    void noBillIsNoBillUnlessTheDayHadLocalActivityThenNotReadyUntil2330() {
        LocalDate quiet = newDay();
        at(beijing(quiet.plusDays(1), 11, 0));
        TestBillSources.script(WX, quiet, TestBillSources.outcome(new BillSource.Fetch.NoBill("none")));
        assertEquals("NO_BILL", fetched(quiet).getString("status"));

        LocalDate busy = newDay();
        anOrder()
                .channel(WX)
                .amount(100)
                .paid("4200" + UUID.randomUUID().toString().substring(0, 8))
                .paidAt(beijing(busy, 12, 0))
                .insert();
        TestBillSources.script(WX, busy, TestBillSources.outcome(new BillSource.Fetch.NoBill("none")));
        at(beijing(busy.plusDays(1), 11, 0));
        JsonPath s = fetched(busy);
        assertEquals("NOT_READY", s.getString("status"));
        assertEquals(
                beijing(busy.plusDays(1), 11, 30).toString(),
                Instant.parse(s.getString("nextAttemptAt")).toString());
        at(beijing(busy.plusDays(1), 23, 31));
        JsonPath late = fetched(busy);
        assertEquals("NO_BILL", late.getString("status"));
        assertEquals(2, late.getInt("attempts"));
        assertNull(late.getString("nextAttemptAt"));
    }

    @Test
    void notReadyAndRetriedErrorsAreRetriedUntil2330OfTheFirstAttemptsDayThenError() {
        LocalDate d = newDay();
        TestBillSources.script(WX, d, TestBillSources.outcome(new BillSource.Fetch.NotReady("creating")));
        at(beijing(d.plusDays(1), 22, 0));
        JsonPath s = fetched(d);
        assertEquals("NOT_READY", s.getString("status"));
        assertNull(s.getString("error"));
        assertNotNull(s.getString("nextAttemptAt"));
        at(beijing(d.plusDays(1), 23, 10));
        JsonPath last = fetched(d);
        assertEquals("ERROR", last.getString("status"));
        assertEquals("NOT_READY", last.getString("error"));
        assertNull(last.getString("nextAttemptAt"));

        for (StatementError e : StatementError.values()) {
            LocalDate day = newDay();
            at(beijing(day.plusDays(1), 11, 0));
            TestBillSources.script(WX, day, TestBillSources.outcome(new BillSource.Fetch.Failed(e, "scripted")));
            JsonPath r = fetched(day);
            String expectStatus = e == StatementError.NOT_READY ? "NOT_READY" : "ERROR";
            assertEquals(expectStatus, r.getString("status"), e.name());
            if (e != StatementError.NOT_READY) {
                assertEquals(e.name(), r.getString("error"));
            }
            assertEquals(e.retried(), r.getString("nextAttemptAt") != null, e.name());
        }
    }

    @Test
    void aDownloadedBillThatFailsItsChecksIsAnErrorOfThatCode() {
        LocalDate d = newDay();
        at(beijing(d.plusDays(1), 11, 0));
        byte[] truncated = new BillFixtures.Wechat(d, TestChannels.WX_STMT_APPID, TestChannels.WX_STMT_MCH)
                .payment("ST1", "4200000001", "1.00")
                .summaryCount(3)
                .bytes();
        TestBillSources.script(WX, d, TestBillSources.bill(truncated));
        JsonPath s = fetched(d);
        assertEquals("ERROR", s.getString("status"));
        assertEquals("TRUNCATED", s.getString("error"));
        assertNotNull(s.getString("nextAttemptAt"));
    }

    @Test
    void whileADayIsClaimedEveryOtherFetchOrUploadIs409AndOneStatementResults() throws Exception {
        LocalDate d = newDay();
        at(beijing(d.plusDays(1), 11, 0));
        TestBillSources.script(WX, d, TestBillSources.bill(bill(d)));
        CountDownLatch release = TestBillSources.hold(WX, d);
        var pool = Executors.newFixedThreadPool(9);
        try {
            Future<Response> first = pool.submit(() -> fetch(WX, d));
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> Db.count(
                                    "SELECT count(*) FROM statement_claims WHERE channel = ? AND bill_date = ? AND token IS NOT NULL",
                                    WX,
                                    d)
                            == 1);
            var others = new ArrayList<Future<Response>>();
            for (int i = 0; i < 8; i++) {
                boolean upload = i % 2 == 0;
                Callable<Response> call = upload
                        ? () -> given().header("Authorization", AUTH)
                                .contentType("application/octet-stream")
                                .body(bill(d))
                                .post("/admin/statements/" + WX + "/" + d)
                        : () -> fetch(WX, d);
                others.add(pool.submit(call));
            }
            for (Future<Response> f : others) {
                assertEquals(409, f.get().statusCode(), f.get().asString());
            }
            release.countDown();
            assertEquals(200, first.get().statusCode());
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, TestBillSources.fetches(WX, d));
        assertEquals(1, Db.count("SELECT count(*) FROM statements WHERE channel = ? AND bill_date = ?", WX, d));
        assertEquals(
                1, Db.count("SELECT count(*) FROM statement_line_sets WHERE channel = ? AND bill_date = ?", WX, d));
        assertEquals(
                0,
                Db.count(
                        "SELECT count(*) FROM statement_claims WHERE channel = ? AND bill_date = ? AND token IS NOT NULL",
                        WX,
                        d));
    }

    @Test
    void manyConcurrentUploadsOfOneDayGiveOneStatementAndEachDifferenceOnce() throws Exception {
        LocalDate d = newDay();
        byte[] one = bill(d);
        var pool = Executors.newFixedThreadPool(12);
        var codes = new ArrayList<Future<Integer>>();
        try {
            for (int i = 0; i < 24; i++) {
                codes.add(pool.submit(() -> given().header("Authorization", AUTH)
                        .contentType("application/octet-stream")
                        .body(one)
                        .post("/admin/statements/" + WX + "/" + d)
                        .statusCode()));
            }
            int ok = 0;
            for (Future<Integer> f : codes) {
                int code = f.get();
                assertTrue(code == 200 || code == 409, "status " + code);
                ok += code == 200 ? 1 : 0;
            }
            assertTrue(ok >= 1);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, Db.count("SELECT count(*) FROM statements WHERE channel = ? AND bill_date = ?", WX, d));
        assertEquals(
                1, Db.count("SELECT count(*) FROM statement_differences WHERE channel = ? AND bill_date = ?", WX, d));
        assertEquals(
                1, Db.count("SELECT count(*) FROM statement_line_sets WHERE channel = ? AND bill_date = ?", WX, d));
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM statement_lines l JOIN statement_line_sets s ON s.id = l.set_id"
                                + " WHERE s.channel = ? AND s.bill_date = ?",
                        WX,
                        d));
    }

    // ------------------------------------------------------------------ the scheduler

    @Test
    void theSchedulerFetchesMissedDaysAfterTheTimeRetriesWhenDueAndNeverReplacesASettledDayOrAnUpload() {
        // a Beijing "today" of its own, long ago, so that no other test's days are in its 7 days
        LocalDate today = LocalDate.of(2023, 3, 20).plusDays(20L * DAYS.incrementAndGet());
        LocalDate y = today.minusDays(1);
        LocalDate noBill = today.minusDays(2);
        LocalDate failing = today.minusDays(3);
        LocalDate signature = today.minusDays(4);
        LocalDate uploaded = today.minusDays(5);
        TestBillSources.script(WX, y, TestBillSources.bill(bill(y)));
        TestBillSources.script(WX, noBill, TestBillSources.outcome(new BillSource.Fetch.NoBill("none")));
        TestBillSources.script(
                WX, failing, TestBillSources.outcome(new BillSource.Fetch.Failed(StatementError.HTTP, "500")));
        TestBillSources.script(
                WX, signature, TestBillSources.outcome(new BillSource.Fetch.Failed(StatementError.SIGNATURE, "bad")));
        assertEquals(
                200,
                given().header("Authorization", AUTH)
                        .contentType("application/octet-stream")
                        .body(new BillFixtures.Wechat(uploaded, TestChannels.WX_STMT_APPID, TestChannels.WX_STMT_MCH)
                                .bytes())
                        .post("/admin/statements/" + WX + "/" + uploaded)
                        .statusCode());

        Instant before = beijing(today, 10, 29);
        at(before);
        assertTrue(
                scheduler.due(before).stream().noneMatch(x -> x.channel().name().equals(WX)), "not before 10:30");

        Instant run = beijing(today, 10, 31);
        at(run);
        scheduler.runOnce(run);
        assertEquals("DIFFERENCES", status(y));
        assertEquals("NO_BILL", status(noBill));
        assertEquals("ERROR", status(failing));
        assertEquals("ERROR", status(signature));
        assertEquals("RECONCILED", status(uploaded));
        assertEquals(0, TestBillSources.fetches(WX, uploaded), "an upload is never replaced by the scheduler");
        for (int back = 6; back <= 7; back++) {
            assertEquals("NOT_READY", status(today.minusDays(back)), "days missed are caught up 7 days back");
        }
        assertEquals(0, TestBillSources.fetches(WX, today.minusDays(8)));

        // a minute later nothing is due; at the retry time the retried ones are, the others not
        Instant later = beijing(today, 10, 32);
        at(later);
        scheduler.runOnce(later);
        assertEquals(1, TestBillSources.fetches(WX, failing), "not before its retry time");
        Instant retry = beijing(today, 11, 2);
        at(retry);
        scheduler.runOnce(retry);
        assertEquals(2, TestBillSources.fetches(WX, failing));
        assertEquals(1, TestBillSources.fetches(WX, signature), "SIGNATURE is not retried within the day");
        assertEquals(1, TestBillSources.fetches(WX, y));
        assertEquals(1, TestBillSources.fetches(WX, noBill));

        // the next daily run retries an ERROR day of the last 7 once, and never a settled day
        Instant nextDay = beijing(today.plusDays(1), 10, 31);
        at(nextDay);
        scheduler.runOnce(nextDay);
        assertEquals(2, TestBillSources.fetches(WX, signature));
        scheduler.runOnce(beijing(today.plusDays(1), 10, 40));
        assertEquals(2, TestBillSources.fetches(WX, signature), "once per daily run");
        assertEquals(1, TestBillSources.fetches(WX, y));
        assertEquals(1, TestBillSources.fetches(WX, noBill));
    }

    @Test
    void billLinesPastTheRetentionAreDeletedAndTheDayKeepsItsTotalsAndDifferences() {
        LocalDate old = LocalDate.of(2020, 2, 1).plusDays(DAYS.incrementAndGet());
        assertEquals(
                200,
                given().header("Authorization", AUTH)
                        .contentType("application/octet-stream")
                        .body(bill(old))
                        .post("/admin/statements/" + WX + "/" + old)
                        .statusCode());
        long set = ((Number) Db.row("SELECT line_set_id FROM statements WHERE channel = ? AND bill_date = ?", WX, old)
                        .get("line_set_id"))
                .longValue();
        assertEquals(1, Db.count("SELECT count(*) FROM statement_lines WHERE set_id = ?", set));
        // 400 days after the day plus one: its lines go, the statement and its difference stay
        scheduler.cleanUp(beijing(old.plusDays(402), 12, 0));
        assertEquals(0, Db.count("SELECT count(*) FROM statement_lines WHERE set_id = ?", set));
        assertEquals(0, Db.count("SELECT count(*) FROM statement_line_sets WHERE id = ?", set));
        assertEquals("DIFFERENCES", status(old));
        assertEquals(
                1, Db.count("SELECT count(*) FROM statement_differences WHERE channel = ? AND bill_date = ?", WX, old));
        // a recent day keeps its lines
        LocalDate recent = newDay();
        assertEquals(
                200,
                given().header("Authorization", AUTH)
                        .contentType("application/octet-stream")
                        .body(bill(recent))
                        .post("/admin/statements/" + WX + "/" + recent)
                        .statusCode());
        scheduler.cleanUp(Instant.now());
        assertEquals(
                1,
                Db.count(
                        "SELECT count(*) FROM statement_lines l JOIN statements s ON s.line_set_id = l.set_id"
                                + " WHERE s.channel = ? AND s.bill_date = ?",
                        WX,
                        recent));
    }

    static String status(LocalDate day) {
        return given().header("Authorization", AUTH)
                .get("/admin/statements/" + WX + "/" + day)
                .jsonPath()
                .getString("status");
    }
}
