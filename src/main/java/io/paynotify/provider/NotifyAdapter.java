package io.paynotify.provider;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.notify.VerifiedNotification;

/**
 * One provider version's notification handling. Implementations live in their own package and never import each
 * other; nothing outside them switches on the provider.
 */
public interface NotifyAdapter {

    /** The provider this adapter serves. */
    Provider provider();

    /** The path segment after {@code /notify/}: {@code wechatpay}, {@code wechatpay-v3} or {@code alipay}. */
    String pathSegment();

    /**
     * Runs the checks of docs/api.md "How a notification is handled" in order on the raw bytes: parse, required fields, signature, freshness and
     * decryption, then the ids (an id mismatch is not a rejection but {@code accountMismatch} on the result).
     *
     * @throws NotifyRejection when the delivery must not be stored
     */
    VerifiedNotification verify(Channel channel, RawNotify raw) throws NotifyRejection;

    /** The success ack. */
    AckResponse success();

    /** The failure ack with that status code and a fixed, non-revealing reason. */
    AckResponse failure(int status);

    /** A fixed reason text for a failure ack: at most 32 ASCII characters, the same for every cause of a status. */
    static String reasonText(int status) {
        return switch (status) {
            case 400 -> "invalid request";
            case 401 -> "verification failed";
            case 404 -> "unknown channel";
            case 413 -> "body too large";
            case 422 -> "not accepted";
            default -> "try again later";
        };
    }
}
