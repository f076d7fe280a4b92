package io.paynotify.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.testing.QueryChannels;
import java.time.Duration;
import java.time.LocalTime;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The start-time rules of the statement keys (CONTRACT.md §5 and §11): {@code statements-enabled} needs the keys the
 * active query needs and is refused on {@code isv} channels; {@code statements-order-pattern} must compile;
 * {@code paynotify.statements.time} is {@code HH:mm}, {@code hold} whole days ≥ 0, the other durations positive.
 * Every problem names the key, never the value.
 */
@Tag("unit")
class StatementConfigTest {

    static final String V2 = QueryChannels.V2;
    static final String V3 = QueryChannels.V3;
    static final String ALI = QueryChannels.ALI;

    static String failure(Map<String, String> props) {
        return assertThrows(ConfigProblem.class, () -> QueryChannels.registry(props))
                .getMessage();
    }

    static String key(String channel, String key) {
        return "paynotify.channels.\"" + channel + "\"." + key;
    }

    /** The three query channels with query off and statements on. */
    static Map<String, String> statementChannels() {
        var props = new HashMap<String, String>();
        props.putAll(QueryChannels.v2("https://x.example", "MD5"));
        props.putAll(QueryChannels.v3("https://x.example"));
        props.putAll(QueryChannels.alipay("https://x.example/gateway.do"));
        for (String ch : new String[] {V2, V3, ALI}) {
            QueryChannels.remove(props, ch, "query-enabled");
            QueryChannels.put(props, ch, "statements-enabled", "true");
        }
        return props;
    }

    @Test
    void theDefaultsAreTheContracts() {
        var props = QueryChannels.v2("https://x.example", "MD5");
        StatementSettings s = QueryChannels.registry(props).statements();
        assertEquals(LocalTime.of(10, 30), s.time());
        assertEquals(2, s.holdDays());
        assertEquals(Duration.ofMinutes(30), s.retry());
        assertEquals(Duration.ofMinutes(2), s.lease());
        assertEquals(Duration.ofMinutes(5), s.downloadTimeout());
        assertEquals(Duration.ofDays(400), s.retention());
        assertFalse(s.enabled(V2), "statements-enabled defaults to false");
        assertTrue(s.ours(V2, "anything-at-all"), "the default pattern is .*");
    }

    @Test
    void statementsEnabledWithTheQueryKeysStartsOnEveryProvider() {
        StatementSettings s = QueryChannels.registry(statementChannels()).statements();
        assertTrue(s.enabled(V2));
        assertTrue(s.enabled(V3));
        assertTrue(s.enabled(ALI));
    }

    @Test
    void statementsEnabledNeedsTheKeysTheQueryNeeds() {
        var props = statementChannels();
        QueryChannels.remove(props, V3, "merchant-private-key");
        assertEquals(key(V3, "merchant-private-key") + " is required when statements-enabled is true", failure(props));

        props = statementChannels();
        QueryChannels.remove(props, V3, "merchant-serial");
        assertEquals(key(V3, "merchant-serial") + " is required when statements-enabled is true", failure(props));

        props = statementChannels();
        QueryChannels.remove(props, ALI, "merchant-private-key");
        assertEquals(key(ALI, "merchant-private-key") + " is required when statements-enabled is true", failure(props));
    }

    @Test
    void statementsEnabledIsRefusedOnAnIsvChannel() {
        var props = statementChannels();
        QueryChannels.put(props, ALI, "mode", "isv");
        assertEquals(key(ALI, "statements-enabled") + " cannot be true on a mode=isv channel", failure(props));
    }

    @Test
    void theOrderPatternMatchesWholeOrderNumbers() {
        var props = statementChannels();
        QueryChannels.put(props, V2, "statements-order-pattern", "PN[0-9]+");
        StatementSettings s = QueryChannels.registry(props).statements();
        assertTrue(s.ours(V2, "PN123"));
        assertFalse(s.ours(V2, "XPN123"));
        assertFalse(s.ours(V2, "PN123X"));
        assertTrue(s.ours(V3, "XPN123"), "another channel keeps the default");
    }

    @Test
    void anOrderPatternThatDoesNotCompileFailsTheStartNamingTheKey() {
        var props = statementChannels();
        QueryChannels.put(props, V2, "statements-order-pattern", "PN[0-9");
        assertEquals(key(V2, "statements-order-pattern") + " is not a regular expression", failure(props));
    }

    @ParameterizedTest
    @ValueSource(strings = {"10:30", "00:00", "23:59", "07:05"})
    void aTimeAsHhMmStarts(String value) {
        var props = statementChannels();
        props.put("paynotify.statements.time", value);
        assertEquals(
                LocalTime.parse(value),
                QueryChannels.registry(props).statements().time());
    }

    @ParameterizedTest
    @ValueSource(strings = {"10:3", "24:00", "1030", "10:30:00", "9:30", "ten", "10:60", " "})
    void aTimeThatIsNotHhMmFailsTheStart(String value) {
        var props = statementChannels();
        props.put("paynotify.statements.time", value);
        assertEquals("paynotify.statements.time must be a Beijing time of day as HH:mm", failure(props));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0d", "1d", "2d", "7d", "48h"})
    void aHoldOfWholeDaysStarts(String value) {
        var props = statementChannels();
        props.put("paynotify.statements.hold", value);
        QueryChannels.registry(props);
    }

    @ParameterizedTest
    @ValueSource(strings = {"36h", "-1d", "PT24H1S", "90m"})
    void aHoldThatIsNotWholeDaysFailsTheStart(String value) {
        var props = statementChannels();
        props.put("paynotify.statements.hold", value);
        assertTrue(failure(props).startsWith("paynotify.statements.hold must be"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"retry", "lease", "download-timeout", "retention"})
    void everyOtherStatementDurationMustBePositive(String name) {
        for (String value : new String[] {"0s", "-1m"}) {
            var props = statementChannels();
            props.put("paynotify.statements." + name, value);
            assertEquals("paynotify.statements." + name + " must be a positive duration", failure(props));
        }
    }
}
