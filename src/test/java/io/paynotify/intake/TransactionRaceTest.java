package io.paynotify.intake;

import static io.paynotify.testing.OrderBuilder.anOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.paynotify.testing.Db;
import io.paynotify.testing.TestChannels;
import io.paynotify.testing.WechatV2Fixtures;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * One provider transaction id belongs to at most one order, also when two orders receive it at the same moment:
 * the unique constraint on (provider, transaction_id) stops the second, which is decided again and becomes
 * TRANSACTION_ON_OTHER_ORDER (failure ack 422).
 */
@QuarkusTest
class TransactionRaceTest {

    @TestHTTPResource("/notify/wechatpay/" + TestChannels.WX)
    URI endpoint;

    @Test
    void twoOrdersRacingForOneTransactionIdEndWithOneWinner() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 10; round++) {
                String txn =
                        "4200" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
                List<String> orders = new ArrayList<>();
                List<byte[]> bodies = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    String no = "RACE"
                            + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
                    anOrder()
                            .channel(TestChannels.WX)
                            .outTradeNo(no)
                            .amount(500)
                            .insert();
                    orders.add(no);
                    bodies.add(WechatV2Fixtures.body(WechatV2Fixtures.signed(
                            WechatV2Fixtures.paid(no, txn, 500), TestChannels.WX_KEY, "HMAC-SHA256")));
                }
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Integer>> answers = new ArrayList<>();
                for (byte[] body : bodies) {
                    answers.add(pool.submit(() -> {
                        go.await();
                        return http.send(
                                        HttpRequest.newBuilder(endpoint)
                                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .statusCode();
                    }));
                }
                go.countDown();
                int ok = 0;
                int refused = 0;
                for (Future<Integer> f : answers) {
                    int status = f.get();
                    if (status == 200) {
                        ok++;
                    } else if (status == 422) {
                        refused++;
                    }
                }
                assertEquals(1, ok, "exactly one order takes the transaction");
                assertEquals(3, refused);
                assertEquals(1, Db.count("SELECT count(*) FROM orders WHERE transaction_id = ?", txn));
                assertEquals(
                        1,
                        Db.count(
                                "SELECT count(*) FROM notifications WHERE transaction_id = ?"
                                        + " AND outcome = 'APPLIED'",
                                txn));
                assertEquals(
                        3,
                        Db.count(
                                "SELECT count(*) FROM notifications WHERE transaction_id = ?"
                                        + " AND reason = 'TRANSACTION_ON_OTHER_ORDER'",
                                txn));
                assertEquals(
                        3,
                        Db.count(
                                "SELECT count(*) FROM orders WHERE out_trade_no = ANY(?) AND state = 'PENDING'"
                                        + " AND 'TRANSACTION_ON_OTHER_ORDER' = ANY(attention)",
                                (Object) orders.toArray(new String[0])));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
