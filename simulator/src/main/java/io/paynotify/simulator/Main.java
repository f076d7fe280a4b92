package io.paynotify.simulator;

import io.paynotify.simulator.cli.Cli;

/**
 * The simulator's entry point: {@code java -jar paynotify-simulator.jar <command>}, with the commands {@code serve},
 * {@code trigger}, {@code listen}, {@code demo} and {@code help}. See {@link Cli}.
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        int code = Cli.run(args, System.out, System.err);
        if (code != 0 || !Cli.keepsRunning(args)) {
            System.exit(code);
        }
    }
}
