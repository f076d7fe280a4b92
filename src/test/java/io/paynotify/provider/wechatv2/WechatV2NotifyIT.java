package io.paynotify.provider.wechatv2;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The same end-to-end checks against the packaged application (target/quarkus-app), replayed by mvn verify. */
@QuarkusIntegrationTest
class WechatV2NotifyIT extends WechatV2NotifyTest {}
