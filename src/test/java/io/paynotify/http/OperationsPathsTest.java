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

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/notify/..%2F..%2Fadmin/orders",
                "/notify/..%2f..%2fadmin/orders",
                "/notify/wechatpay/..%2F..%2F..%2Fadmin/orders",
                "/api/..%2Fadmin/orders",
                "/api/v1/..%252F..%252Fadmin/orders",
                "/api/v1/..%25252F..%25252Fadmin/orders",
                "/notify/..%5C..%5Cadmin/orders",
                "/notify/..%5c..%5cadmin/orders",
                "/notify\\..\\admin/orders",
                "/notify/../admin/orders",
                "/api/v1/../../admin/orders",
                "/notify/./../admin/orders",
                "/notify/%2e%2e/admin/orders",
                "/notify/%2E%2E/admin/orders",
                "/notify/.%2e/admin/orders",
                "/notify/%252e%252e/admin/orders",
                "/notify/..;/admin/orders",
                "/notify/..;x=y/admin/orders",
                "/api/v1/orders/wx/..",
                "/api/v1/orders/wx/.",
                "/api/v1/orders/wx-test/A%2FB",
                "http://example.com/notify/../admin/orders",
                "/notify/wechatpay/wx-test/%2e"
            })
    void pathsThatAPrefixCouldCarryElsewhereAreNotPlain(String target) {
        assertFalse(OperationsPaths.isPlainPath(target), target);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/notify/wechatpay/wx-test",
                "/api/v1/orders",
                "/api/v1/orders/wx-test/A%7CB*c_d-e",
                "/api/v1/events?after=..%2F..&limit=5",
                "/admin/orders?after=a/../b",
                "/admin/console/",
                "/admin/console/console.js",
                "/admin/orders/wx-test/x.y",
                "/admin/orders/wx-test/...",
                "/api/v1/orders/wx-test/%25zz",
                "/admin/orders//x"
            })
    void everyPathOfTheServiceIsPlain(String target) {
        assertTrue(OperationsPaths.isPlainPath(target), target);
    }
}
