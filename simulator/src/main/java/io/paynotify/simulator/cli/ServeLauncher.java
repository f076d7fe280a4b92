package io.paynotify.simulator.cli;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;

/**
 * Hands {@code serve} to the gateway's {@code io.paynotify.simulator.gateway.ServeCommand.run(String[])}. Looked up
 * by name so that the command line builds and runs while the gateway package is developed on its own branch.
 */
final class ServeLauncher {

    static final String SERVE_COMMAND = "io.paynotify.simulator.gateway.ServeCommand";

    private ServeLauncher() {}

    static int run(String[] args, PrintStream err) {
        try {
            Object code = Class.forName(SERVE_COMMAND)
                    .getMethod("run", String[].class)
                    .invoke(null, (Object) args);
            return (Integer) code;
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            err.println("this build of the simulator has no gateway (" + SERVE_COMMAND + ".run is missing)");
            return 1;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
