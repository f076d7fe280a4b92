package io.paynotify.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every spelling of /q that a proxy could normalise to /q is recognised; nothing else is. */
@Tag("unit")
class OperationsPathsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/q",
                "/q/",
                "/q/metrics",
                "/q/health/ready",
                "/Q/metrics",
                "//q/metrics",
                "/./q/metrics",
                "/api/../q/metrics",
                "/api%2F..%2Fq/metrics",
                "/api%2f..%2fq/metrics",
                "/api%252F..%252Fq/metrics",
                "/notify/..%2F..%2Fq/openapi",
                "/%71/metrics",
                "/%2571/metrics",
                "/q;jsessionid=1/metrics",
                "/api\\..\\q\\metrics",
                "/q/metrics?x=1",
                "http://example.com/q/metrics",
                "/admin/%2e%2e/q/health"
            })
    void operationsPathsAreRecognisedHoweverSpelled(String target) {
        assertTrue(OperationsPaths.isOperationsPath(target), target);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/api/v1/orders",
                "/api/v1/orders/wx/q",
                "/admin/orders",
                "/notify/wechatpay/q",
                "/qq/metrics",
                "/q-x/metrics",
                "/api/v1/orders/q%2Fmetrics",
                "/%zz/q",
                "/.."
            })
    void otherPathsAreNot(String target) {
        assertFalse(OperationsPaths.isOperationsPath(target), target);
    }
}
