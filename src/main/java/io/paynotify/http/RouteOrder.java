package io.paynotify.http;

/**
 * Every Vert.x route handler of the application port, in the order a request meets them: a lower order runs first
 * (Vert.x), and all of these run before Quarkus serves the static files under {@code META-INF/resources} and before
 * the JAX-RS layer ({@code /admin}). Each handler registers itself with its constant from here, so this list is the
 * one place that says what runs before what.
 */
public final class RouteOrder {

    /**
     * {@link OperationsPaths}: every spelling of {@code /q} answers 404, and a request target with an encoded slash,
     * a backslash or a dot segment answers 400, before anything else sees it.
     */
    public static final int PUBLIC_PATHS = -1000;

    /** {@link PathGuard}: a JAX-RS path that layer could not decode safely answers 400. */
    public static final int PATH_GUARD = -900;

    /** {@code admin.ConsoleFiles}: the operator console's security headers. */
    public static final int CONSOLE_FILES = -800;

    /** {@code merchant.MerchantSignatureFilter}: {@code /api/**} reads the raw body and checks its HMAC first. */
    public static final int MERCHANT_SIGNATURE = -101;

    /** {@code merchant.MerchantRoutes}: the {@code /api/v1} calls, once signed. */
    public static final int MERCHANT_API = -100;

    /** {@code notify.NotifyRoutes}: {@code POST /notify/{provider}/{channel}}. */
    public static final int NOTIFY = -100;

    private RouteOrder() {}
}
