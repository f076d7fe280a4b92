package io.paynotify.intake;

import io.paynotify.core.notify.NotifyClass;
import io.paynotify.core.notify.VerifiedNotification;
import io.paynotify.persistence.Orders;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one answer to "does this payment's transaction id already sit on another order?" (docs/api.md,
 * {@code TRANSACTION_ON_OTHER_ORDER}): which order holds each (provider, transaction id) a notice asks about, read
 * under the transaction that decides it and kept up to date as its members pay orders. Only PAID notices that are
 * not an account mismatch ask. The unique constraint on (provider, transaction_id) stays the backstop: an order that
 * takes an id concurrently makes the paying transaction fail, and its member is decided again on a fresh read.
 */
final class TransactionHolders {

    private final Map<String, String> holders;

    private TransactionHolders(Map<String, String> holders) {
        this.holders = holders;
    }

    /** The transaction id whose holder matters for this notice's decision, or null when none does. */
    static String asked(VerifiedNotification n) {
        return n.notifyClass() == NotifyClass.PAID && n.transactionId() != null && !n.accountMismatch()
                ? n.transactionId()
                : null;
    }

    /** The holders of every id these notices ask about, read in one statement. */
    static TransactionHolders read(Connection c, Collection<VerifiedNotification> notices) throws SQLException {
        var pairs = new LinkedHashMap<String, String[]>();
        for (VerifiedNotification n : notices) {
            String id = asked(n);
            if (id != null) {
                pairs.putIfAbsent(
                        idKey(n.provider().name(), id),
                        new String[] {n.provider().name(), id});
            }
        }
        return new TransactionHolders(
                pairs.isEmpty() ? new HashMap<>() : new HashMap<>(Orders.transactionHolders(c, pairs.values())));
    }

    /** The holders of one notice's id, as {@link Orders#lockForNotice} read them with its order's lock. */
    static TransactionHolders of(VerifiedNotification n, String holder) {
        var map = new HashMap<String, String>();
        String id = asked(n);
        if (id != null && holder != null) {
            map.put(idKey(n.provider().name(), id), holder);
        }
        return new TransactionHolders(map);
    }

    /** Read again for one notice: after a conflict, another transaction may have taken its id meanwhile. */
    static TransactionHolders reread(Connection c, VerifiedNotification n) throws SQLException {
        return read(c, List.of(n));
    }

    /** True when n asks about a transaction id that an order other than {@code orderKey} holds. */
    boolean elsewhere(VerifiedNotification n, String orderKey) {
        String id = asked(n);
        if (id == null) {
            return false;
        }
        String holder = holders.get(idKey(n.provider().name(), id));
        return holder != null && !holder.equals(orderKey);
    }

    /** n's order now holds n's transaction id (it paid the order in this transaction). */
    void paid(VerifiedNotification n, String orderKey) {
        String id = asked(n);
        if (id != null) {
            holders.put(idKey(n.provider().name(), id), orderKey);
        }
    }

    /** Takes over what another read found for these ids (a re-read of one notice's holder). */
    void update(TransactionHolders fresher) {
        holders.putAll(fresher.holders);
    }

    private static String idKey(String provider, String id) {
        return provider + '\n' + id;
    }
}
