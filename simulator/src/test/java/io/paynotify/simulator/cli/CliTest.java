package io.paynotify.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command line's exit codes and where its usage goes. */
class CliTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Cli.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpPrintsEveryCommandAndExits0() {
        assertEquals(0, run("help"));
        for (String command : new String[] {"serve", "trigger", "listen", "demo", "help"}) {
            assertTrue(stdout().contains("\n" + command + " ") || stdout().contains("\n" + command + "\n"), command);
        }
        assertEquals("", stderr());
    }

    @Test
    void helpForOneCommand() {
        assertEquals(0, run("help", "trigger"));
        assertTrue(stdout().contains("wrong-app"));
        assertEquals(0, run("listen", "--help"));
        assertTrue(stdout().contains("whsec_"));
        assertEquals(0, run("--help"));
    }

    @Test
    void anUnknownCommandPrintsUsageOnStderrAndExits2() {
        assertEquals(2, run("frobnicate"));
        assertTrue(stderr().contains("unknown command 'frobnicate'"));
        assertTrue(stderr().contains("usage:"));
        assertEquals("", stdout());
        assertEquals(2, run());
        assertEquals(2, run("help", "frobnicate"));
    }

    @Test
    void usageErrorsExit2() {
        assertEquals(2, run("trigger", "pay"));
        assertTrue(stderr().contains("--channel is required"));
        assertEquals(2, run("trigger", "explode", "--channel", "wx-dev"));
        assertEquals(2, run("trigger", "pay", "--channel", "nope"));
        assertEquals(2, run("trigger", "pay", "--channel", "wx-dev", "--amount", "0"));
        assertEquals(2, run("trigger", "pay", "--channel", "wx-dev", "--colour", "red"));
        assertEquals(2, run("trigger", "pay", "--channel"));
        assertEquals(2, run("listen", "--port", "70000"));
        assertEquals(2, run("listen", "--secret", "whsec_%%%"));
        assertEquals(2, run("demo", "extra"));
    }
}
