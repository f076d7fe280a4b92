package io.paynotify.admin;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.config.ClientCredentials;
import io.paynotify.events.EventOutbox;
import io.paynotify.http.Problem;
import io.paynotify.http.ProblemException;
import io.paynotify.persistence.Deliveries;
import io.paynotify.persistence.Transactions;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /admin/clients/{client}/webhook/enable}: a webhook disabled by a 410 Gone takes deliveries again. */
@Path("/admin/clients")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@Blocking
public class AdminClientResource {

    private final ChannelRegistry registry;
    private final Transactions transactions;
    private final EventOutbox outbox;
    private final AdminAudit audit;

    @Inject
    AdminClientResource(ChannelRegistry registry, Transactions transactions, EventOutbox outbox, AdminAudit audit) {
        this.audit = audit;
        this.registry = registry;
        this.transactions = transactions;
        this.outbox = outbox;
    }

    @POST
    @Path("/{client}/webhook/enable")
    @Operation(
            summary = "Enable a client's webhook again",
            description = "After a 410 Gone the webhook takes no delivery until this call; its PENDING deliveries "
                    + "then resume (the delivery that got the 410 stays FAILED: redeliver it). 204 also when the "
                    + "webhook was not disabled; 404 for an unknown client or one without a webhook.")
    public Response enable(@PathParam("client") String client) {
        audit.action("webhook-enable", "client", client);
        ClientCredentials c = registry.client(client).orElse(null);
        if (c == null || c.webhook() == null) {
            throw new ProblemException(Problem.notFound("No client with this id has a webhook."));
        }
        String url = c.webhook().url().toString();
        transactions.inTransaction(Transactions.Retry.ON_CONFLICT, x -> {
            Deliveries.enable(x, c.id(), url);
            return null;
        });
        outbox.wake();
        return Response.noContent().build();
    }
}
