package io.paynotify.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one configuration root, {@code paynotify.*} (docs/operations.md "Configuration"). Values are read here once and turned into the
 * immutable {@link ChannelRegistry} at start; nothing else reads configuration. Every channel key is optional at
 * this level so that the registry, not the config framework, reports a missing key with the channel's name.
 */
@ConfigMapping(prefix = "paynotify")
public interface PaynotifyConfig {

    /** {@code paynotify.channels."<name>".*}: one merchant account at one provider. */
    Map<String, ChannelConfig> channels();

    /** {@code paynotify.clients."<client-id>".*}: merchant backends allowed to call {@code /api}. */
    Map<String, ClientConfig> clients();

    /** {@code paynotify.admin.*}. */
    Admin admin();

    /** {@code paynotify.idempotency.*}. */
    Idempotency idempotency();

    /** {@code paynotify.notifications.*}: how long recorded notifications and their personal data are kept. */
    NotificationsConfig notifications();

    /** {@code paynotify.events.*}: the merchant events of the outbox. */
    Events events();

    /** {@code paynotify.webhooks.*}: how events are delivered to the merchants' webhooks. */
    Webhooks webhooks();

    /** {@code paynotify.reconcile.*}: the active query of PENDING orders (docs/operations.md "Active query (reconciliation)"). */
    Reconcile reconcile();

    Statements statements();

    interface ChannelConfig {
        /** {@code provider}: WECHATPAY_V2, WECHATPAY_V3 or ALIPAY (required). */
        Optional<String> provider();

        /** {@code app-id}: WeChat, one or more appids comma-separated; Alipay, the app_id (required). */
        @WithName("app-id")
        Optional<String> appId();

        /** {@code mch-id}: the WeChat merchant id (required for WeChat). */
        @WithName("mch-id")
        Optional<String> mchId();

        /** {@code api-key}: the WeChat v2 API key, exactly 32 characters; several comma-separated in a rotation. */
        @WithName("api-key")
        Optional<String> apiKey();

        /** {@code sign-types}: WeChat v2 MD5 and/or HMAC-SHA256 (required); Alipay RSA2 (default) and RSA. */
        @WithName("sign-types")
        Optional<String> signTypes();

        /** {@code api-v3-key}: the WeChat API v3 key, exactly 32 bytes. */
        @WithName("api-v3-key")
        Optional<String> apiV3Key();

        /** {@code platform-keys."<serial>"}: WeChat v3 platform certificates or public keys by serial or id. */
        @WithName("platform-keys")
        Map<String, String> platformKeys();

        /** {@code alipay-public-key}: one or more Alipay public keys or certificates, comma-separated. */
        @WithName("alipay-public-key")
        Optional<String> alipayPublicKey();

        /** {@code seller-id}: Alipay, when set the notification's seller_id must equal it. */
        @WithName("seller-id")
        Optional<String> sellerId();

        /** {@code query-enabled}: whether the service asks the provider about PENDING orders (docs/api.md "Active query"). */
        @WithName("query-enabled")
        @WithDefault("false")
        boolean queryEnabled();

        /** {@code api-base-url}: the provider's API root (WeChat) or gateway URL (Alipay); provider default. */
        @WithName("api-base-url")
        Optional<String> apiBaseUrl();

        /** {@code merchant-private-key}: WeChat v3 merchant API key, Alipay app private key (PKCS#8 PEM or base64). */
        @WithName("merchant-private-key")
        Optional<String> merchantPrivateKey();

        /** {@code merchant-serial}: WeChat v3, the serial number of the merchant API certificate. */
        @WithName("merchant-serial")
        Optional<String> merchantSerial();

        /** {@code mode}: {@code direct} (default); WeChat {@code partner} (service provider), Alipay {@code isv}. */
        Optional<String> mode();

        /** {@code app-auth-tokens."<auth_app_id>"}: Alipay ISV, each authorising merchant's app_auth_token. */
        @WithName("app-auth-tokens")
        Map<String, String> appAuthTokens();

        /** {@code alipay-root-cert}: Alipay certificate mode, the content of alipayRootCert.crt (PEM roots). */
        @WithName("alipay-root-cert")
        Optional<String> alipayRootCert();

        /** {@code app-cert}: Alipay certificate mode, the content of appCertPublicKey_<app-id>.crt (a chain file). */
        @WithName("app-cert")
        Optional<String> appCert();

        /** CONTRACT.md §11: fetch and reconcile this channel's daily bill; needs the keys the active query needs. */
        @WithName("statements-enabled")
        @WithDefault("false")
        boolean statementsEnabled();

