package io.paynotify.admin;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * Describes the two authentication schemes in {@code /q/openapi} (docs/api.md "Merchant API" and docs/api.md "Admin API") and attaches them by path,
 * so every {@code /admin} and {@code /api} operation carries its scheme whichever class declares it. Runs once at
 * build time: the served document is static and nothing here is read by reflection at run time.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class ApiSecurityDocumentation implements OASFilter {

    /** The admin API's scheme name in the document. */
    public static final String ADMIN_SCHEME = "adminBearer";

    /** The merchant API's scheme name in the document. */
    public static final String MERCHANT_SCHEME = "merchantHmac";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getInfo() == null) {
            openAPI.setInfo(OASFactory.createInfo());
        }
        openAPI.getInfo()
                .title("paynotify")
                .description("Payment notification receiver. /notify/** (provider callbacks, not described here: their "
                        + "format is the provider's) and /api/** face the internet; /admin/** is for operators only.");
        if (openAPI.getInfo().getVersion() == null) {
            openAPI.getInfo().setVersion("1");
        }
        Components components = openAPI.getComponents();
        if (components == null) {
            components = OASFactory.createComponents();
            openAPI.setComponents(components);
        }
        components.addSecurityScheme(
                ADMIN_SCHEME,
                OASFactory.createSecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description("Authorization: Bearer <token>, one of paynotify.admin.tokens (each at least 32 "
                                + "characters). Anything else is 401."));
        components.addSecurityScheme(
                MERCHANT_SCHEME,
                OASFactory.createSecurityScheme()
                        .type(SecurityScheme.Type.APIKEY)
                        .in(SecurityScheme.In.HEADER)
                        .name("X-Signature")
                        .description(
                                "Every request also sends X-Client-Id and X-Timestamp (Unix seconds). X-Signature is the "
                                        + "lowercase hex HMAC-SHA256, with the client's secret, of METHOD \\n REQUEST_TARGET \\n "
                                        + "X-Timestamp \\n Idempotency-Key (or empty) \\n raw body bytes. "
                                        + "|now - X-Timestamp| <= 300 s; any failure is 401."));
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (Map.Entry<String, PathItem> e : openAPI.getPaths().getPathItems().entrySet()) {
            String scheme = e.getKey().startsWith("/admin")
                    ? ADMIN_SCHEME
                    : e.getKey().startsWith("/api") ? MERCHANT_SCHEME : null;
            if (scheme == null || e.getValue().getOperations() == null) {
                continue;
            }
            SecurityRequirement requirement =
                    OASFactory.createSecurityRequirement().addScheme(scheme);
            for (Operation op : e.getValue().getOperations().values()) {
                op.setSecurity(List.of(requirement));
                if (op.getResponses() == null) {
                    op.setResponses(OASFactory.createAPIResponses());
                }
                if (!op.getResponses().hasAPIResponse("401")) {
                    op.getResponses()
                            .addAPIResponse(
                                    "401",
                                    OASFactory.createAPIResponse()
                                            .description(
                                                    "Missing or invalid credentials (one fixed problem+json body)"));
                }
                if (!op.getResponses().hasAPIResponse("503")) {
                    op.getResponses()
                            .addAPIResponse(
                                    "503",
                                    OASFactory.createAPIResponse()
                                            .description(
                                                    "PostgreSQL did not answer in time (problem+json, Retry-After)"));
                }
            }
        }
    }
}
