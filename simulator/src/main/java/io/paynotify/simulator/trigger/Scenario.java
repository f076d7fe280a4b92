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
            case OTHER_SUB_MERCHANT -> otherSubMerchant(channel, notices, trade, steps);
            case MISSING_SUB_MERCHANT ->
                steps.add(new Step(
                        notices.missingSubMerchant(trade)
                                .orElseThrow(() -> new NotApplicable(
                                        "missing-sub-merchant needs a partner (WeChat) or isv (Alipay) channel", false)),
                        provider == Provider.ALIPAY
                                ? Expectation.failureAck(
                                        422,
                                        "ACCOUNT_MISMATCH: an ISV notice must name the order's merchant in"
                                                + " auth_app_id (docs/api.md, account modes: failure, 422)")
                                : Expectation.failureAck(
                                        400,
                                        "a partner payment notice without its sub-merchant misses a required"
                                                + " field (docs/api.md#notify-api: 400)")));
            case FOREIGN_ROOT ->
                steps.add(new Step(
                        notices.foreignRoot(trade)
                                .orElseThrow(() -> new NotApplicable(
                                        "foreign-root needs an Alipay channel in certificate mode (alipay-root-cert"
                                                + " and app-cert set)",
                                        false)),
                        Expectation.failureAck(
                                401,
                                "only keys of certificates that chain to alipay-root-cert verify"
                                        + " (docs/api.md#notify-api: 401)")));
            case RETRIES -> throw new IllegalArgumentException("retries is run by RetryRunner");
        }
        return steps;
    }

    /**
     * The heart of the account modes (CONTRACT §10): the other sub-merchant's genuine payment notice for this order
     * number is refused and pays nothing; the order's own payment then applies; the other sub-merchant's genuine
     * refund notice is refused on the paid order.
     */
    private static void otherSubMerchant(Channel channel, Notices notices, Trade trade, List<Step> steps)
            throws NotApplicable {
        if (!channel.hasSubMerchants() || trade.subMerchant() == null) {
            throw new NotApplicable(
                    "other-sub-merchant needs a partner (WeChat) or isv (Alipay) channel and a sub-merchant", false);
        }
        Provider provider = channel.provider();
        String other = channel.otherSubMerchant(trade.subMerchant());
        Trade theirs = trade.ofAnotherSubMerchant(provider, other);
        steps.add(new Step(
                notices.payment(theirs),
                Expectation.failureAck(
                        422,
                        "ACCOUNT_MISMATCH: sub-merchant " + other + "'s notice for " + trade.subMerchant()
                                + "'s order: nothing applied, the order flagged (docs/api.md, account modes: 422)")));
        steps.add(new Step(
                notices.payment(trade),
                Expectation.successAck("the order's own sub-merchant's payment still applies: the refused notice"
                        + " changed nothing")));
        steps.add(new Step(
                notices.refund(theirs),
                Expectation.failureAck(
                        422,
                        provider == Provider.WECHATPAY_V2
                                ? "REFUND_TRANSACTION_MISMATCH: a v2 refund is bound by its transaction_id, and "
                                        + other + "'s is not the order's (docs/api.md#refunds: 422)"
                                : "ACCOUNT_MISMATCH: sub-merchant " + other + "'s refund for " + trade.subMerchant()
                                        + "'s paid order (docs/api.md, account modes: 422)")));
    }

    private static Expectation paid() {
        return Expectation.successAck("a payment of the order's amount on a PENDING order is APPLIED (docs/state-machine.md)");
    }
}
