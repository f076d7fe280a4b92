package io.paynotify.merchant;

import io.paynotify.channel.Channel;
import io.paynotify.channel.ChannelRegistry;
import io.paynotify.channel.ClientCredentials;
import io.paynotify.http.ApiAnswer;
import io.paynotify.http.Problem;
import io.paynotify.idempotency.IdempotencyKeys;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import javax.sql.DataSource;

/**
 * The three calls of CONTRACT.md §3 after authentication, in the contract's check order: (the POSTs) claim or
 * replay the Idempotency-Key → validate the body and path (400, an unknown channel included) → channel allowed for
 * this client (403) → the operation. Runs on a worker thread; every database failure surfaces as an
 * {@link SQLException} that the route turns into 503.
 */
@ApplicationScoped
public class OrderApi {

    private final ChannelRegistry registry;
    private final IdempotencyKeys keys;
    private final DataSource dataSource;
    private final Clock clock;

    @Inject
    public OrderApi(ChannelRegistry registry, IdempotencyKeys keys, DataSource dataSource, Clock clock) {
        this.registry = registry;
        this.keys = keys;
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** {@code GET /api/v1/orders/{channel}/{outTradeNo}}: 200 order, 404, 400, 403. */
    IdempotencyKeys.Outcome read(ClientCredentials client, ApiPaths.Match m) throws SQLException {
        ApiAnswer answer;
        try {
            Channel channel = pathChannel(m);
            String outTradeNo = pathOutTradeNo(m, channel);
            if (!client.channels().contains(channel.name())) {
                answer = forbidden();
            } else {
                try (Connection c = dataSource.getConnection()) {
                    c.setAutoCommit(true);
                    OrderView o = OrderStore.find(c, channel.name(), outTradeNo);
                    answer = o == null ? noOrder() : ApiAnswer.json(200, OrderJson.render(o));
                }
            }
        } catch (InvalidRequest e) {
            answer = e.problem().toAnswer();
        }
        return new IdempotencyKeys.Outcome(answer, false, null);
    }

    /** {@code POST /api/v1/orders}: 201 order; 409 when (channel, outTradeNo) exists already; 400; 403. */
    IdempotencyKeys.Outcome create(ClientCredentials client, ApiPaths.Match m, String key, byte[] body)
            throws SQLException {
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
            OrderView o = OrderStore.insert(c, r, now());
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
    IdempotencyKeys.Outcome close(ClientCredentials client, ApiPaths.Match m, String key, byte[] body)
            throws SQLException {
        return keys.execute(scope(client, m, key), body, c -> {
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
            OrderView o = OrderStore.lock(c, channel.name(), outTradeNo);
            if (o == null) {
                return noOrder();
            }
            switch (o.state()) {
                case "PENDING":
                    return ApiAnswer.json(200, OrderJson.render(OrderStore.close(c, o.id(), now())));
                case "CLOSED":
                    return ApiAnswer.json(200, OrderJson.render(o));
                default:
                    return Problem.conflict("order-paid", "The order is paid and cannot be closed.", null)
                            .toAnswer();
            }
        });
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
            throw new InvalidRequest("outTradeNo", "outTradeNo must match [A-Za-z0-9_\\-|*]{1,64}");
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
