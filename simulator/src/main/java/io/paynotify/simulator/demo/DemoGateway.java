package io.paynotify.simulator.demo;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;

/** The fake provider gateway as the demo uses it: where it runs, and how to script a trade's query answer. */
public interface DemoGateway extends AutoCloseable {

    /** Its base URL, such as {@code http://127.0.0.1:8090}. */
    String baseUrl();

    /** Makes the gateway answer paynotify's query for {@code outTradeNo} with a payment of {@code amountFen}. */
    void scriptPaid(String outTradeNo, long amountFen) throws IOException, InterruptedException;

    /** The same, paid at {@code paidAt}: the day of the provider's bill that lists it (Beijing time). */
    void scriptPaid(String outTradeNo, long amountFen, Instant paidAt) throws IOException, InterruptedException;

    /**
     * Scripts the extras of the bill of {@code day} that {@code api} ({@code WECHATPAY_V2}, {@code WECHATPAY_V3},
     * {@code ALIPAY}) serves: {@code PUT /_sim/bills/{api}/{day}} with {@code json}, such as
     * {@code {"extraPayments":[{"outTradeNo":"X","amount":990}]}}.
     */
    void scriptBill(String api, LocalDate day, String json) throws IOException, InterruptedException;

    /** Stops it, if the demo started it. */
    @Override
    void close();
}
