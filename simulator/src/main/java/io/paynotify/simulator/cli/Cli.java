package io.paynotify.simulator.cli;

import io.paynotify.simulator.demo.DemoCommand;
import io.paynotify.simulator.gateway.ServeCommand;
import io.paynotify.simulator.listen.ListenCommand;
import io.paynotify.simulator.trigger.TriggerCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Dispatches a command line: {@code help} and {@code --help} print usage (exit 0), an unknown command or a usage
 * error prints usage on stderr (exit 2); otherwise the command's own exit code.
 */
public final class Cli {

    private Cli() {}

    /** Runs one command line and returns its exit code. */
    public static int run(String[] argv, PrintStream out, PrintStream err) {
        if (argv.length == 0) {
            err.println(Usage.all());
            return 2;
        }
        String command = argv[0];
        List<String> rest = Arrays.asList(argv).subList(1, argv.length);
        if (command.equals("help") || command.equals("--help") || command.equals("-h")) {
            return help(rest, out, err);
        }
        if (Usage.of(command).isEmpty()) {
            err.println("unknown command '" + command + "'\n");
            err.println(Usage.all());
            return 2;
        }
        if (rest.contains("--help") || rest.contains("-h")) {
            out.println(Usage.of(command).orElseThrow());
            return 0;
        }
        try {
            return switch (command) {
                case "serve" -> ServeCommand.run(rest.toArray(String[]::new));
                case "trigger" -> new TriggerCommand(out).run(rest);
                case "listen" -> new ListenCommand(out).run(rest);
                case "demo" -> new DemoCommand(out).run(rest);
                default -> throw new IllegalStateException(command);
            };
        } catch (UsageException e) {
            err.println(command + ": " + e.getMessage() + "\n");
            err.println(Usage.of(command).orElseThrow());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(command + ": interrupted");
            return 1;
        }
    }

    /** Whether a successful run leaves servers running that must outlive main (serve starts its own threads). */
    public static boolean keepsRunning(String[] argv) {
        return argv.length > 0 && argv[0].equals("serve");
    }

    private static int help(List<String> rest, PrintStream out, PrintStream err) {
        if (rest.isEmpty()) {
            out.println(Usage.all());
            return 0;
        }
        return Usage.of(rest.get(0))
                .map(text -> {
                    out.println(text);
                    return 0;
                })
                .orElseGet(() -> {
                    err.println("unknown command '" + rest.get(0) + "'\n");
                    err.println(Usage.all());
                    return 2;
                });
    }
}
