package io.paynotify.admin;

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

    private final AdminQueries queries;

    @Inject
    AdminOrderResource(AdminQueries queries) {
        this.queries = queries;
    }

    @GET
    @Operation(summary = "Orders, newest first", description = "Keyset-paginated; pass `next` back as `after`.")
    public AdminJson.Page<AdminJson.Order> list(
            @QueryParam("channel") String channel,
            @QueryParam("state") String state,
            @QueryParam("attention") String attention,
            @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        return queries.orders(
                Params.channel(channel),
                Params.state(state),
                Params.attention(attention),
                Params.limit(limit),
                Cursor.decode("orders", after));
    }

    @GET
    @Path("/{channel}/{outTradeNo}")
    @Operation(summary = "One order")
    public AdminJson.Order get(@PathParam("channel") String channel, @PathParam("outTradeNo") String outTradeNo) {
        AdminJson.Order order = plausible(channel, outTradeNo) ? queries.order(channel, outTradeNo) : null;
        if (order == null) {
            throw AdminProblem.notFound("no such order");
        }
        return order;
    }

    @GET
    @Path("/{channel}/{outTradeNo}/notifications")
    @Operation(
            summary = "The notifications recorded for one order, oldest first",
            description = "Also answers for an outTradeNo that has no order (UNKNOWN_ORDER); 404 only when there is "
                    + "neither an order nor a notification.")
    public AdminJson.Page<AdminJson.Notification> notifications(
            @PathParam("channel") String channel,
            @PathParam("outTradeNo") String outTradeNo,
            @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        int pageSize = Params.limit(limit);
        Long cursor = Cursor.decode("history", after);
        if (!plausible(channel, outTradeNo) || !queries.known(channel, outTradeNo)) {
            throw AdminProblem.notFound("no order and no notification for this outTradeNo");
        }
        return queries.orderNotifications(channel, outTradeNo, pageSize, cursor);
    }

    /** Values longer than the columns can never match: answer 404 without a query. */
    private static boolean plausible(String channel, String outTradeNo) {
        return channel.length() <= 32 && !outTradeNo.isEmpty() && outTradeNo.length() <= 64;
    }
}