        /** CONTRACT.md §11: the order numbers that are this service's (a Java regular expression, whole match). */
        @WithName("statements-order-pattern")
        Optional<String> statementsOrderPattern();
    }

    interface ClientConfig {
        /** {@code secret}: HMAC secret, at least 32 bytes; several comma-separated during a rotation. */
        Optional<String> secret();

        /** {@code channels}: the channels this client may use, comma-separated. */
        Optional<String> channels();

        /** {@code webhook-url}: where this client's events are delivered, an absolute http(s) URL (optional). */
        @WithName("webhook-url")
        Optional<String> webhookUrl();

        /**
         * {@code webhook-secret}: {@code whsec_} + base64 of 24–64 bytes, required with a webhook-url; several
         * comma-separated during a rotation (each delivery is then signed with each).
         */
        @WithName("webhook-secret")
        Optional<String> webhookSecret();

        /**
         * {@code sub-merchants}: on service-provider and ISV channels, the only sub-merchant ids this client may use,
         * comma-separated (unset: all of its channels' sub-merchants).
         */
        @WithName("sub-merchants")
        Optional<String> subMerchants();
    }

    interface Admin {
        /** {@code paynotify.admin.tokens}: bearer tokens for {@code /admin}, each at least 32 characters. */
        Optional<List<String>> tokens();
    }

    interface NotificationsConfig {
        /**
         * {@code paynotify.notifications.retention}: how long recorded notifications are kept (default 396 days: 13
         * months); a monthly partition is dropped once its newest possible row is older.
         */
        @WithDefault("396d")
        Duration retention();

        /**
         * {@code paynotify.notifications.personal-data-retention}: after this, a notification's {@code raw_body} and
         * {@code decoded} (buyers' ids) are erased; the row and its outcome stay.
         */
        @WithName("personal-data-retention")
        @WithDefault("180d")
        Duration personalDataRetention();
    }

    interface Events {
        /** {@code paynotify.events.retention}: how long events, deliveries and attempts are kept. */
        @WithDefault("30d")
        Duration retention();
    }

    interface Webhooks {
        /** {@code paynotify.webhooks.retry-schedule}: the delays after failed attempts 1..n (each ±20 %). */
        @WithName("retry-schedule")
        @WithDefault("5s,30s,2m,10m,30m,1h,2h,4h,8h,12h")
        List<Duration> retrySchedule();

        /** {@code paynotify.webhooks.lease}: how long a replica holds a claimed delivery (at most 60 s). */
        @WithDefault("60s")
        Duration lease();

        /** {@code paynotify.webhooks.allow-loopback}: allow loopback and link-local targets (dev and tests only). */
        @WithName("allow-loopback")
        @WithDefault("false")
        boolean allowLoopback();
    }

    interface Idempotency {
        /** {@code paynotify.idempotency.retention}: how long a stored Idempotency-Key answer is kept. */
        @WithDefault("24h")
        Duration retention();
    }

    interface Reconcile {
        /** {@code paynotify.reconcile.schedule}: the order ages at which a PENDING order is queried. */
        @WithDefault("1m,5m,15m,1h,6h,24h")
        List<Duration> schedule();

        /** {@code paynotify.reconcile.max-rate}: queries per second per channel and replica. */
        @WithName("max-rate")
        @WithDefault("10")
        int maxRate();

        /**
         * {@code paynotify.reconcile.tick}: how often each replica claims the due orders (at most 1s, so that a query
         * leaves within the contract's 3 s of its due time). Not an operator's knob: the tests shorten it.
         */
        @WithDefault("1s")
        Duration tick();
    }

    /** The daily bills (CONTRACT.md §11), checked at start by {@link ChannelRegistry}. */
    interface Statements {
        /** Beijing time of day after which yesterday's bill is fetched, {@code HH:mm}. */
        @WithDefault("10:30")
        String time();

        /** Whole days after a payment's day whose bills may still hold it. */
        @WithDefault("2d")
        Duration hold();

        @WithDefault("30m")
        Duration retry();

        @WithDefault("2m")
        Duration lease();

        @WithName("download-timeout")
        @WithDefault("5m")
        Duration downloadTimeout();

        @WithDefault("400d")
        Duration retention();

        /** Not in the contract: false stops this replica's scheduler (tests run it by hand with their own clock). */
        @WithName("scheduler-enabled")
        @WithDefault("true")
        boolean schedulerEnabled();
    }
}
