package io.paynotify.testing;

import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.intake.IntakeFaults;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Replaces the intake's no-op fault seam in every @QuarkusTest: a test arms it for one outTradeNo, and the intake
 * transaction of that order then throws an unchecked exception right after its notification row was inserted.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class ArmedIntakeFaults extends IntakeFaults {

    private static final Set<String> ARMED = ConcurrentHashMap.newKeySet();

    /** The next intake transactions of this outTradeNo fail after the insert, until {@link #disarm}. */
    public static void arm(String outTradeNo) {
        ARMED.add(outTradeNo);
    }

    public static void disarm(String outTradeNo) {
        ARMED.remove(outTradeNo);
    }

    @Override
    public void afterNotificationInsert(VerifiedNotification n) {
        if (ARMED.contains(n.outTradeNo())) {
            throw new IllegalStateException("injected fault after the notification insert");
        }
    }
}
