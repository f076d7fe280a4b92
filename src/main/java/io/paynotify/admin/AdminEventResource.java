package io.paynotify.admin;

import io.paynotify.events.EventOutbox;
import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.EventRow;
import io.paynotify.persistence.Events;
import io.paynotify.persistence.Transactions;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /admin/events}: the merchant events (docs/api.md "Admin event calls") with their webhook deliveries, and redelivery. The
 * bearer token is checked by {@link BearerTokenFilter} before any method here runs.
 */
@Path("/admin/events")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@Blocking
public class AdminEventResource {

    private final AdminReads reads;
    private final Transactions transactions;
    private final EventOutbox outbox;

    /** The audit line of the actions here (request-scoped). */
    @Inject
    AdminAudit audit;

    @Inject
    AdminEventResource(AdminReads reads, Transactions transactions, EventOutbox outbox) {
        this.reads = reads;
        this.transactions = transactions;
        this.outbox = outbox;
    }

    @GET
    @Operation(
            summary = "Events, newest first, each with its deliveries",
            description = "Keyset-paginated; pass `next` back as `after`. `state` keeps the events with a delivery in "
                    + "that state (with `client`: that client's delivery).")
    public byte[] list(
            @QueryParam("type") String type,
            @QueryParam("channel") String channel,
            @QueryParam("client") String client,
            @QueryParam("state") String state,
            @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        return reads.events(
                Params.eventType(type),
                channel == null || channel.isEmpty() ? null : Params.channel(channel),
                Params.client(client),
                Params.deliveryState(state),
                Params.limit(limit),
                Cursor.decode("events", after));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One event, its deliveries and every attempt of each")
    public byte[] get(@PathParam("id") String id) {
        byte[] event = Params.isEventId(id) ? reads.event(id) : null;
        if (event == null) {
            throw noEvent();
        }
        return event;
    }

    @POST
    @Path("/{id}/redeliver")
    @Operation(
            summary = "Queue an event's delivery again",
            description = "That client's delivery (without `client`: every delivery of the event) goes back to "
                    + "PENDING, due now, its attempt count reset, whatever its state. 409 while an attempt of it is "
                    + "in flight.")
    public Response redeliver(@PathParam("id") String id, @QueryParam("client") String client) {
        audit.action("redeliver", "event", id, "client", client);
        String clientId = Params.client(client);
        if (!Params.isEventId(id)) {
            throw noEvent();
        }
        Deliveries.Redeliver result = transactions.inTransaction(Transactions.Retry.ON_CONFLICT, c -> {
            EventRow e = Events.find(c, id);
            return e == null ? null : Deliveries.redeliver(c, e.id(), clientId);
        });
        if (result == null) {
            throw noEvent();
        }
        switch (result) {
            case NO_DELIVERY:
                throw new ProblemException(Problem.notFound(
                        clientId == null ? "The event has no delivery." : "The event has no delivery to this client."));
            case IN_FLIGHT:
                throw new ProblemException(Problem.conflict(
                        "delivery-in-flight",
                        "An attempt of this delivery is in flight; retry when it has ended.",
                        null));
            default:
                // committed: let this replica's worker attempt it now rather than at its next poll
                outbox.wake();
                return Response.accepted().build();
        }
    }

    private static ProblemException noEvent() {
        return new ProblemException(Problem.notFound("No event with this id."));
    }
}
