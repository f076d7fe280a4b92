package io.paynotify.simulator.listen;

import io.paynotify.simulator.cli.Args;
import io.paynotify.simulator.cli.UsageException;
import io.paynotify.simulator.trigger.DevProfile;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** {@code listen [--port 8089] [--secret whsec_...]}: runs a webhook receiver until the process is stopped. */
public final class ListenCommand {

    public static final Set<String> OPTIONS = Set.of("port", "secret");

    private final PrintStream out;

    public ListenCommand(PrintStream out) {
        this.out = out;
    }

    public int run(List<String> argv) throws UsageException, InterruptedException {
        Args args = Args.parse(argv, OPTIONS);
        if (!args.positional().isEmpty()) {
            throw new UsageException("listen takes no positional arguments");
        }
        int port = args.port("port", DevProfile.WEBHOOK_PORT);
        WebhookVerifier verifier;
        try {
            verifier = new WebhookVerifier(args.option("secret", DevProfile.WEBHOOK_SECRET), Clock.systemUTC());
        } catch (IllegalArgumentException e) {
            throw new UsageException("--secret must be whsec_ followed by base64");
        }
        try (WebhookReceiver receiver =
                WebhookReceiver.start(port, verifier, Clock.systemUTC(), d -> out.println(d.line()))) {
            out.println("listening on http://127.0.0.1:" + receiver.port() + "/ for Standard Webhooks deliveries"
                    + (args.option("secret").isEmpty() ? " (dev-shop's dev secret)" : "") + "; Ctrl-C stops");
            new CountDownLatch(1).await(); // until the process is stopped
            return 0;
        } catch (IOException e) {
            out.println(
                    "cannot listen on 127.0.0.1:" + port + ": " + e.getMessage() + " (is something else using it?)");
            return 1;
        }
    }
}
