package io.paynotify.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import java.time.Duration;
import java.util.function.Supplier;

/** What every provider's query client must answer alike (docs/api.md "Active query"), for the query clients' unit tests. */
public final class QueryAssertions {

    private QueryAssertions() {}

    /** The query failed with that error, and carries no notification. */
    public static void assertError(QueryError error, QueryAnswer a) {
        assertEquals(QueryResult.ERROR, a.result());
        assertEquals(error, a.error());
        assertNull(a.notification());
    }

    /** A paid answer's notification names that provider, channel, order, status, transaction and amount. */
    public static void assertPaid(
            VerifiedNotification n,
            Provider provider,
            String channel,
            String outTradeNo,
            String providerStatus,
            String transactionId,
            long amountMinor) {
        assertEquals(provider, n.provider());
        assertEquals(channel, n.channel());
        assertEquals(outTradeNo, n.outTradeNo());
        assertEquals(NotifyClass.PAID, n.notifyClass());
        assertEquals(providerStatus, n.providerStatus());
        assertEquals(transactionId, n.transactionId());
        assertEquals(amountMinor, n.amountMinor());
    }

    /**
     * A gateway that never answers ({@link FakeGateway#hang()}) makes the query, whose budget in these tests is 3 s
     * (room for a loaded build machine; production's is 5 s), a timeout within 5.5 s.
     */
    public static void assertTimesOut(FakeGateway gateway, Supplier<QueryAnswer> query) {
        gateway.hang();
        // the query tests give their client a 1 s budget (QueryTimeoutTest holds the real 5 s for every provider)
        long deadline = System.nanoTime() + Duration.ofMillis(3500).toNanos();
        QueryAnswer a = query.get();
        assertTrue(System.nanoTime() < deadline, "a 1 s budget took more than 3.5 s");
        assertError(QueryError.TIMEOUT, a);
    }
}
