package io.paynotify.merchant;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.http.OneAnswer;
import io.paynotify.http.Problem;
import io.paynotify.http.RouteOrder;
import io.paynotify.logging.LogRateLimit;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import org.jboss.logging.Logger;

/**
 * Authenticates every {@code /api/**} request before anything else looks at it (docs/api.md "Signing a request"): a Vert.x route
 * ahead of the API routes reads the raw body (at most {@link #MAX_BODY_BYTES}, counted while it arrives), takes
 * the raw request target exactly as on the request line, and verifies {@link MerchantSignature}. A failure of any
 * kind is the one fixed 401 problem; only an authenticated request goes on to {@link MerchantRoutes}, with the
 * client and the body attached. Nothing has been parsed or bound at that point.
 */
@ApplicationScoped
public class MerchantSignatureFilter {

    /** Merchant requests are small JSON documents; anything larger is refused (400 naming {@code body}) while it arrives. */
    public static final int MAX_BODY_BYTES = 16 * 1024;

    private static final Logger LOG = Logger.getLogger("io.paynotify.api");
    private static final byte[] EMPTY = new byte[0];

    private final Clock clock;
    private final MerchantSignature signature;
    private final LogRateLimit logLimit = new LogRateLimit(10);

    @Inject
    public MerchantSignatureFilter(ChannelRegistry registry, Clock clock) {
        this.clock = clock;
        this.signature = new MerchantSignature(clock, registry::client);
    }

    void register(@Observes Router router) {
        router.route("/api/*").order(RouteOrder.MERCHANT_SIGNATURE).handler(this::filter);
    }

    private void filter(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        ApiExchange ex = new ApiExchange(ctx, clock);
        String declared = request.getHeader("Content-Length");
        if (declared != null && OneAnswer.declaresMoreThan(declared, MAX_BODY_BYTES)) {
            ex.answer(Problem.tooLarge(MAX_BODY_BYTES).toAnswer(), false, null, null, true);
            return;
        }
        ex.startDeadline();
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            ctx.response().writeContinue();
        }
        Buffer body = Buffer.buffer(256);
        request.handler(chunk -> {
            if (ex.answered()) {
                return;
            }
            if (body.length() + chunk.length() > MAX_BODY_BYTES) {
                ex.answer(Problem.tooLarge(MAX_BODY_BYTES).toAnswer(), false, null, null, true);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.exceptionHandler(
                e -> ex.answer(Problem.status(400, "Bad Request").toAnswer(), false, null, null, true));
        request.endHandler(v -> {
            ex.bodyComplete = true;
            if (ex.answered()) {
                return;
            }
            byte[] bytes = body.length() == 0 ? EMPTY : body.getBytes();
            MerchantSignature.Result r = signature.verify(new MerchantSignature.Request(
                    request.method().name(),
                    request.uri(),
                    name -> request.headers().getAll(name),
                    bytes));
            if (!r.ok()) {
                rejected(request, r.failure());
                ex.answer(Problem.UNAUTHENTICATED.toAnswer(), false, null, null, false);
                return;
            }
            ex.client = r.client();
            ex.body = bytes;
            ctx.put(ApiExchange.KEY, ex);
            ctx.next();
        });
        request.resume();
    }

    /** Logs the cause for operators at a bounded rate (ten lines a second); the client only ever sees the 401. */
    private void rejected(HttpServerRequest request, MerchantSignature.Failure failure) {
        if (logLimit.tryLog().log()) {
            LOG.warnf(
                    "api rejected method=%s status=401 cause=%s",
                    request.method().name(), failure);
        }
    }
}
