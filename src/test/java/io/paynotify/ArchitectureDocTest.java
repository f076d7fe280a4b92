package io.paynotify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md tells the truth about the code, as the state-machine diagram does: the "Who uses whom" table
 * is the package-to-package imports of the compiled main classes, and the package map has a row for every package
 * of {@code src/main/java/io/paynotify} that names every one of its files. A change that adds a package, a file or
 * an import between packages fails here until the page says so.
 */
@Tag("unit")
class ArchitectureDocTest {

    static final Path DOC = Path.of("docs", "architecture.md");
    static final Path SOURCES = Path.of("src", "main", "java", "io", "paynotify");
    static final String ROOT = "io.paynotify.";

    static JavaClasses classes;
    static String doc;

    @BeforeAll
    static void read() throws IOException {
        classes = ArchitectureTest.mainClasses();
        doc = Files.readString(DOC, StandardCharsets.UTF_8);
    }

    /** The top-level package of a class: {@code core} for {@code io.paynotify.core.order.Decision}. */
    static String topLevel(String packageName) {
        if (!packageName.startsWith(ROOT)) {
            return null;
        }
        String rest = packageName.substring(ROOT.length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /** Which top-level packages each top-level package uses, from the compiled classes. */
    static Map<String, Set<String>> computedUses() {
        var uses = new TreeMap<String, Set<String>>();
        for (JavaClass c : classes) {
            String from = topLevel(c.getPackageName());
            if (from == null) {
                continue;
            }
            Set<String> to = uses.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = topLevel(d.getTargetClass().getPackageName());
                if (target != null && !target.equals(from)) {
                    to.add(target);
                }
            }
        }
        return uses;
    }

    /** The rows of the markdown table that follows {@code heading} (the first table after it). */
    static List<String[]> table(String heading) {
        int at = doc.indexOf(heading);
        assertTrue(at >= 0, "docs/architecture.md has no \"" + heading + "\"");
        var rows = new ArrayList<String[]>();
        boolean inTable = false;
        for (String line : doc.substring(at).split("\n", -1)) {
            if (line.startsWith("|")) {
                inTable = true;
                String[] cells = line.substring(1, line.length() - (line.endsWith("|") ? 1 : 0))
                        .split("\\|", 2);
                if (cells.length == 2
                        && !cells[0].strip().startsWith("---")
                        && !cells[0].strip().equals("package")) {
                    rows.add(new String[] {cells[0].strip(), cells[1].strip()});
                }
            } else if (inTable) {
                break;
            }
        }
        return rows;
    }

    static final Pattern NAME = Pattern.compile("`([a-z][a-z0-9/]*)`");

    static List<String> names(String cell) {
        var out = new ArrayList<String>();
        Matcher m = NAME.matcher(cell);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void theWhoUsesWhomTableIsThePackageImports() {
        Map<String, Set<String>> computed = computedUses();
        var documented = new TreeMap<String, Set<String>>();
        for (String[] row : table("Who uses whom")) {
            Set<String> uses = new TreeSet<>();
            // "(only …)" notes say which part is used; only the package names count
            for (String name : names(row[1].replaceAll("\\([^)]*\\)", ""))) {
                uses.add(name);
            }
            for (String pkg : names(row[0])) {
                documented.put(pkg, uses);
            }
        }
        assertEquals(render(computed), render(documented), "docs/architecture.md \"Who uses whom\" vs the code");
    }

    @Test
    void thePackageMapNamesEveryPackageAndEveryFile() throws IOException {
        var rows = new TreeMap<String, String>();
        for (String[] row : table("## Package map")) {
            for (String pkg : names(row[0])) {
                rows.put(pkg, row[1]);
            }
        }
        var missing = new ArrayList<String>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String pkg = SOURCES.relativize(file.getParent()).toString().replace('\\', '/');
                String name = file.getFileName().toString().replace(".java", "");
                String text = rows.get(pkg);
                if (text == null) {
                    missing.add("no row for package " + pkg);
                } else if (!Pattern.compile("`" + name + "\\b").matcher(text).find()) {
                    missing.add(pkg + " does not name " + name);
                }
            }
        }
        assertEquals(List.of(), missing.stream().distinct().toList(), "docs/architecture.md \"Package map\"");
    }

    /** One line per package, as the table would say it, so a failure shows the row to write. */
    static String render(Map<String, Set<String>> uses) {
        var out = new StringBuilder();
        uses.forEach((pkg, to) -> out.append("| `")
                .append(pkg)
                .append("` | ")
                .append(
                        to.isEmpty()
                                ? "no other package"
                                : String.join(
                                        ", ",
                                        to.stream().map(t -> "`" + t + "`").toList()))
                .append(" |\n"));
        return out.toString();
    }
}
