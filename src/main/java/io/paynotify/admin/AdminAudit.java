package io.paynotify.admin;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * The audit line of an admin action that changes something (docs/operations.md "Logs"): redeliver, enable, query,
 * and every later call that changes state. The token filter notes which configured token authenticated the request
 * (its position in {@code paynotify.admin.tokens}, counted from 1, never the token); the resource method names its
 * action and target before it acts; once the answer is known, one line is written:
 *
 * <pre>admin action=redeliver target=event:evt_… client:shop-a token=2 status=202</pre>
 *
 * Reads write no line. Targets come from the request, so only characters of ids, channel names and order numbers
 * are kept (anything else becomes {@code ?}) and each value is cut at 80 characters: a request cannot forge a line.
 */
@RequestScoped
public class AdminAudit {

    private static final Logger LOG = Logger.getLogger("io.paynotify.admin.audit");
    private static final int MAX_VALUE = 80;

    private int tokenPosition;
    private String action;
    private String target;

    /** Set by the token filter: the position of the token that matched, counted from 1. */
    void authenticated(int position) {
        this.tokenPosition = position;
    }

    /**
     * Names this request's action and its target, as {@code name:value} pairs; the line is written when the answer
     * has its status, whatever it is (an action refused with a 404 or 409 is logged too).
     */
    public void action(String name, String... targetPairs) {
        this.action = name;
        var t = new StringBuilder();
        for (int i = 0; i + 1 < targetPairs.length; i += 2) {
            if (targetPairs[i + 1] == null) {
                continue;
            }
            if (t.length() > 0) {
                t.append(' ');
            }
            t.append(targetPairs[i]).append(':').append(clean(targetPairs[i + 1]));
        }
        this.target = t.toString();
    }

    /** Writes the line of an action, once its answer's status is set. */
    @ServerResponseFilter
    public void written(ContainerResponseContext response) {
        if (action == null) {
            return;
        }
        LOG.info(new StringBuilder(128)
                .append("admin action=")
                .append(action)
                .append(" target=")
                .append(target.isEmpty() ? "-" : target)
                .append(" token=")
                .append(tokenPosition)
                .append(" status=")
                .append(response.getStatus())
                .toString());
        action = null;
    }

    static String clean(String value) {
        var out = new StringBuilder(Math.min(value.length(), MAX_VALUE));
        for (int i = 0; i < value.length() && out.length() < MAX_VALUE; i++) {
            char c = value.charAt(i);
            boolean plain = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '_'
                    || c == '-'
                    || c == '|'
                    || c == '*'
                    || c == '.';
            out.append(plain ? c : '?');
        }
        return out.toString();
    }
}
