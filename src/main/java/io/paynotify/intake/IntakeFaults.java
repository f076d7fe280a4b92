package io.paynotify.intake;

import io.paynotify.core.notify.VerifiedNotification;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A seam inside the intake transaction where tests inject a fault (an unchecked exception after the notification
 * row was inserted) to prove that nothing half-done is ever committed. Does nothing in the application.
 */
@ApplicationScoped
public class IntakeFaults {

    /** Called inside the transaction, right after the notification row was inserted. */
    public void afterNotificationInsert(VerifiedNotification n) {
        // no fault outside tests
    }
}
