package io.paynotify.provider;

import io.paynotify.config.Channel;
import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.Provider;
import io.paynotify.core.query.QueryAnswer;
import io.paynotify.core.query.QueryResult;
import io.paynotify.core.query.QueryTarget;

/**
 * One provider's active query (docs/api.md "Active query"): asks the provider about one order and checks the answer as strictly
 * as a notification. One {@code @ApplicationScoped} implementation per provider package, found by {@link #provider()}.
 * It never touches the database and never throws: every failure is an {@code ERROR} answer.
 */
public interface OrderQuery {

    /** The provider this query serves. */
    Provider provider();

    /**
     * Asks the provider about one order on {@code channel} (a query-enabled channel of this provider), within 5 s in
     * all; on a service-provider or ISV channel the query names the order's sub-merchant.
     */
    QueryAnswer query(Channel channel, QueryTarget order);

    /** As {@link #query(Channel, QueryTarget)}, for an order of a direct channel. */
    default QueryAnswer query(Channel channel, String outTradeNo) {
        return query(channel, QueryTarget.direct(outTradeNo));
    }

    /**
     * How many of the channel's configured per-merchant credentials failed the provider's check (an Alipay ISV's
     * {@code app_auth_token}s, docs/api.md "Account modes"): the value of {@code paynotify_isv_tokens_invalid}. Zero
     * where the channel has none.
     */
    default int failedCredentials(Channel channel) {
        return 0;
    }

    /** The class a recorded answer goes through the state machine with: PAID, CLOSE or UNKNOWN (docs/api.md "Active query"). */
    static NotifyClass recordedClass(QueryResult result) {
        return switch (result) {
            case PAID -> NotifyClass.PAID;
            case CLOSE -> NotifyClass.CLOSE;
            case UNKNOWN -> NotifyClass.UNKNOWN;
            default -> throw new IllegalArgumentException(result + " is not recorded");
        };
    }
}
