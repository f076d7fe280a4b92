package io.paynotify.intake;

import io.paynotify.persistence.DatabaseUnavailable;
import io.paynotify.persistence.OrderRow;
import io.paynotify.persistence.Orders;
import io.paynotify.persistence.Transactions;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One writer's batch as one transaction (group commit), returning each member's outcome.
 *
 * <ul>
 *   <li><b>A batch of one</b> locks its order and reads its transaction id's holder in one statement, writes the
 *       notice ({@link NoticeWrite}) and commits.
 *   <li><b>A batch of several</b> locks every order of the batch in one statement, in id order, so that writers and
 *       replicas never deadlock on order rows, and reads the holders of the batch's transaction ids in one more;
 *       then each member, in arrival order, is written on its order as the members before left it. This first run
 *       has no savepoints (two round trips less per member); when no member names a refund it decides every member
 *       in memory and writes the batch with one statement per table ({@link NoticeWrite#writeAll}). When a member
 *       fails, that transaction is rolled back
 *       whole and the batch runs again with a SAVEPOINT around each member: the failing one is rolled back alone
 *       and answered with its failure, and a conflict (a transaction id another order took meanwhile) decides that
 *       member again on a fresh read.
 *   <li>A conflict of the whole transaction (unique violation, serialization failure, deadlock) runs it again from
 *       the start ({@link Transactions.Retry#ON_CONFLICT}). When the transaction itself fails (connection lost,
 *       COMMIT unknown), no member is applied and each gets that failure. A member whose deadline passed is never
 *       written (its 503 has left).
 * </ul>
 */
@Singleton
class BatchTransaction {

    /** Attempts of one member within the savepoint run, after a conflict of its own. */
    static final int MEMBER_ATTEMPTS = 3;

    private final Transactions transactions;
    private final NoticeWrite write;

    @Inject
    BatchTransaction(Transactions transactions, NoticeWrite write) {
        this.transactions = transactions;
        this.write = write;
    }

    /** Each member's outcome, in order; never throws. */
    List<IntakeOutcome> run(List<QueuedNotice> members) {
        try {
            return members.size() == 1 ? List.of(one(members.get(0))) : several(members);
        } catch (RuntimeException e) {
            // the transaction failed or its COMMIT is unknown: no member may be acknowledged
            return Collections.nCopies(members.size(), IntakeOutcome.failed(e));
        }
    }

    private IntakeOutcome one(QueuedNotice m) {
        return transactions.inTransaction(Transactions.Retry.ON_CONFLICT, c -> {
            var n = m.n();
            Orders.LockedForNotice locked = Orders.lockForNotice(
                    c, n.channel(), n.outTradeNo(), n.provider().name(), TransactionHolders.asked(n));
            boolean elsewhere =
                    TransactionHolders.of(n, locked.transactionHolder()).elsewhere(n, m.key());
            return write.write(c, n, m.source(), locked.order(), elsewhere).outcome();
        });
    }

    private List<IntakeOutcome> several(List<QueuedNotice> members) {
        try {
            return transactions.inTransaction(Transactions.Retry.ON_CONFLICT, c -> attempt(c, members, false));
        } catch (MemberFailed e) {
            long now = System.nanoTime();
            if (members.stream().allMatch(m -> m.expired(now))) {
                // every answer has left already (a slow or hung database): do not try again
                return Collections.nCopies(members.size(), IntakeOutcome.refused(IntakeOutcome.Kind.EXPIRED));
            }
            return transactions.inTransaction(Transactions.Retry.ON_CONFLICT, c -> attempt(c, members, true));
        }
    }

    /** A member failed in the run without savepoints: the batch runs again with them. */
    private static final class MemberFailed extends RuntimeException {
        MemberFailed() {
            super("a member of the batch failed", null, false, false);
        }
    }

    /**
     * One run of the batch in c's transaction. Without savepoints ({@code isolated} false) a failing member throws
     * {@link MemberFailed}; with them, it is rolled back alone. Throws otherwise only when the transaction is lost.
     */
    private List<IntakeOutcome> attempt(Connection c, List<QueuedNotice> members, boolean isolated)
            throws SQLException {
        var pairs = new LinkedHashMap<String, String[]>();
        for (QueuedNotice m : members) {
            pairs.putIfAbsent(m.key(), new String[] {m.n().channel(), m.n().outTradeNo()});
        }
        Map<String, OrderRow> orders = Orders.lockAll(c, pairs.values());
        TransactionHolders holders =
                TransactionHolders.read(c, members.stream().map(QueuedNotice::n).toList());
        if (!isolated && members.stream().allMatch(m -> NoticeWrite.batchable(m.n()))) {
            return together(c, members, orders, holders);
        }
        var stale = new HashSet<String>();
        var out = new ArrayList<IntakeOutcome>(members.size());
        for (QueuedNotice m : members) {
            if (m.expired(System.nanoTime())) {
                // the batch ran long (a slow database): this one's 503 has left, so it must not be applied now
                out.add(IntakeOutcome.refused(IntakeOutcome.Kind.EXPIRED));
            } else if (!isolated) {
                try {
                    out.add(member(c, m, orders, holders, stale, false));
                } catch (SQLException | RuntimeException e) {
                    throw new MemberFailed();
                }
            } else {
                out.add(isolatedMember(c, m, orders, holders, stale));
            }
        }
        return out;
    }

    /**
     * The run without savepoints of a batch whose members are all {@link NoticeWrite#batchable}: each decided in
     * arrival order on its order as the members before left it, in memory, then all written with one statement per
     * table ({@link NoticeWrite#writeAll}). Any failure throws {@link MemberFailed}: the savepoint run then finds
     * the member.
     */
    private List<IntakeOutcome> together(
            Connection c, List<QueuedNotice> members, Map<String, OrderRow> orders, TransactionHolders holders) {
        var out = new ArrayList<IntakeOutcome>(members.size());
        var planned = new ArrayList<NoticeWrite.Planned>(members.size());
        try {
            for (QueuedNotice m : members) {
                if (m.expired(System.nanoTime())) {
                    out.add(IntakeOutcome.refused(IntakeOutcome.Kind.EXPIRED));
                    continue;
                }
                out.add(null);
                var n = m.n();
                NoticeWrite.Planned p =
                        NoticeWrite.plan(n, m.source(), orders.get(m.key()), holders.elsewhere(n, m.key()));
                orders.put(m.key(), p.after());
                if (p.d().pays()) {
                    holders.paid(n, m.key());
                }
                planned.add(p);
            }
            List<IntakeOutcome> written = planned.isEmpty() ? List.of() : write.writeAll(c, planned);
            int w = 0;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i) == null) {
                    out.set(i, written.get(w++));
                }
            }
            return out;
        } catch (SQLException | RuntimeException e) {
            throw new MemberFailed();
        }
    }

    /** One member inside its own savepoint, again after a conflict of its own. */
    private IntakeOutcome isolatedMember(
            Connection c, QueuedNotice m, Map<String, OrderRow> orders, TransactionHolders holders, Set<String> stale)
            throws SQLException {
        for (int attempt = 1; ; attempt++) {
            Savepoint savepoint = c.setSavepoint();
            try {
                IntakeOutcome outcome = member(c, m, orders, holders, stale, attempt > 1);
                c.releaseSavepoint(savepoint);
                return outcome;
            } catch (SQLException e) {
                c.rollback(savepoint);
                stale.add(m.key());
                if (Transactions.conflict(e) && attempt < MEMBER_ATTEMPTS) {
                    continue;
                }
                return IntakeOutcome.failed(new DatabaseUnavailable(e));
            } catch (RuntimeException e) {
                c.rollback(savepoint);
                stale.add(m.key());
                return IntakeOutcome.failed(e);
            }
        }
    }

    /**
     * One member on the orders locked for the batch: written on its order as the members before left it (read again
     * under the lock when an earlier member of that order was rolled back to its savepoint), its transaction id's
     * holder read again after a conflict.
     */
    private IntakeOutcome member(
            Connection c,
            QueuedNotice m,
            Map<String, OrderRow> orders,
            TransactionHolders holders,
            Set<String> stale,
            boolean afterConflict)
            throws SQLException {
        var n = m.n();
        if (stale.remove(m.key())) {
            orders.put(m.key(), Orders.find(c, n.channel(), n.outTradeNo()));
        }
        if (afterConflict) {
            holders.update(TransactionHolders.reread(c, n));
        }
        NoticeWrite.Written written = write.write(c, n, m.source(), orders.get(m.key()), holders.elsewhere(n, m.key()));
        orders.put(m.key(), written.order());
        if (written.outcome().decision().pays()) {
            holders.paid(n, m.key());
        }
        return written.outcome();
    }
}
