package io.paynotify.simulator.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A command's arguments: positional words and {@code --name value} (or {@code --name=value}) options. Only the
 * options a command declares are accepted, so a typo is a usage error instead of being ignored.
 */
public final class Args {

    private final List<String> positional;
    private final Map<String, String> options;
    private final boolean help;

    private Args(List<String> positional, Map<String, String> options, boolean help) {
        this.positional = positional;
        this.options = options;
        this.help = help;
    }

    /**
     * Parses {@code argv}.
     *
     * @param argv the words after the command's name
     * @param known the option names (without {@code --}) that take a value
     * @throws UsageException for an unknown option, a repeated one, or one without its value
     */
    public static Args parse(List<String> argv, Set<String> known) throws UsageException {
        List<String> positional = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        boolean help = false;
        for (int i = 0; i < argv.size(); i++) {
            String word = argv.get(i);
            if (word.equals("--help") || word.equals("-h")) {
                help = true;
            } else if (word.startsWith("--")) {
                int eq = word.indexOf('=');
                String name = word.substring(2, eq < 0 ? word.length() : eq);
                if (!known.contains(name)) {
                    throw new UsageException("unknown option --" + name);
                }
                String value;
                if (eq >= 0) {
                    value = word.substring(eq + 1);
                } else if (i + 1 < argv.size()) {
                    value = argv.get(++i);
                } else {
                    throw new UsageException("--" + name + " needs a value");
                }
                if (options.put(name, value) != null) {
                    throw new UsageException("--" + name + " given twice");
                }
            } else {
                positional.add(word);
            }
        }
        return new Args(List.copyOf(positional), options, help);
    }

    /** True when {@code --help} or {@code -h} was given. */
    public boolean help() {
        return help;
    }

    public List<String> positional() {
        return positional;
    }

    public Optional<String> option(String name) {
        return Optional.ofNullable(options.get(name));
    }

    public String option(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    /** A whole-number option within {@code [min, max]}, or {@code fallback} when absent. */
    public long longOption(String name, long fallback, long min, long max) throws UsageException {
        String value = options.get(name);
        if (value == null) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a whole number, not '" + value + "'");
        }
        if (n < min || n > max) {
            throw new UsageException("--" + name + " must be between " + min + " and " + max);
        }
        return n;
    }

    /** A TCP port option (1–65535). */
    public int port(String name, int fallback) throws UsageException {
        return (int) longOption(name, fallback, 1, 65535);
    }
}
