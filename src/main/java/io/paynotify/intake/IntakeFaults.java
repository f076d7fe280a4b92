package io.paynotify.intake;

import io.paynotify.core.notify.VerifiedNotification;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Seams inside the intake where tests inject faults (an unchecked exception or a failing statement after the
 * notification row was inserted) or hold a writer before a batch, to prove that nothing half-done is ever committed
 * and that one failing member of a batch does not take the others down. Does nothing in the application.
 */
@ApplicationScoped
public class IntakeFaults {

    /** Called by a writer before it opens the transaction of a batch of {@code size} notifications. */
    public void beforeBatch(int size) {
        // no fault outside tests
    }

    /** Called by a writer when it is done with a batch of {@code size} (committed, failed or given up). */
    public void afterBatch(int size) {
        // no fault outside tests
    }

    /** Called inside the transaction (on its connection), right after the notification row was inserted. */
    public void afterNotificationInsert(Connection c, VerifiedNotification n) throws SQLException {
        // no fault outside tests
    }
}
