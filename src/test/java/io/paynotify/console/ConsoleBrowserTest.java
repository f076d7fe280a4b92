package io.paynotify.console;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.AlipayFixtures;
import io.paynotify.testing.BillFixtures;
import io.paynotify.testing.Db;
import io.paynotify.testing.HookEvents;
import io.paynotify.testing.OrderBuilder;
import io.paynotify.testing.Sim;
import io.paynotify.testing.SimulatorProfile;
import io.paynotify.testing.SimulatorResource;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WebhookReceiver;
import io.paynotify.testing.WechatV2Fixtures;
import io.paynotify.testing.WechatV3Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.config.EncoderConfig;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator console (docs/operations.md "Operator console") in a real browser: Debian's headless Chromium driven
 * through the system's chromedriver against the running service, its real database and the provider simulator's
 * gateway (for "query now"). Nothing is downloaded: Selenium is given both executables, so Selenium Manager never
 * runs. Without them the tests fail and say how to install them.
 *
 * <p>Screenshots of the pages go to {@code target/console-screenshots/}, or to the directory that the system
 * property {@code console.screenshots} names ({@code -Dconsole.screenshots=docs} refreshes the ones in docs/).
 */
@QuarkusTest
@TestProfile(SimulatorProfile.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {

    /** The simulator's query-enabled channels; no scheduled query during the run, so only the operator's runs. */
    static final Path CHROMIUM = Path.of(System.getProperty("console.chromium", "/usr/bin/chromium"));

    static final Path CHROMEDRIVER = Path.of(System.getProperty("console.chromedriver", "/usr/bin/chromedriver"));
    static final Duration WAIT = Duration.ofSeconds(Long.getLong("console.wait", 20));
    static final String TITLE = "paynotify console";

    /**
     * Markup in attacker-controlled free text (an Alipay subject, a v3 attach, an order description): it must show
     * as these characters and never run; if it ran, window.__xss and the title would say so.
     */
    static final String PAYLOAD = "<img src=x onerror=\"window.__xss=1;document.title='XSS'\">"
            + "<script>window.__xss=2;document.title='XSS'</script>\"><svg onload=window.__xss=3>";

    static ChromeDriverService service;
    static WebDriver driver;

    @BeforeAll
    static void startBrowser() {
        assertTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "The console's browser tests need Debian's headless Chromium and its driver at " + CHROMIUM + " and "
                        + CHROMEDRIVER + ": apt-get install chromium chromium-driver");
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withLogOutput(java.io.OutputStream.nullOutputStream())
                .build();
        var options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--window-size=1280,900",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                // nothing reaches out: this machine's network is closed, and Chromium otherwise waits at start for
                // lookups of Google's hosts (about 25 s of every run)
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-quic",
                "--disable-default-apps",
                "--no-default-browser-check",
                "--user-data-dir=" + profileDirectory());
        var logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        driver = new ChromeDriver(service, options);
        // deliveries of the hook channel go to the test receiver (it answers 204)
        WebhookReceiver.get();
    }

    /** A new, empty browser profile for this run. */
    private static String profileDirectory() {
        try {
            return Files.createTempDirectory("paynotify-console-browser").toString();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("no temporary directory for the browser profile", e);
        }
    }

    @AfterAll
    static void stopBrowser() {
        if (driver != null) {
            driver.quit();
        }
        if (service != null) {
            service.stop();
        }
    }

    @BeforeEach
    void receiverAnswers204() {
        // answers another test class scripted and left unused must not fail this class's deliveries
        WebhookReceiver.get().reset();
    }

    @AfterEach
    void webhookOfHookBEnabled() {
        Db.update("UPDATE webhook_endpoints SET disabled_at = NULL WHERE client_id = ?", TestChannels.HOOK_B);
    }

    // ---- the scenarios

    @Test
    @Order(1)
    void aWrongTokenIsRefusedWithAClearMessageAndForgotten() {
        fresh();
        assertTrue(visible("login"), "without a token the console asks for one");
        signIn("not-a-token-of-this-service-0123456789abcdef");

        WebElement flash = waitFor(By.id("flash"));
        new WebDriverWait(driver, WAIT).until(ExpectedConditions.textToBePresentInElement(flash, "Token refused"));
        assertTrue(flash.getText().contains("401"), flash.getText());
        assertNull(js("return sessionStorage.getItem('paynotify.adminToken')"), "the refused token is forgotten");
        assertTrue(visible("login"), "the sign-in form shows again");
        assertFalse(visible("nav"), "no page shows");
        assertNoPolicyViolations();
    }

    @Test
    @Order(2)
    void findsAFlaggedOrderOpensItsTimelineAndQueriesTheProviderNow() {
        // an amount mismatch: the provider says 12.00 for an order of 12.34; the order stays PENDING, flagged
        String no = "CQ" + id();
        // inserted unscheduled: only the operator's "query now" asks the provider about it
        OrderBuilder.anOrder()
                .channel(SimulatorResource.WX)
                .provider("WECHATPAY_V2")
                .outTradeNo(no)
                .amount(1234)
                .insert();
        byte[] notice = WechatV2Fixtures.payment(no, "4200" + id(), 1200)
                .with("appid", SimulatorResource.WX_APPID)
                .with("mch_id", SimulatorResource.WX_MCH)
                .signedWith(SimulatorResource.WX_KEY, "MD5");
        given().body(notice).post("/notify/wechatpay/" + SimulatorResource.WX);
        assertEquals(
                List.of("AMOUNT_MISMATCH"),
                Db.row("SELECT attention FROM orders WHERE channel = ? AND out_trade_no = ?", SimulatorResource.WX, no)
                        .get("attention"),
                "the notice flagged the order");
        otherFlaggedOrders();
        // the provider now has the payment, with the right amount
        Sim.trade(no, "PAID", 1234);

        signInWithTheToken();
        WebElement row = waitFor(orderRow(SimulatorResource.WX, no));
        assertTrue(row.getText().contains("AMOUNT_MISMATCH"), row.getText());
        assertTrue(row.getText().contains("¥12.34"), row.getText());
        screenshot("console-attention.png");

        // filters: the channel by the API, the reason in the page
        type(By.id("f-channel"), SimulatorResource.WX);
        new Select(driver.findElement(By.id("f-reason"))).selectByValue("AMOUNT_MISMATCH");
        driver.findElement(By.cssSelector("#attention-filters button")).click();
        waitFor(orderRow(SimulatorResource.WX, no));
        new WebDriverWait(driver, WAIT).until(d -> d.getCurrentUrl().contains("channel=" + SimulatorResource.WX));
        for (WebElement r : driver.findElements(By.cssSelector("tr.order-row"))) {
            assertEquals(SimulatorResource.WX, r.getAttribute("data-channel"), "the channel filter holds");
            assertTrue(r.getText().contains("AMOUNT_MISMATCH"), "the reason filter holds");
        }

        // the timeline
        waitFor(orderRow(SimulatorResource.WX, no))
                .findElement(By.cssSelector("a.order-link"))
                .click();
        waitForText(By.id("order-state"), "PENDING");
        assertTrue(text(By.id("order-attention")).contains("AMOUNT_MISMATCH"));
        WebElement anomaly = waitFor(By.cssSelector("tr.notification-row"));
        assertTrue(anomaly.getText().contains("ANOMALY"), anomaly.getText());
        assertTrue(anomaly.getText().contains("AMOUNT_MISMATCH"), anomaly.getText());
        assertTrue(anomaly.getText().contains("NOTIFY"), anomaly.getText());
        // the raw body only on demand, as text
        assertFalse(driver.findElement(By.cssSelector("pre.raw-body")).isDisplayed(), "hidden until asked for");
        anomaly.findElement(By.cssSelector("button.raw-toggle")).click();
        WebElement raw = waitFor(By.cssSelector("pre.raw-body"));
        assertTrue(
                raw.getText().contains("<out_trade_no><![CDATA[" + no + "]]></out_trade_no>")
                        || raw.getText().contains("<out_trade_no>" + no + "</out_trade_no>"),
                raw.getText());
        waitFor(By.cssSelector(".event[data-id]"));

        // query now: the simulator's gateway answers PAID with the right amount
        driver.findElement(By.id("query-now")).click();
        waitForText(By.id("query-answer"), "PAID");
        waitForText(By.id("order-state"), "SUCCESS");
        new WebDriverWait(driver, WAIT)
                .until(d ->
                        d.findElements(By.cssSelector("tr.notification-row")).size() == 2);
        String query = driver.findElements(By.cssSelector("tr.notification-row"))
                .get(1)
                .getText();
        assertTrue(query.contains("QUERY") && query.contains("APPLIED"), query);
        new WebDriverWait(driver, WAIT)
                .until(d -> d.findElements(By.cssSelector(".event[data-id]")).size() == 2);
        assertTrue(text(By.id("events")).contains("order.paid"));
        assertTrue(text(By.id("events")).contains("order.attention"));
        Map<String, Object> order =
                Db.row("SELECT * FROM orders WHERE channel = ? AND out_trade_no = ?", SimulatorResource.WX, no);
        assertEquals("SUCCESS", order.get("state"));
        assertEquals(1, ((Number) order.get("query_count")).intValue());
        assertEquals(1, Sim.requests(no).size(), "one query reached the gateway");
        // the query button is for PENDING orders only
        assertFalse(driver.findElement(By.id("query-now")).isEnabled());
        screenshot("console-order.png");
        assertNoPolicyViolations();
    }

    @Test
    @Order(3)
    void redeliversAnEventFromTheOrderTimeline() {
        String event = HookEvents.paidOnHookChannel();
        HookEvents.freeze(event, TestChannels.HOOK_B, "FAILED", 3);
        Db.update(
                "UPDATE deliveries SET last_status = 500, last_error = NULL, last_attempt_at = now()"
                        + " WHERE client_id = ? AND event_id = (SELECT id FROM events WHERE event_id = ?)",
                TestChannels.HOOK_B,
                event);
        String no = (String) Db.row(
                        "SELECT o.out_trade_no FROM orders o JOIN events e ON e.order_id = o.id WHERE e.event_id = ?",
                        event)
                .get("out_trade_no");

        signInWithTheToken();
        open("#/order/" + TestChannels.WX_HOOK + "/" + no);
        WebElement hookB = waitFor(delivery(event, TestChannels.HOOK_B));
        assertTrue(hookB.getText().contains("FAILED"), hookB.getText());
        assertTrue(hookB.getText().contains("last status 500"), hookB.getText());

        hookB.findElement(By.cssSelector("button.redeliver")).click();
        waitForText(By.id("flash"), "Redelivery queued");
        Awaitility.await()
                .atMost(WAIT)
                .until(() -> !"FAILED"
                        .equals(HookEvents.delivery(event, TestChannels.HOOK_B).get("state")));
        // the page shows the delivery again, queued or already delivered
        new WebDriverWait(driver, WAIT).until(d -> {
            String t = d.findElement(delivery(event, TestChannels.HOOK_B)).getText();
            return t.contains("PENDING") || t.contains("SUCCEEDED");
        });
        Awaitility.await()
                .atMost(WAIT)
                .until(() -> "SUCCEEDED"
                        .equals(HookEvents.delivery(event, TestChannels.HOOK_B).get("state")));
        assertEquals(
                "SUCCEEDED", HookEvents.delivery(event, TestChannels.HOOK_A).get("state"), "hook-a was not touched");
        assertNoPolicyViolations();
    }

    @Test
    @Order(4)
    void theWebhooksPageShowsADisabledWebhookAndEnablesIt() {
        // hook-b's webhook answered 410: that delivery FAILED and the webhook is disabled (as the worker leaves it)
        String gone = HookEvents.paidOnHookChannel();
        HookEvents.freeze(gone, TestChannels.HOOK_B, "FAILED", 1);
        Db.update(
                "UPDATE deliveries SET last_status = 410, last_error = NULL, last_attempt_at = now()"
                        + " WHERE client_id = ? AND event_id = (SELECT id FROM events WHERE event_id = ?)",
                TestChannels.HOOK_B,
                gone);
        String url = "http://127.0.0.1:" + System.getProperty("pntest.webhook.port") + "/b";
        Db.update(
                "INSERT INTO webhook_endpoints (client_id, webhook_url, disabled_at) VALUES (?, ?, now())"
                        + " ON CONFLICT (client_id, webhook_url) DO UPDATE SET disabled_at = now()",
                TestChannels.HOOK_B,
                url);
        // the next event's delivery to hook-b waits, PENDING
        String waiting = HookEvents.paidOnHookChannel();
        Awaitility.await()
                .atMost(WAIT)
                .until(() -> "SUCCEEDED"
                        .equals(HookEvents.delivery(waiting, TestChannels.HOOK_A)
                                .get("state")));
        assertEquals(
                "PENDING", HookEvents.delivery(waiting, TestChannels.HOOK_B).get("state"));

        signInWithTheToken();
        open("#/webhooks");
        WebElement disabled = waitFor(By.cssSelector("tr.disabled-row[data-client='" + TestChannels.HOOK_B + "']"));
        assertTrue(disabled.getText().contains("DISABLED"), disabled.getText());
        assertTrue(disabled.getText().contains(gone), disabled.getText());
        WebElement card = waitFor(By.cssSelector(".client[data-client='" + TestChannels.HOOK_B + "']"));
        assertTrue(card.getText().contains(waiting), "the waiting delivery is listed as pending");
        assertTrue(card.getText().contains(gone), "the delivery that got the 410 is listed as failed");
        assertTrue(
                driver.findElements(By.cssSelector("tr.disabled-row[data-client='" + TestChannels.HOOK_A + "']"))
                        .isEmpty(),
                "hook-a never answered 410");
        screenshot("console-webhooks.png");

        disabled.findElement(By.cssSelector("button.enable")).click();
        waitForText(By.cssSelector("tr.disabled-row[data-client='" + TestChannels.HOOK_B + "']"), "ENABLED");
        assertNull(Db.row("SELECT disabled_at FROM webhook_endpoints WHERE client_id = ?", TestChannels.HOOK_B)
                .get("disabled_at"));
        // the waiting delivery resumes; the one that got the 410 stays FAILED until redelivered
        Awaitility.await()
                .atMost(WAIT)
                .until(() -> "SUCCEEDED"
                        .equals(HookEvents.delivery(waiting, TestChannels.HOOK_B)
                                .get("state")));
        assertEquals("FAILED", HookEvents.delivery(gone, TestChannels.HOOK_B).get("state"));
        // after a reload the console still knows that it enabled the webhook after that 410
        driver.navigate().refresh();
        waitForText(By.cssSelector("tr.disabled-row[data-client='" + TestChannels.HOOK_B + "']"), "ENABLED");
        assertNoPolicyViolations();
    }

    @Test
    @Order(5)
    void markupInAttackerControlledTextShowsAsTextAndNeverRuns() {
        // a genuine Alipay notice whose subject holds markup, for an order whose description holds it too
        String ali = "CX" + id();
        OrderBuilder.anOrder()
                .channel(TestChannels.ALI)
                .outTradeNo(ali)
                .amount(100)
                .description(PAYLOAD)
                .insert();
        byte[] aliNotice = AlipayFixtures.aNotice()
                .orderNo(ali)
                .tradeNo("2026" + id())
                .amount("0.99")
                .set("subject", PAYLOAD)
                .body();
        given().config(RestAssured.config()
                        .encoderConfig(EncoderConfig.encoderConfig()
                                .encodeContentTypeAs("application/x-www-form-urlencoded", ContentType.BINARY)))
                .contentType("application/x-www-form-urlencoded; charset=utf-8")
                .body(aliNotice)
                .post("/notify/alipay/" + TestChannels.ALI);
        // a genuine WeChat Pay v3 notice whose attach holds it
        String v3 = "CY" + id();
        OrderBuilder.anOrder()
                .channel(TestChannels.WX3)
                .outTradeNo(v3)
                .amount(100)
                .insert();
        Map<String, Object> resource = WechatV3Fixtures.transaction(v3, "4200" + id(), 99);
        resource.put("attach", PAYLOAD);
        var v3Notice = WechatV3Fixtures.signed(WechatV3Fixtures.body("TRANSACTION.SUCCESS", resource));
        RequestSpecification spec = given().body(v3Notice.body());
        v3Notice.headers().forEach(spec::header);
        spec.post("/notify/wechatpay-v3/" + TestChannels.WX3);
        assertEquals(1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", ali));
        assertEquals(1, Db.count("SELECT count(*) FROM notifications WHERE out_trade_no = ?", v3));

        signInWithTheToken();
        waitFor(orderRow(TestChannels.ALI, ali));
        waitFor(orderRow(TestChannels.WX3, v3));
        assertNothingRan();

        open("#/order/" + TestChannels.ALI + "/" + ali);
        waitForText(By.id("order-description"), "<script>");
        assertEquals(PAYLOAD, text(By.id("order-description")), "the description, character for character");
        waitFor(By.cssSelector("tr.notification-row"))
                .findElement(By.cssSelector("button.raw-toggle"))
                .click();
        WebElement raw = waitFor(By.cssSelector("pre.raw-body"));
        assertTrue(raw.getText().contains("subject="), raw.getText());
        List<String> fields = driver.findElements(By.cssSelector("pre.field")).stream()
                .map(WebElement::getText)
                .toList();
        assertTrue(fields.contains(PAYLOAD), "the decoded subject shows as text: " + fields);
        assertNothingRan();

        open("#/order/" + TestChannels.WX3 + "/" + v3);
        waitFor(By.cssSelector("tr.notification-row"))
                .findElement(By.cssSelector("button.raw-toggle"))
                .click();
        WebElement decoded = waitFor(By.cssSelector("pre.decoded"));
        assertTrue(
                decoded.getText().contains("<script>window.__xss=2;document.title='XSS'</script>"), decoded.getText());
        assertTrue(decoded.getText().contains("<img src=x onerror="), decoded.getText());
        assertNothingRan();
        assertNoPolicyViolations();
    }

    @Test
    @Order(6)
    void aServiceProvidersOrderShowsItsSubMerchant() {
        String no = "CS" + id();
        OrderBuilder.anOrder()
                .channel(TestChannels.WX3_SP)
                .outTradeNo(no)
                .amount(4_200)
                .subMerchant(TestChannels.SUB_B, "wxsubapp000000b2")
                .attention("ACCOUNT_MISMATCH")
                .insert();
        signInWithTheToken();
        WebElement row = waitFor(orderRow(TestChannels.WX3_SP, no));
        assertTrue(row.getText().contains(TestChannels.SUB_B), row.getText());
        open("#/order/" + TestChannels.WX3_SP + "/" + no);
        waitForText(By.id("order-sub-merchant"), TestChannels.SUB_B);
        assertEquals("wxsubapp000000b2", text(By.id("order-sub-app")));
        assertNoPolicyViolations();
    }

    @Test
    @Order(7)
    void uploadsABillSeesTheDayWithItsDifferenceAndResolvesItWithANote() throws IOException {
        // a day of the statements-enabled channel: one payment as the ledger has it, one the bill says is 12.00 where
        // the order is 12.34, and a trade that is not this service's (outside statements-order-pattern)
        String channel = TestChannels.WX_STMT;
        LocalDate day = LocalDate.of(2025, 9, 12);
        Instant noon = day.atTime(LocalTime.NOON).toInstant(ZoneOffset.ofHours(8));
        String matched = "ST" + id();
        String matchedTxn = "42" + id();
        String mismatched = "ST" + id();
        String mismatchedTxn = "42" + id();
        OrderBuilder.anOrder()
                .channel(channel)
                .outTradeNo(matched)
                .amount(4_200)
                .paid(matchedTxn)
                .paidAt(noon)
                .insert();
        OrderBuilder.anOrder()
                .channel(channel)
                .outTradeNo(mismatched)
                .amount(1_234)
                .paid(mismatchedTxn)
                .paidAt(noon)
                .insert();
        byte[] bill = new BillFixtures.Wechat(day, TestChannels.WX_STMT_APPID, TestChannels.WX_STMT_MCH)
                .payment(matched, matchedTxn, "42.00")
                .payment(mismatched, mismatchedTxn, "12.00")
                .payment("SHOP-7", "42" + id(), "5.00")
                .gzip();
        Path file = Files.createTempFile("paynotify-bill-" + day, ".csv.gz");
        Files.write(file, bill);

        // upload it as the provider gave it (application/octet-stream, gzip as downloaded)
        signInWithTheToken();
        driver.findElement(By.id("nav-statements")).click();
        waitFor(By.id("statement-actions"));
        // fetch now on a channel without statements: the API's 409 shows, and nothing is stored
        type(By.id("s-channel"), SimulatorResource.WX);
        driver.findElement(By.id("s-fetch")).click();
        waitForText(By.id("flash"), "409");
        assertTrue(text(By.id("flash")).contains("statements-enabled"), text(By.id("flash")));
        assertEquals(0, Db.count("SELECT count(*) FROM statements WHERE channel = ?", SimulatorResource.WX));
        type(By.id("s-channel"), channel);
        setDate(By.id("s-day"), day);
        driver.findElement(By.id("s-file")).sendKeys(file.toString());
        driver.findElement(By.id("s-upload")).click();
        waitForText(By.id("flash"), "Uploaded " + channel + " " + day + ": DIFFERENCES, 1 open difference.");
        Map<String, Object> stored =
                Db.row("SELECT source, file_sha256 FROM statements WHERE channel = ? AND bill_date = ?", channel, day);
        assertEquals("UPLOAD", stored.get("source"));
        assertEquals(sha256(bill), stored.get("file_sha256"), "the bytes arrived exactly as chosen");

        // the day in the list, filtered to the channel: its status, the bill's totals and its open difference
        driver.findElement(By.id("nav-statements")).click();
        waitFor(By.id("statement-filters"));
        type(By.id("st-channel"), channel);
        driver.findElement(By.cssSelector("#statement-filters button")).click();
        new WebDriverWait(driver, WAIT).until(d -> d.getCurrentUrl().contains("channel=" + channel));
        WebElement row = waitFor(statementRow(channel, day));
        List<String> cells = row.findElements(By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
        assertEquals(day.toString(), cells.get(0), cells.toString());
        assertEquals("DIFFERENCES", cells.get(2), cells.toString());
        assertEquals("UPLOAD", cells.get(3), cells.toString());
        // next to each of the bill's totals, the ledger's (ledger.payments: the two orders paid that day, 42.00 +
        // 12.34)
        assertEquals("2 · ¥54.00 5400 fen", cells.get(4), "the bill's payments: " + cells);
        assertEquals("2 · ¥54.34 5434 fen", cells.get(5), "the ledger's payments: " + cells);
        assertEquals("0 · ¥0.00 0 fen", cells.get(6), "refunds: " + cells);
        assertEquals("0 · ¥0.00 0 fen", cells.get(7), "the ledger's refunds: " + cells);
        assertEquals("1 · ¥5.00 500 fen", cells.get(8), "not ours: " + cells);
        assertEquals("1", cells.get(10), "open differences: " + cells);
        assertEquals(1, row.findElements(By.cssSelector(".ledger-differs")).size(), "only the payments differ");
        WebElement open = waitFor(By.cssSelector("#open-differences tr.difference-row[data-kind='AMOUNT_MISMATCH']"));
        assertTrue(open.getText().contains(mismatched), open.getText());
        screenshot("console-statements.png");

        // the day: its facts and the difference, linked to its order
        row.findElement(By.cssSelector("a.statement-link")).click();
        waitForText(By.id("statement-status"), "DIFFERENCES");
        assertTrue(text(By.id("statement-payments")).contains("¥54.00"), text(By.id("statement-payments")));
        assertEquals("2 · ¥54.34 5434 fen", text(By.id("statement-ledger-payments")));
        assertEquals("0 · ¥0.00 0 fen", text(By.id("statement-ledger-refunds")));
        assertEquals("1", text(By.id("statement-open")));
        WebElement difference = waitFor(difference("AMOUNT_MISMATCH", "OPEN"));
        assertTrue(difference.getText().contains("¥12.00 1200 fen"), "the bill's amount: " + difference.getText());
        assertTrue(difference.getText().contains("¥12.34 1234 fen"), "the order's: " + difference.getText());
        assertTrue(difference.getText().contains(mismatchedTxn), difference.getText());
        WebElement orderLink = difference.findElement(By.cssSelector("a.order-link"));
        assertEquals(mismatched, orderLink.getText());
        orderLink.click();
        waitForText(By.id("order-attention"), "STATEMENT_AMOUNT_MISMATCH");
        assertEquals("SUCCESS", text(By.id("order-state")), "a bill never changes an order");
        driver.navigate().back();
        difference = waitFor(difference("AMOUNT_MISMATCH", "OPEN"));
        screenshot("console-statement.png");

        // resolving needs a note
        difference.findElement(By.cssSelector("button.resolve")).click();
        waitForText(By.id("flash"), "Say in a note how difference");
        String note = "Refunded the customer 0.34 by hand; ticket OPS-" + id().substring(0, 6);
        difference = waitFor(difference("AMOUNT_MISMATCH", "OPEN"));
        difference.findElement(By.cssSelector("input.resolve-note")).sendKeys(note);
        difference.findElement(By.cssSelector("button.resolve")).click();
        waitForText(By.id("flash"), "resolved.");
        waitForText(By.id("statement-status"), "RECONCILED");
        assertEquals("0", text(By.id("statement-open")));
        WebElement resolved = waitFor(difference("AMOUNT_MISMATCH", "RESOLVED"));
        assertTrue(resolved.getText().contains(note), resolved.getText());
        assertTrue(resolved.findElements(By.cssSelector("button.resolve")).isEmpty(), "nothing left to resolve");
        Map<String, Object> d = Db.row(
                "SELECT status, note, resolved_at FROM statement_differences WHERE channel = ? AND bill_date = ?",
                channel,
                day);
        assertEquals("RESOLVED", d.get("status"));
        assertEquals(note, d.get("note"));
        assertNotNull(d.get("resolved_at"));

        // and the list says so
        driver.findElement(By.cssSelector(".crumbs a")).click();
        waitForText(statementRow(channel, day), "RECONCILED");
        waitFor(By.id("no-open-differences"));
        assertNoPolicyViolations();
    }

    // ---- arranging

    /** Flagged orders on the simulator's other channels, so that the Attention page looks like a working day. */
    static void otherFlaggedOrders() {
        OrderBuilder.anOrder()
                .channel(SimulatorResource.ALI)
                .provider("ALIPAY")
                .outTradeNo("CA" + id())
                .amount(25_800)
                .description("Annual plan")
                .paid("2026" + id())
                .attention("DUPLICATE_PAYMENT")
                .insert();
        OrderBuilder.anOrder()
                .channel(SimulatorResource.WX3)
                .provider("WECHATPAY_V3")
                .outTradeNo("CB" + id())
                .amount(4_990)
                .description("Monthly plan")
                .closed()
                .attention("PAID_AFTER_CLOSE")
                .insert();
    }

    static String id() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    // ---- the browser

    /** The console with nothing stored. */
    static void fresh() {
        driver.get(base());
        js("sessionStorage.clear()");
        driver.navigate().refresh();
        waitFor(By.id("login"));
    }

    static void signIn(String token) {
        WebElement input = waitFor(By.id("token"));
        input.clear();
        input.sendKeys(token);
        driver.findElement(By.id("login-button")).click();
    }

    /** Signed in with the admin token, on the Attention page. */
    static void signInWithTheToken() {
        fresh();
        signIn(TestChannels.ADMIN_TOKEN);
        waitFor(By.id("attention-table"));
        assertEquals(TestChannels.ADMIN_TOKEN, js("return sessionStorage.getItem('paynotify.adminToken')"));
        assertTrue(driver.manage().getCookies().isEmpty(), "no cookies");
    }

    /** The console on the port the test run's application listens on (known once the application started). */
    static String base() {
        return "http://localhost:" + RestAssured.port + "/admin/console/";
    }

    static void open(String hash) {
        driver.get(base() + hash);
    }

    static By orderRow(String channel, String outTradeNo) {
        return By.cssSelector("tr.order-row[data-channel='" + channel + "'][data-out-trade-no='" + outTradeNo + "']");
    }

    static By delivery(String eventId, String client) {
        return By.cssSelector(".event[data-id='" + eventId + "'] .delivery[data-client='" + client + "']");
    }

    static By statementRow(String channel, LocalDate day) {
        return By.cssSelector("tr.statement-row[data-channel='" + channel + "'][data-bill-date='" + day + "']");
    }

    static By difference(String kind, String status) {
        return By.cssSelector("tr.difference-row[data-kind='" + kind + "'][data-status='" + status + "']");
    }

    /** A date input's value, as a date picker would set it (its typed form depends on the browser's locale). */
    static void setDate(By by, LocalDate day) {
        ((JavascriptExecutor) driver)
                .executeScript(
                        "arguments[0].value = arguments[1];"
                                + " arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
                        driver.findElement(by),
                        day.toString());
    }

    static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of()
                    .formatHex(
                            java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static WebElement waitFor(By by) {
        try {
            return new WebDriverWait(driver, WAIT).until(ExpectedConditions.visibilityOfElementLocated(by));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(by + " did not show; " + pageState(), e);
        }
    }

    /** What the page said, for a failure message: its address, its message line and the browser's log. */
    static String pageState() {
        String flash = driver.findElements(By.id("flash")).stream()
                .map(WebElement::getText)
                .findFirst()
                .orElse("");
        List<String> log = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .toList();
        return "at " + driver.getCurrentUrl() + ", message: '" + flash + "', browser log: " + log + ", page: "
                + js("return document.querySelector('main').outerHTML.substring(0, 3000)");
    }

    static void waitForText(By by, String text) {
        try {
            new WebDriverWait(driver, WAIT).until(ExpectedConditions.textToBePresentInElementLocated(by, text));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(by + " did not say " + text + "; " + pageState(), e);
        }
    }

    static String text(By by) {
        return driver.findElement(by).getText();
    }

    static void type(By by, String value) {
        WebElement e = driver.findElement(by);
        e.clear();
        e.sendKeys(value);
    }

    static boolean visible(String id) {
        return driver.findElement(By.id(id)).isDisplayed();
    }

    static Object js(String script) {
        return ((JavascriptExecutor) driver).executeScript(script);
    }

    /** No markup from the data became an element, and none of its script ran. */
    static void assertNothingRan() {
        assertNull(js("return window.__xss === undefined ? null : String(window.__xss)"), "the payload ran");
        assertEquals(TITLE, driver.getTitle(), "the payload changed the title");
        assertEquals(
                List.of(),
                driver.findElements(By.cssSelector("main img, main script, main svg, main iframe")),
                "no element came from the data");
        assertEquals(1, driver.findElements(By.tagName("script")).size(), "only console.js");
    }

    /** The browser's log holds no Content-Security-Policy refusal and no script error. */
    static void assertNoPolicyViolations() {
        List<String> bad = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
                .map(LogEntry::getMessage)
                .filter(m -> !m.contains("favicon.ico"))
                // the wrong-token test provokes this 401 on purpose
                .filter(m -> !(m.contains("/admin/orders?limit=1") && m.contains("401")))
                // and the Statements test this 409 (fetch now on a channel without statements)
                .filter(m -> !(m.contains("/fetch") && m.contains("409")))
                .toList();
        assertEquals(List.of(), bad, "browser log");
    }

    /** The whole page as a PNG, into target/console-screenshots/ or the directory -Dconsole.screenshots names. */
    static void screenshot(String name) {
        Path dir = Path.of(System.getProperty("console.screenshots", "target/console-screenshots"));
        var chrome = (ChromeDriver) driver;
        Number height = (Number) js("return document.documentElement.scrollHeight");
        chrome.executeCdpCommand(
                "Emulation.setDeviceMetricsOverride",
                Map.of(
                        "width",
                        1280,
                        "height",
                        Math.min(2400, Math.max(800, height.intValue())),
                        "deviceScaleFactor",
                        1,
                        "mobile",
                        false));
        try {
            Files.createDirectories(dir);
            File png = chrome.getScreenshotAs(OutputType.FILE);
            Files.copy(png.toPath(), dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            chrome.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        }
    }
}
