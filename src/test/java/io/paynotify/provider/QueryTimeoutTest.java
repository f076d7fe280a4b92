package io.paynotify.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryError;
import io.paynotify.core.query.QueryResult;
import io.paynotify.provider.alipay.AlipayQuery;
import io.paynotify.provider.wechatv2.WechatV2Query;
import io.paynotify.provider.wechatv3.WechatV3Query;
import io.paynotify.testing.FakeGateway;
import io.paynotify.testing.QueryChannels;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md "Active query": a call times out after 5 s in all. Each provider's query, with the production budget, against a
 * gateway that accepts the connection and never answers: an ERROR TIMEOUT answer within about 6 s, never an
 * exception. The three run at once, so the test costs one budget.
 */
@Tag("unit")
class QueryTimeoutTest {

    @Test
    void everyProvidersQueryGivesUpAfterFiveSeconds() throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(3);
        try (FakeGateway gateway = new FakeGateway().hang()) {
            var http = new QueryHttp();
            var clock = Clock.systemUTC();
            var props = QueryChannels.v2(gateway.url(), "MD5,HMAC-SHA256");
            props.putAll(QueryChannels.v3(gateway.url()));
            props.putAll(QueryChannels.alipay(gateway.url() + "/gateway.do"));
            var registry = QueryChannels.registry(props);
            List<OrderQuery> queries = List.of(
                    new WechatV2Query(clock, http), new WechatV3Query(clock, http), new AlipayQuery(clock, http));
            List<String> channels = List.of(QueryChannels.V2, QueryChannels.V3, QueryChannels.ALI);

            long start = System.nanoTime();
            long deadline = start + Duration.ofSeconds(6).toNanos();
            var answers = new ArrayList<CompletableFuture<QueryAnswer>>();
            for (int i = 0; i < queries.size(); i++) {
                OrderQuery q = queries.get(i);
                var channel = registry.channel(channels.get(i)).orElseThrow();
                answers.add(CompletableFuture.supplyAsync(() -> q.query(channel, "TIMEOUT0001"), workers));
            }
            for (CompletableFuture<QueryAnswer> f : answers) {
                QueryAnswer a = f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertEquals(QueryResult.ERROR, a.result());
                assertEquals(QueryError.TIMEOUT, a.error());
            }
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMillis >= 4_900, "gave up early, after " + tookMillis + " ms");
            assertTrue(System.nanoTime() < deadline, "took " + tookMillis + " ms");
        } finally {
            workers.shutdownNow();
        }
    }
}
