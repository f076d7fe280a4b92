package io.paynotify.simulator.trigger;

import java.util.ArrayList;
import java.util.List;

/** The notices one {@code trigger} kind sends, in order, each with the answer docs/api.md says paynotify gives. */
final class Scenario {

    private Scenario() {}

    /**
     * Plans the steps of {@code kind} (not {@link TriggerKind#RETRIES}, which {@link RetryRunner} runs).
     *
     * @param paymentFirst for a refund: send the payment notice first (the order is not yet known to be paid)
     * @param entityUrl for xxe: the URL the external entity points at
     */
    static List<Step> plan(
            TriggerKind kind, Channel channel, Notices notices, Trade trade, boolean paymentFirst, String entityUrl)
            throws NotApplicable {
        Provider provider = channel.provider();
        List<Step> steps = new ArrayList<>();
        switch (kind) {
            case PAY -> steps.add(new Step(notices.payment(trade), paid()));
            case REFUND -> {
                if (paymentFirst) {
                    steps.add(new Step(notices.payment(trade), paid()));
                }
                steps.add(new Step(
                        notices.refund(trade),
                        Expectation.successAck("a refund SUCCESS on the paid order is APPLIED (docs/api.md#refunds)")));
            }
            case CLOSE ->
                steps.add(new Step(
                        notices.close(trade)
                                .orElseThrow(() -> new NotApplicable(
                                        provider.displayName() + " sends no notification when a trade closes"
                                                + " (docs/state-machine.md), so nothing is sent."
                                                + " paynotify learns of it from the merchant API's close call or from"
                                                + " the active query (docs/api.md#active-query).",
                                        true)),
                        Expectation.successAck("TRADE_CLOSED on a PENDING order is APPLIED: the order is CLOSED")));
            case DUPLICATE -> {
                Notice once = notices.payment(trade);
                steps.add(new Step(once, paid()));
                steps.add(new Step(
                        once,
                        Expectation.successAck("the same notice again is recorded as DUPLICATE and acknowledged")));
            }
            case TAMPERED ->
                steps.add(new Step(
                        notices.tampered(trade),
                        Expectation.failureAck(401, "the signature no longer covers the body (docs/api.md#notify-api: 401)")));
            case STALE ->
                steps.add(new Step(
                        notices.stale(trade)
                                .orElseThrow(() -> new NotApplicable(
                                        "stale needs a WeChat Pay v3 channel: " + provider.displayName()
                                                + " notices carry no signed timestamp that a receiver must check",
                                        false)),
                        Expectation.failureAck(401, "|now - Wechatpay-Timestamp| > 300 s (docs/api.md#notify-api: 401)")));
            case XXE ->
                steps.add(new Step(
                        notices.xxe(trade, entityUrl)
                                .orElseThrow(() -> new NotApplicable(
                                        "xxe needs a WeChat Pay v2 channel: only v2 notices are XML", false)),
                        Expectation.failureAck(400, "XML with a DOCTYPE is refused unparsed (docs/api.md#notify-api: 400)")));
            case WRONG_APP ->
                steps.add(new Step(
                        notices.wrongApp(trade),
                        Expectation.failureAck(
                                422,
                                "ACCOUNT_MISMATCH: the app id is not the channel's (docs/state-machine.md: failure, 422)")));
            case RETRIES -> throw new IllegalArgumentException("retries is run by RetryRunner");
        }
        return steps;
    }

    private static Expectation paid() {
        return Expectation.successAck("a payment of the order's amount on a PENDING order is APPLIED (docs/state-machine.md)");
    }
}
