package io.paynotify.merchant;

import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.ClientCredentials;
import io.paynotify.events.EventOutbox;
import io.paynotify.http.ApiAnswer;
import io.paynotify.http.OrderJson;
import io.paynotify.http.Problem;
import io.paynotify.idempotency.IdempotencyKeys;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.Refunds;
import io.paynotify.persistence.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The three calls of docs/api.md "Merchant API" after authentication, in its documented check order: (the POSTs) claim or
 * replay the Idempotency-Key → validate the body and path (400, an unknown channel included) → channel allowed for
 * this client (403) → the operation. Runs on a worker thread; every database failure surfaces as a
 * {@link io.paynotify.persistence.DatabaseUnavailable} that the route turns into 503.
 */
@ApplicationScoped
public class OrderApi {

    private final ChannelRegistry registry;
    private final IdempotencyKeys keys;
    private final Transactions transactions;
    private final EventOutbox outbox;
    private final Clock clock;

    @Inject
    public OrderApi(
            ChannelRegistry registry,
            IdempotencyKeys keys,
            Transactions transactions,
            EventOutbox outbox,
            Clock clock) {
        this.registry = registry;
        this.keys = keys;
        this.transactions = transactions;
        this.outbox = outbox;
        this.clock = clock;
    }

    /** {@code GET /api/v1/orders/{channel}/{outTradeNo}}: 200 order, 404, 400, 403. */
    IdempotencyKeys.Outcome read(ClientCredentials client, ApiPaths.Match m) {
        ApiAnswer answer;
        try {
            Channel channel = pathChannel(m);
            String outTradeNo = pathOutTradeNo(m, channel);
            if (!client.channels().contains(channel.name())) {
                answer = forbidden();
            } else {
                answer = transactions.autoCommit(c -> {
                    OrderRow o = Orders.find(c, channel.name(), outTradeNo);
                    // another sub-merchant's order does not exist for this client
                    return o == null || !client.mayUse(o.channel(), o.subMerchantId())
                            ? noOrder()
                            : ApiAnswer.json(200, OrderJson.renderWithRefunds(o, Refunds.forOrder(c, o.id())));
                });
            }
        } catch (InvalidRequest e) {
            answer = e.problem().toAnswer();
        }
        return new IdempotencyKeys.Outcome(answer, false, null);
    }

    /** {@code POST /api/v1/orders}: 201 order; 409 when (channel, outTradeNo) exists already; 400; 403. */
    IdempotencyKeys.Outcome create(ClientCredentials client, ApiPaths.Match m, String key, byte[] body) {
        return keys.execute(scope(client, m, key), body, c -> {
            CreateOrderRequest r;
            try {
                r = CreateOrderRequest.parse(body, registry::channel);
            } catch (InvalidRequest e) {
                return e.problem().toAnswer();
            }
            if (!client.channels().contains(r.channel().name())) {
                return forbidden();
            }
            if (!client.mayUse(r.channel().name(), r.subMerchantId())) {
                return Problem.forbidden("subMerchantId", "This client is not configured for the sub-merchant.")
                        .toAnswer();
            }
            Instant now = now();
            OrderRow o = Orders.insert(
                    c,
                    new Orders.NewOrder(
                            r.channel().name(),
                            r.outTradeNo(),
                            r.channel().provider().name(),
                            r.amount(),
                            r.currency(),
                            r.description(),
                            r.subMerchantId(),
                            r.subAppId()),
                    now,
                    registry.firstQueryAt(r.channel(), now));
            if (o == null) {
                return Problem.conflict(
                                "order-exists",
                                "An order with this channel and outTradeNo exists already.",
                                "outTradeNo")
                        .toAnswer();
            }
            return ApiAnswer.json(201, OrderJson.render(o));
        });
    }

    /** {@code POST …/close}: 200 order in CLOSED (also when closed already); 409 when paid; 404; 400; 403. */
    IdempotencyKeys.Outcome close(ClientCredentials client, ApiPaths.Match m, String key, byte[] body) {
        IdempotencyKeys.Outcome outcome = keys.execute(scope(client, m, key), body, c -> {
            Channel channel;
            String outTradeNo;
            try {
                channel = pathChannel(m);
                outTradeNo = pathOutTradeNo(m, channel);
                requireEmptyBody(body);
            } catch (InvalidRequest e) {
                return e.problem().toAnswer();
            }
            if (!client.channels().contains(channel.name())) {
                return forbidden();
            }
            OrderRow o = Orders.lock(c, channel.name(), outTradeNo);
            if (o == null || !client.mayUse(o.channel(), o.subMerchantId())) {
                return noOrder();
            }
            return switch (o.state()) {
                case PENDING -> {
                    OrderRow closed = Orders.close(c, o.id(), o.attention(), now());
                    // in the key's transaction: the event exists if and only if the close commits
                    outbox.closedByMerchant(c, closed);
                    yield ApiAnswer.json(200, OrderJson.render(closed));
                }
                case CLOSED -> ApiAnswer.json(200, OrderJson.render(o));
                default ->
                    Problem.conflict("order-paid", "The order is paid and cannot be closed.", null)
                            .toAnswer();
            };
        });
        // a committed close wrote its event: let the delivery worker start now (a replay wakes it needlessly)
        if (outcome.answer().status() == 200 && !outcome.replayed()) {
            outbox.wake();
        }
        return outcome;
    }

    private static IdempotencyKeys.Scope scope(ClientCredentials client, ApiPaths.Match m, String key) {
        return new IdempotencyKeys.Scope(client.id(), m.call().method + " " + m.rawPath(), key);
    }

    private Channel pathChannel(ApiPaths.Match m) throws InvalidRequest {
        if (m.channel() == null) {
            throw new InvalidRequest("channel", "channel is not a known channel");
        }
        return CreateOrderRequest.channel(m.channel(), registry::channel);
    }

    private static String pathOutTradeNo(ApiPaths.Match m, Channel channel) throws InvalidRequest {
        if (m.outTradeNo() == null) {
            throw new InvalidRequest("outTradeNo", "outTradeNo must match " + io.paynotify.core.order.OutTradeNo.SHAPE);
        }
        return CreateOrderRequest.outTradeNo(m.outTradeNo(), channel);
    }

    /** A close carries no data: an empty body, or an empty JSON object, is all it accepts. */
    private static void requireEmptyBody(byte[] body) throws InvalidRequest {
        String text = new String(body, java.nio.charset.StandardCharsets.ISO_8859_1).replaceAll("[ \\t\\r\\n]", "");
        if (!text.isEmpty() && !text.equals("{}")) {
            throw new InvalidRequest("body", "a close takes no body (or an empty JSON object)");
        }
    }

    private static ApiAnswer forbidden() {
        return Problem.forbidden("channel", "This client is not configured for the channel.")
                .toAnswer();
    }

    private static ApiAnswer noOrder() {
        return Problem.notFound("No order with this channel and outTradeNo.").toAnswer();
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
