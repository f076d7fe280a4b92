package io.paynotify.provider.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.provider.alipay.AlipayTokenCheck.Status;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The decision logic of an ISV token's confirmation (docs/api.md "Account modes"): when a token may be sent, when a
 * check is due, what a verified answer means, what counts in {@code paynotify_isv_tokens_invalid}.
 */
@Tag("unit")
class AlipayTokenCheckTest {

    static final Instant T = Instant.parse("2026-03-01T00:00:00Z");
    static final String MERCHANT = "2021000000000101";
    static final String OTHER = "2021000000000102";

    @Test
    void anUncheckedTokenIsNotUsableItsCheckIsDueAndItHasNotFailed() {
        AlipayTokenCheck c = AlipayTokenCheck.unchecked();
        assertFalse(c.usable(T));
        assertTrue(c.due(T));
        assertFalse(c.failed(), "not checked yet is not a failure");
    }

    @Test
    void aConfirmationHoldsForTwentyFourHoursThenIsDueAgain() {
        AlipayTokenCheck c = AlipayTokenCheck.verified(T, "10000", "valid", MERCHANT, MERCHANT);
        assertEquals(Status.CONFIRMED, c.status());
        assertTrue(c.usable(T));
        assertFalse(c.due(T.plus(Duration.ofHours(23))));
        assertTrue(c.usable(T.plus(Duration.ofHours(24)).minusMillis(1)));
        assertFalse(c.due(T.plus(Duration.ofHours(24)).minusMillis(1)));
        assertFalse(c.usable(T.plus(Duration.ofHours(24))), "never used on a confirmation older than 24 h");
        assertTrue(c.due(T.plus(Duration.ofHours(24))));
        assertFalse(c.failed(), "a stale confirmation is due, not failed");
    }

    @Test
    void aTokenOfAnotherMerchantIsRefused() {
        AlipayTokenCheck c = AlipayTokenCheck.verified(T, "10000", "valid", OTHER, MERCHANT);
        assertEquals(Status.REFUSED, c.status());
        assertEquals("token belongs to another auth_app_id", c.reason());
        assertFalse(c.usable(T));
        assertTrue(c.failed());
    }

    @Test
    void anInvalidStatusOrAMissingAuthAppIdIsRefused() {
        for (String status : new String[] {"invalid", "VALID", "", null}) {
            AlipayTokenCheck c = AlipayTokenCheck.verified(T, "10000", status, MERCHANT, MERCHANT);
            assertEquals(Status.REFUSED, c.status(), "status " + status);
            assertFalse(c.usable(T));
        }
        assertEquals(
                Status.REFUSED,
                AlipayTokenCheck.verified(T, "10000", "valid", null, MERCHANT).status());
    }

    @Test
    void aVerifiedGatewayRefusalIsRefusedButUnavailableIsNoAnswer() {
        AlipayTokenCheck refused = AlipayTokenCheck.verified(T, "20001", null, null, MERCHANT);
        assertEquals(Status.REFUSED, refused.status());
        assertEquals("refused with code 20001", refused.reason());
        assertEquals(
                Status.REFUSED,
                AlipayTokenCheck.verified(T, "40004", null, null, MERCHANT).status());
        assertEquals(
                "refused with code (not numeric)",
                AlipayTokenCheck.verified(T, "x<y", null, null, MERCHANT).reason());
        assertEquals(
                Status.UNANSWERED,
                AlipayTokenCheck.verified(T, "20000", null, null, MERCHANT).status());
        assertEquals(
                Status.UNANSWERED,
                AlipayTokenCheck.verified(T, null, "valid", MERCHANT, MERCHANT).status());
    }

    @Test
    void aRefusedTokenIsAskedAboutAgainOnlyAfterTwentyFourHours() {
        AlipayTokenCheck c = AlipayTokenCheck.verified(T, "10000", "invalid", MERCHANT, MERCHANT);
        assertFalse(c.due(T.plus(Duration.ofMinutes(1))), "a decided answer is not retried every minute");
        assertFalse(c.due(T.plus(Duration.ofHours(24)).minusMillis(1)));
        assertTrue(c.due(T.plus(Duration.ofHours(24))));
    }

    @Test
    void aCheckWithoutAVerifiedAnswerIsRetriedAtMostOnceAMinute() {
        AlipayTokenCheck c = AlipayTokenCheck.unanswered(T, "no verified answer (VERIFICATION)");
        assertFalse(c.usable(T));
        assertTrue(c.failed());
        assertFalse(c.due(T.plusSeconds(59)));
        assertTrue(c.due(T.plusSeconds(60)));
    }
}
