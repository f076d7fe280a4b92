package io.paynotify.admin;

import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.StreamingOutput;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /admin/notifications}: every recorded delivery, newest first, with its raw body (the only place raw
 * bodies are shown). {@code ?outcome=ANOMALY} is the operator's anomaly queue.
 */
@Path("/admin/notifications")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@Blocking
public class AdminNotificationResource {

    private final AdminReads reads;

    @Inject
    AdminNotificationResource(AdminReads reads) {
        this.reads = reads;
    }

    @GET
    @Operation(
            summary = "Notifications, newest first",
            description = "Keyset-paginated; pass `next` back as `after`. A page carries at most 2 MiB of raw bodies "
                    + "and decoded texts, so it may hold fewer than `limit` items: follow `next` until it is null.")
    public StreamingOutput list(
            @QueryParam("outcome") String outcome,
            @QueryParam("channel") String channel,
            @QueryParam("source") String source,
            @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        return reads.notifications(
                Params.outcome(outcome),
                Params.channel(channel),
                Params.source(source),
                Params.limit(limit),
                Cursor.decode("notifications", after));
    }
}
