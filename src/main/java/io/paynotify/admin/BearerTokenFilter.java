package io.paynotify.admin;

import io.paynotify.config.ChannelRegistry;
import io.paynotify.http.Problem;
import io.paynotify.http.ProblemMappers;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The admin API's one authentication point (docs/api.md "Authentication and errors"): every request to an admin resource, and every request
 * whose path starts with {@code /admin}, must carry {@code Authorization: Bearer <token>} with one of
 * {@code paynotify.admin.tokens}. Anything else is 401 with one fixed problem body that never says what was wrong.
 * The one exception is a GET or HEAD of the operator console's static files ({@link ConsoleFiles}), which ask the
 * operator for a token and send it with every call they make.
 *
 * <p>Tokens are compared as SHA-256 digests with {@link MessageDigest#isEqual}, against every configured token
 * without an early exit, so neither the content nor the length of a configured token shows in the timing. The
 * presented token is never logged.
 */
public class BearerTokenFilter {

    /** Longest Authorization header considered; longer ones are refused without hashing. */
    private static final int MAX_HEADER_LENGTH = 1024;

    private static final String SCHEME = "bearer ";

    private final List<byte[]> tokenDigests;
    private final AdminAudit audit;

    @Inject
    public BearerTokenFilter(ChannelRegistry registry, AdminAudit audit) {
        this.audit = audit;
        var digests = new ArrayList<byte[]>();
        for (byte[] token : registry.adminTokens()) {
            digests.add(sha256(token));
        }
        this.tokenDigests = List.copyOf(digests);
    }

    /** Before routing: every {@code /admin} path, including ones no resource serves (401, not 404, without a token). */
    @ServerRequestFilter(preMatching = true)
    public Response authenticateByPath(ContainerRequestContext request) {
        if (isConsoleFile(request)) {
            return null;
        }
        return isAdminPath(request) ? check(request) : null;
    }

    /** After routing: every method of an admin resource, whatever the path looked like before normalisation. */
    @ServerRequestFilter
    public Response authenticateByResource(ContainerRequestContext request, ResourceInfo resource) {
        Class<?> type = resource == null ? null : resource.getResourceClass();
        boolean admin = type != null && type.getPackageName().equals(BearerTokenFilter.class.getPackageName());
        return admin || isAdminPath(request) ? check(request) : null;
    }

    private Response check(ContainerRequestContext request) {
        int position = tokenPosition(request.getHeaders().get(HttpHeaders.AUTHORIZATION));
        if (position > 0) {
            // for the audit line of an admin action: which token, never the token
            audit.authenticated(position);
            return null;
        }
        return ProblemMappers.toResponseBuilder(Problem.ADMIN_UNAUTHENTICATED)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"paynotify-admin\"")
                .build();
    }

    /**
     * The operator console's static files (the one exception to the token, docs/api.md "Admin API"): a GET or HEAD
     * of exactly one of {@link ConsoleFiles#FILES}, raw and decoded alike, so that no escaped or dot-segment spelling
     * of another admin path gets through. Today Quarkus serves these files from {@code META-INF/resources} before
     * the REST layer, so such a request never reaches this filter; this keeps the console working, and the
     * exemption this narrow, should that order ever change. No admin resource serves these paths, so the check
     * after routing never sees them either.
     */
    private static boolean isConsoleFile(ContainerRequestContext request) {
        var uri = request.getUriInfo();
        return ConsoleFiles.isConsoleFile(
                request.getMethod(), uri.getRequestUri().getRawPath(), uri.getPath());
    }

    private static boolean isAdminPath(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        return path != null && (path.equals("/admin") || path.startsWith("/admin/"));
    }

    boolean authorized(List<String> headers) {
        return tokenPosition(headers) > 0;
    }

    /** The position (from 1) in {@code paynotify.admin.tokens} of the presented token, or 0 when none matches. */
    int tokenPosition(List<String> headers) {
        if (headers == null || headers.size() != 1) {
            return 0;
        }
        String header = headers.get(0);
        if (header == null
                || header.length() > MAX_HEADER_LENGTH
                || header.length() <= SCHEME.length()
                || !header.substring(0, SCHEME.length())
                        .toLowerCase(Locale.ROOT)
                        .equals(SCHEME)) {
            return 0;
        }
        String token = header.substring(SCHEME.length()).strip();
        if (token.isEmpty()) {
            return 0;
        }
        byte[] presented = sha256(token.getBytes(StandardCharsets.UTF_8));
        int position = 0;
        for (int i = 0; i < tokenDigests.size(); i++) {
            // no early exit: every configured token is compared
            boolean match = MessageDigest.isEqual(presented, tokenDigests.get(i));
            position = match && position == 0 ? i + 1 : position;
        }
        return position;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from the JDK", e);
        }
    }
}
