package io.paynotify.provider.alipay;

import static io.paynotify.provider.alipay.AlipayHttp.assertOk;
import static io.paynotify.provider.alipay.AlipayHttp.assertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.insertOrder;
import static io.paynotify.provider.alipay.AlipayHttp.lastNotification;
import static io.paynotify.provider.alipay.AlipayHttp.newOrderNo;
import static io.paynotify.provider.alipay.AlipayHttp.newTradeNo;
import static io.paynotify.provider.alipay.AlipayHttp.post;
import static io.paynotify.testing.AlipayFixtures.aNotice;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.paynotify.testing.AlipayFixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Alipay notices through HTTP and PostgreSQL: what is stored, what the order becomes, and the ack that follows the
 * commit. Only what needs the database is here; which notice is refused and what it means is {@link
 * AlipayAdapterTest} and {@link AlipayClassificationTest}, and every cell of the outcome matrix is {@code
 * OrderStateMachineTest}.
 */
@QuarkusTest
class AlipayIntakeTest {

    /** A notice for that order and trade, signed RSA2 for ali-test. */
    static AlipayFixtures.Notice notice(String no, String t) {
        return aNotice().orderNo(no).tradeNo(t);
    }

    @Test
    void withoutGmtPaymentTheOrderIsPaidAtTheArrival() {
        String no = newOrderNo();
        String t = newTradeNo();
        insertOrder(no, 100);
        assertOk(post(notice(no, t).without("gmt_payment").body()));
        Instant receivedAt = (Instant) lastNotification(no).get("received_at");
        assertOrder(no, "SUCCESS", t, receivedAt, List.of());
    }

    @Test
    void theRawBodyIsStoredAsReceived() {
        String no = newOrderNo();
        insertOrder(no, 100);
        byte[] body = notice(no, newTradeNo()).charset("gbk").body();
        assertOk(post(body));
        assertArrayEquals(body, (byte[]) lastNotification(no).get("raw_body"));
    }
}
