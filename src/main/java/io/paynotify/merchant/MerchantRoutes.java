package io.paynotify.merchant;

import io.paynotify.config.ClientCredentials;
import io.paynotify.http.Problem;
import io.paynotify.http.RouteOrder;
import io.paynotify.idempotency.IdempotencyKeys;
import io.paynotify.persistence.DatabaseUnavailable;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * The merchant API of docs/api.md "Merchant API" (and the event pull of docs/api.md "Pulling events") on plain Vert.x routes, behind {@link MerchantSignatureFilter}: it matches the
 * raw path (404, 405), checks the Idempotency-Key of a POST (400), then runs {@link OrderApi} on a worker thread
 * and sends its answer. Any database failure, or no result before the deadline, is a 503 problem with
 * {@code Retry-After}; nothing that failed is stored, so the key is free for the retry.
 *
 * <p>Plain routes rather than JAX-RS resources: the signature needs the raw body and raw target before anything
 * binds them, and a replay must send stored bytes exactly. The OpenAPI description of {@code /api} therefore
 * cannot come from annotations; see the README (Merchant API).
 */
@ApplicationScoped
public class MerchantRoutes {

    private static final Logger LOG = Logger.getLogger("io.paynotify.api");

    private final OrderApi api;
    private final EventApi events;

    @Inject
    public MerchantRoutes(OrderApi api, EventApi events) {
        this.api = api;
        this.events = events;
    }

    void register(@Observes Router router) {
        router.route("/api/*").order(RouteOrder.MERCHANT_API).handler(this::dispatch);
    }

    private void dispatch(RoutingContext ctx) {
        ApiExchange ex = ctx.get(ApiExchange.KEY);
        if (ex == null || ex.client == null) {
            // unreachable: the filter only passes authenticated requests on; fail closed all the same
            ctx.response()
                    .setStatusCode(401)
                    .putHeader("Content-Type", Problem.MEDIA_TYPE)
                    .end(io.vertx.core.buffer.Buffer.buffer(Problem.UNAUTHENTICATED.toJson()));
            return;
        }
        String method = ctx.request().method().name();
        ApiPaths.Match m = ApiPaths.match(ApiPaths.rawPath(ctx.request().uri()));
        if (m != null) {
            ApiExchange.metricsTemplate(
                    switch (m.call()) {
                        case CREATE -> ApiPaths.ORDERS;
                        case READ -> ApiPaths.ORDERS + "/{channel}/{outTradeNo}";
                        case CLOSE -> ApiPaths.ORDERS + "/{channel}/{outTradeNo}/close";
                        case EVENTS -> ApiPaths.EVENTS;
                    });
        }
        if (m == null) {
            ex.answer(Problem.notFound("No such resource.").toAnswer(), false, null, null, false);
            return;
        }
        if (!m.call().method.equals(method)) {
            ex.answer(Problem.status(405, "Method Not Allowed").toAnswer(), false, null, m.call().method, false);
            return;
        }
        String key = null;
        if (!m.call().method.equals("GET")) {
            key = ex.idempotencyKey();
            if (key == null) {
                ex.answer(
                        Problem.invalid(
                                        "Idempotency-Key",
                                        "Idempotency-Key is required: 1 to 255 visible ASCII characters.")
                                .toAnswer(),
                        false,
                        null,
                        null,
                        false);
                return;
            }
        }
        ClientCredentials client = ex.client;
        byte[] body = ex.body;
        String idempotencyKey = key;
        String query = ApiPaths.rawQuery(ctx.request().uri());
        ctx.vertx()
                .<IdempotencyKeys.Outcome>executeBlocking(() -> run(client, m, idempotencyKey, body, query), false)
                .onComplete(ar -> {
                    if (ar.succeeded()) {
                        IdempotencyKeys.Outcome o = ar.result();
                        if (ex.answer(o.answer(), o.replayed(), o.originalDate(), null, false)) {
                            LOG.infof(
                                    "api client=%s call=%s channel=%s outTradeNo=%s status=%d replayed=%s"
                                            + " latencyMs=%d",
                                    client.id(),
                                    m.call(),
                                    loggable(m.channel()),
                                    loggable(m.outTradeNo()),
                                    o.answer().status(),
                                    o.replayed(),
                                    ex.elapsedMillis());
                        }
                    } else {
                        Throwable e = ar.cause();
                        LOG.warnf(
                                "api client=%s call=%s answered 503: %s (SQLState %s)",
                                client.id(),
                                m.call(),
                                e.getClass().getSimpleName(),
                                e instanceof DatabaseUnavailable d ? d.sqlState() : "-");
                        ex.answer(Problem.unavailable().toAnswer(), false, null, null, false);
                    }
                });
    }

    /** Path values reach the log only when they have the shape of a channel or outTradeNo (no log injection). */
    private static String loggable(String value) {
        return value != null
                        && io.paynotify.core.order.OutTradeNo.isValid(
                                value, io.paynotify.core.order.OutTradeNo.MAX_LENGTH)
                ? value
                : "-";
    }

    private IdempotencyKeys.Outcome run(
            ClientCredentials client, ApiPaths.Match m, String key, byte[] body, String query) {
        return switch (m.call()) {
            case READ -> api.read(client, m);
            case EVENTS -> events.pull(client, query, body);
            case CREATE -> api.create(client, m, key, body);
            case CLOSE -> api.close(client, m, key, body);
        };
    }
}
