package io.paynotify.admin;

import io.paynotify.config.Channel;
import io.paynotify.config.ChannelRegistry;
import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;
import io.paynotify.reconcile.ActiveQuery;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.StreamingOutput;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /admin/orders}: operators read orders and one order's delivery history, and ask a provider about a PENDING
 * order now (docs/api.md "Admin API", docs/api.md "Active query"). The bearer token is checked by {@link BearerTokenFilter} before any method here runs.
 */
@Path("/admin/orders")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@Blocking
public class AdminOrderResource {

    private final AdminReads reads;
    private final ChannelRegistry registry;
    private final ActiveQuery activeQuery;

    /** The audit line of the actions here (request-scoped). */
    @Inject
    AdminAudit audit;

    @Inject
    AdminOrderResource(AdminReads reads, ChannelRegistry registry, ActiveQuery activeQuery) {
        this.reads = reads;
        this.registry = registry;
        this.activeQuery = activeQuery;
    }

    @GET
    @Operation(summary = "Orders, newest first", description = "Keyset-paginated; pass `next` back as `after`.")
    public byte[] list(
            @QueryParam("channel") String channel,
            @QueryParam("state") String state,
            @QueryParam("attention") String attention,
            @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        return reads.orders(
                Params.channel(channel),
                Params.state(state),
                Params.attention(attention),
                Params.limit(limit),
                Cursor.decode("orders", after));
    }

    @GET
    @Path("/{channel}/{outTradeNo}")
    @Operation(summary = "One order")
    public byte[] get(@PathParam("channel") String channel, @PathParam("outTradeNo") String outTradeNo) {
        byte[] order = plausible(channel, outTradeNo) ? reads.order(channel, outTradeNo) : null;
        if (order == null) {
            throw new ProblemException(Problem.notFound("No order with this channel and outTradeNo."));
        }
        return order;
    }

    @GET
    @Path("/{channel}/{outTradeNo}/notifications")
    @Operation(
            summary = "The notifications recorded for one order, oldest first",
            description = "Also answers for an outTradeNo that has no order (UNKNOWN_ORDER); 404 only when there is "
                    + "neither an order nor a notification. A page carries at most 2 MiB of raw bodies and decoded "
                    + "texts, so it may hold fewer than `limit` items: follow `next` until it is null.")
    public StreamingOutput notifications(
            @PathParam("channel") String channel,
            @PathParam("outTradeNo") String outTradeNo,
            @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        int pageSize = Params.limit(limit);
        Long cursor = Cursor.decode("history", after);
        StreamingOutput page =
                plausible(channel, outTradeNo) ? reads.orderNotifications(channel, outTradeNo, pageSize, cursor) : null;
        if (page == null) {
            throw new ProblemException(Problem.notFound("No order and no notification for this outTradeNo."));
        }
        return page;
    }

    @POST
    @Path("/{channel}/{outTradeNo}/query")
    @Operation(
            summary = "Ask the provider about one PENDING order now (active query)",
            description = "Runs one query at once and applies a verified final answer like a notification. 404 for "
                    + "an unknown order (checked first); 409 when the channel is not query-enabled or the order is "
                    + "not PENDING. `result` is PAID, CLOSE, NOT_FINAL, NOT_FOUND, UNKNOWN or ERROR; `notification` "
                    + "is the recorded answer, or null.")
    public byte[] query(@PathParam("channel") String channel, @PathParam("outTradeNo") String outTradeNo) {
        audit.action("query", "channel", channel, "outTradeNo", outTradeNo);
        Channel ch = plausible(channel, outTradeNo) ? registry.channel(channel).orElse(null) : null;
        if (ch == null || !reads.orderExists(channel, outTradeNo)) {
            throw new ProblemException(Problem.notFound("No order with this channel and outTradeNo."));
        }
        ActiveQuery.Outcome outcome;
        try {
            outcome = activeQuery.queryNow(ch, outTradeNo);
        } catch (ActiveQuery.NotQueryable e) {
            throw new ProblemException(Problem.conflict("not-queryable", e.getMessage(), null));
        }
        return reads.queryOutcome(outcome.result().name(), outcome.notificationId());
    }

    /** Values that could never match a row (too long, or not text PostgreSQL accepts) answer 404 without a query. */
    private static boolean plausible(String channel, String outTradeNo) {
        return channel.length() <= 32
                && !outTradeNo.isEmpty()
                && outTradeNo.length() <= 64
                && channel.indexOf('\0') < 0
                && outTradeNo.indexOf('\0') < 0;
    }
}
