package io.paynotify.events;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.PaynotifyConfig;
import io.paynotify.metrics.Meters;
import io.paynotify.persistence.Transactions;
import io.paynotify.testing.Db;
import io.paynotify.testing.HookEvents;
import io.paynotify.testing.ScriptedWebhookResolver;
import io.paynotify.testing.ScriptedWebhookResolver.Script;
import io.paynotify.testing.StallingEndpoint;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WebhookReceiver;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One merchant endpoint never stalls the others (docs/api.md "Webhooks"). On {@link TestChannels#WX_ISO} every event
 * goes to three clients: {@link TestChannels#HOOK_HANG}, whose endpoint sends its headers and never the body
 * ({@link StallingEndpoint}); {@link TestChannels#HOOK_SLOW_DNS}, whose host name takes a minute to resolve
 * ({@link ScriptedWebhookResolver}); and {@link TestChannels#HOOK_STEADY}, which answers at once (its name,
 * {@code localhost}, resolved by the system resolver on every attempt, on the same resolver pool). The steady
 * client's deliveries keep their lag while the other two hang, and the hung attempts end, as failed attempts
 * {@code timeout}, at their deadline. The tests' schedule is 1 s, 2 s and the lease 3 s (TestChannels), shorter than
 * an attempt.
 */
@QuarkusTest
class WebhookIsolationTest {

    /** What the contract promises for the first attempt (p99); every one here must keep it. */
    static final long LAG_BOUND_MS = 1_000;

    @Inject
    DeliveryWorker worker;

    @Inject
    Transactions transactions;

    @Inject
    ChannelRegistry registry;

    @Inject
    Clock clock;

    @Inject
    Meters metrics;

    WebhookReceiver receiver;
    StallingEndpoint stall;

    @BeforeEach
    void endpoints() {
        receiver = WebhookReceiver.get();
        receiver.reset();
        stall = StallingEndpoint.get();
        stall.reset();
        ScriptedWebhookResolver.reset();
    }

    @AfterEach
    void quiet() {
        // nothing of this class stays due or leased for the next test; the hung attempts end now
        Db.update("UPDATE deliveries SET state = 'FAILED', lease_until = NULL, lease_token = NULL"
                + " WHERE state = 'PENDING' AND client_id IN ('" + TestChannels.HOOK_HANG + "', '"
                + TestChannels.HOOK_SLOW_DNS + "', '" + TestChannels.HOOK_STEADY + "')");
        stall.reset();
        ScriptedWebhookResolver.reset();
        receiver.reset();
        worker.start();
    }

    @Test
    void aHungEndpointAndASlowHostNameDelayNoOtherClientAndEndAtTheirDeadline() {
        ScriptedWebhookResolver.script(TestChannels.SLOW_DNS_HOST, Script.slow(Duration.ofSeconds(60)));
        var lags = new ArrayList<Long>();

        String first = pay();
        lags.add(steadyLag(first));
        // the hanging endpoint has sent its headers
        StallingEndpoint.Exchange hung = await().atMost(Duration.ofSeconds(5))
                .until(() -> stall.of(first), l -> !l.isEmpty())
                .get(0);

        // more events while both hang: each of those clients reaches its 4 attempts in flight, the steady client
        // keeps its lag
        for (int i = 0; i < 8; i++) {
            lags.add(steadyLag(pay()));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> stall.openConnections() == DeliveryWorker.PER_CLIENT);
        assertEquals(
                1,
                ScriptedWebhookResolver.lookups(TestChannels.SLOW_DNS_HOST).size(),
                "the slow name is being resolved");
        assertTrue(
                ScriptedWebhookResolver.lookups(TestChannels.STEADY_HOST).size() >= 9,
                "the steady client's name is resolved on every attempt, beside the lookup that hangs");

        // the first hung attempt ends at its deadline, 10 s after it began, as a failed attempt: timeout
        Map<String, Object> attempt = await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> firstAttempt(first, TestChannels.HOOK_HANG), a -> a != null);
        assertEquals("timeout", attempt.get("error"));
        assertNull(attempt.get("status"), "a 200 whose body never came is no success");
        int ms = ((Number) attempt.get("duration_ms")).intValue();
        assertTrue(ms >= 9_900 && ms < 11_000, "the hung attempt took " + ms + " ms, its deadline is 10 s");
        Instant closed = hung.closed().getNow(null);
        assertTrue(closed != null, "its connection was closed");
        long held = Duration.between(hung.headersSent(), closed).toMillis();
        assertTrue(held < 11_000, "the connection was held " + held + " ms after its headers");
        // the slow name: its lookup may take 5 s of the attempt
        Map<String, Object> dns = firstAttempt(first, TestChannels.HOOK_SLOW_DNS);
        assertEquals("timeout", dns.get("error"));
        int dnsMs = ((Number) dns.get("duration_ms")).intValue();
        assertTrue(dnsMs >= 4_900 && dnsMs < 6_000, "the slow lookup's attempt took " + dnsMs + " ms");
        assertEquals(
                1,
                ScriptedWebhookResolver.lookups(TestChannels.SLOW_DNS_HOST).size(),
                "its attempts share the one lookup still running");

        // while the hung ones are retried, the steady client still keeps its lag
        for (int i = 0; i < 3; i++) {
            lags.add(steadyLag(pay()));
        }
        assertTrue(stall.mostOpenConnections() <= DeliveryWorker.PER_CLIENT, "at most 4 attempts of one client");
        System.out.println("[measure] steady client's lag while two others hang, ms: " + lags);
        for (long lag : lags) {
            assertTrue(lag < LAG_BOUND_MS, "a steady delivery started " + lag + " ms after its commit: " + lags);
        }
    }

    @Test
    void aNameThatResolvesToAMetadataAddressIsRefusedAfterDnsWithoutConnecting() throws Exception {
        worker.stop();
        DeliveryWorker strict = new DeliveryWorker(transactions, registry, clock, metrics, strictConfig());
        try {
            strict.start();
            // one allowed and one refused address: the name is refused
            ScriptedWebhookResolver.script(
                    TestChannels.STEADY_HOST,
                    Script.at(InetAddress.getByName("192.0.2.10"), InetAddress.getByName("100.100.100.200")));
            ScriptedWebhookResolver.script(
                    TestChannels.SLOW_DNS_HOST, Script.at(InetAddress.getByName("::ffff:169.254.169.254")));
            String id = pay();
            for (String client :
                    List.of(TestChannels.HOOK_STEADY, TestChannels.HOOK_SLOW_DNS, TestChannels.HOOK_HANG)) {
                Map<String, Object> a =
                        await().atMost(Duration.ofSeconds(10)).until(() -> firstAttempt(id, client), r -> r != null);
                assertEquals("address not allowed", a.get("error"), client);
            }
            assertEquals(
                    0,
                    receiver.of("/steady", id).size() + receiver.of("/slow", id).size());
            assertEquals(0, stall.of(id).size(), "127.0.0.1 is loopback");
        } finally {
            strict.stop();
        }
    }

    // ---- helpers ----

    static String pay() {
        return HookEvents.paid(
                TestChannels.WX_ISO, TestChannels.WX_ISO_APPID, TestChannels.WX_ISO_MCH, TestChannels.WX_ISO_KEY);
    }

    /** Milliseconds from the event's commit to the steady client's receiver getting it. */
    long steadyLag(String eventId) {
        WebhookReceiver.Received r = await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> receiver.of("/steady", eventId), l -> !l.isEmpty())
                .get(0);
        Instant committed = (Instant) Db.row("SELECT created_at FROM events WHERE event_id = ?", eventId)
                .get("created_at");
        return Duration.between(committed, r.at()).toMillis();
    }

    /** The first recorded attempt of the event's delivery to that client, or null. */
    static Map<String, Object> firstAttempt(String eventId, String client) {
        var rows = Db.rows(
                "SELECT a.status, a.error, a.duration_ms FROM delivery_attempts a JOIN deliveries d"
                        + " ON d.id = a.delivery_id JOIN events e ON e.id = d.event_id"
                        + " WHERE e.event_id = ? AND d.client_id = ? ORDER BY a.id LIMIT 1",
                eventId,
                client);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The tests' configuration with {@code allow-loopback=false}, as production runs. */
    static PaynotifyConfig strictConfig() {
        var props = new HashMap<>(TestChannels.config());
        props.put("paynotify.webhooks.allow-loopback", "false");
        return new SmallRyeConfigBuilder()
                .withMapping(PaynotifyConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(props, "strict-webhooks", 500))
                .build()
                .getConfigMapping(PaynotifyConfig.class);
    }
}
