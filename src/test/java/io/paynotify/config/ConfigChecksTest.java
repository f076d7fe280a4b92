package io.paynotify.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.KeyParsers;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every duration of the configuration must be positive, or the start fails naming the key (docs/operations.md "Start-up checks"). */
@Tag("unit")
class ConfigChecksTest {

    static ChannelRegistry build(Map<String, String> props) {
        return new ChannelRegistry(mapping(props), KeyParsers.all());
    }

    static PaynotifyConfig mapping(Map<String, String> props) {
        var config = new SmallRyeConfigBuilder()
                .withMapping(PaynotifyConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(props, "test", 500))
                .build();
        return config.getConfigMapping(PaynotifyConfig.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0s", "0", "-1h", "PT0S", "-PT1S"})
    void aRetentionThatIsNotPositiveFailsTheStart(String value) {
        var e = assertThrows(ConfigProblem.class, () -> build(Map.of("paynotify.idempotency.retention", value)));
        assertEquals("paynotify.idempotency.retention must be a positive duration", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1s", "24h", "P1D"})
    void aPositiveRetentionStarts(String value) {
        build(Map.of("paynotify.idempotency.retention", value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"paynotify.notifications.retention", "paynotify.notifications.personal-data-retention"})
    void aNotificationRetentionThatIsNotPositiveFailsTheStart(String key) {
        for (String value : List.of("0s", "-1d")) {
            var e = assertThrows(ConfigProblem.class, () -> build(Map.of(key, value)));
            assertEquals(key + " must be a positive duration", e.getMessage());
        }
        build(Map.of(key, "30d"));
    }

    @org.junit.jupiter.api.Test
    void theNotificationRetentionsDefaultTo13MonthsAnd180Days() {
        var config = mapping(Map.of());
        assertEquals(Duration.ofDays(396), config.notifications().retention());
        assertEquals(Duration.ofDays(180), config.notifications().personalDataRetention());
    }

    @org.junit.jupiter.api.Test
    void aScheduleMustStrictlyIncrease() {
        var ok = List.of(Duration.ofSeconds(5), Duration.ofSeconds(30));
        assertEquals(ok, ConfigChecks.increasing(ok, "k"));
        assertEquals(
                "k must strictly increase",
                assertThrows(ConfigProblem.class, () -> ConfigChecks.increasing(List.of(ok.get(1), ok.get(0)), "k"))
                        .getMessage());
        assertEquals(
                "k must be a positive duration",
                assertThrows(ConfigProblem.class, () -> ConfigChecks.increasing(List.of(Duration.ZERO), "k"))
                        .getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"5m,1m", "1m,1m", "0s,1m", "1m,-5m"})
    void aQueryScheduleThatIsNotStrictlyIncreasingAndPositiveFailsTheStart(String value) {
        var e = assertThrows(ConfigProblem.class, () -> build(Map.of("paynotify.reconcile.schedule", value)));
        assertTrue(e.getMessage().startsWith("paynotify.reconcile.schedule must"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-3"})
    void aMaxRateBelowOneFailsTheStart(String value) {
        var e = assertThrows(ConfigProblem.class, () -> build(Map.of("paynotify.reconcile.max-rate", value)));
        assertEquals("paynotify.reconcile.max-rate must be at least 1", e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void theQueryDefaultsAreTheContracts() {
        ChannelRegistry r = build(Map.of());
        assertEquals(
                List.of(
                        Duration.ofMinutes(1),
                        Duration.ofMinutes(5),
                        Duration.ofMinutes(15),
                        Duration.ofHours(1),
                        Duration.ofHours(6),
                        Duration.ofHours(24)),
                r.querySchedule());
        assertEquals(10, r.queryMaxRate());
    }
}
