package io.paynotify.admin;

import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /admin/orders}: operators read orders and one order's delivery history (CONTRACT.md §4). Read-only; the
 * bearer token is checked by {@link BearerTokenFilter} before any method here runs.
 */
@Path("/admin/orders")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@Blocking
public class AdminOrderResource {

    private final AdminReads reads;

    @Inject
    AdminOrderResource(AdminReads reads) {
        this.reads = reads;
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
                    + "neither an order nor a notification.")
    public byte[] notifications(
            @PathParam("channel") String channel,
            @PathParam("outTradeNo") String outTradeNo,
            @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        int pageSize = Params.limit(limit);
        Long cursor = Cursor.decode("history", after);
        byte[] page =
                plausible(channel, outTradeNo) ? reads.orderNotifications(channel, outTradeNo, pageSize, cursor) : null;
        if (page == null) {
            throw new ProblemException(Problem.notFound("No order and no notification for this outTradeNo."));
        }
        return page;
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
