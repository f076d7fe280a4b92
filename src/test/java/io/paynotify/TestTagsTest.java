package io.paynotify;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.main.QuarkusMainIntegrationTest;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.lang.annotation.Annotation;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Every test class is either a Quarkus test or tagged {@code unit}, so that the quick run ({@code mvn test
 * -Dgroups=unit}, no Quarkus, no database) forgets no test that could be in it, and contains none that boots
 * Quarkus. The exception is a plain class named {@code *IT} (such as {@code events.KilledProcessIT}): failsafe runs
 * it in {@code mvn verify}, after packaging, and it starts the packaged application itself as child processes, so
 * it could never be in the quick run; for the same reason it is never tagged {@code unit}. The classes are found,
 * and what counts as a test, a tag or a Quarkus test is decided, with JUnit's own support classes, as JUnit decides
 * it (inherited, repeated and composed annotations included); the scan loads classes without initialising them.
 */
@Tag("unit")
class TestTagsTest {

    static final String UNIT = "unit";

    static final List<Class<? extends Annotation>> TEST_METHODS =
            List.of(Test.class, ParameterizedTest.class, RepeatedTest.class, TestFactory.class, TestTemplate.class);

    static final List<Class<? extends Annotation>> QUARKUS_TESTS = List.of(
            QuarkusTest.class, QuarkusIntegrationTest.class, QuarkusMainTest.class, QuarkusMainIntegrationTest.class);

    /**
     * The concrete classes under io.paynotify on the test classpath that declare or inherit test methods, loaded by
     * this class's own class loader (during a full run the thread's context loader may be one of Quarkus', whose
     * copies of the test classes carry other copies of the annotation classes).
     */
    static List<Class<?>> testClasses() {
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(TestTagsTest.class.getClassLoader());
        try {
            return ReflectionSupport.findAllClassesInPackage(
                            "io.paynotify",
                            c -> !Modifier.isAbstract(c.getModifiers()) && !c.isInterface(),
                            name -> true)
                    .stream()
                    .filter(TestTagsTest::hasTestMethods)
                    .toList();
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    @Test
    void everyTestClassIsAQuarkusTestOrTaggedUnit() {
        List<String> neither = testClasses().stream()
                .filter(c -> !quarkusTest(c) && !taggedUnit(c) && !packagedTest(c))
                .map(Class::getName)
                .sorted()
                .toList();
        assertTrue(
                neither.isEmpty(),
                "These test classes are neither a @QuarkusTest/@QuarkusIntegrationTest nor tagged @Tag(\"unit\"), so"
                        + " the quick run (mvn test -Dgroups=unit) leaves them out; tag them:\n  "
                        + String.join("\n  ", neither));
    }

    @Test
    void noQuarkusTestIsTaggedUnit() {
        List<String> both = testClasses().stream()
                .filter(c -> quarkusTest(c) && taggedUnit(c))
                .map(Class::getName)
                .sorted()
                .toList();
        assertTrue(
                both.isEmpty(),
                "These Quarkus tests are tagged @Tag(\"unit\"), so the quick run would boot Quarkus for them:\n  "
                        + String.join("\n  ", both));
    }

    @Test
    void noPackagedTestIsTaggedUnit() {
        List<String> both = testClasses().stream()
                .filter(c -> packagedTest(c) && taggedUnit(c))
                .map(Class::getName)
                .sorted()
                .toList();
        assertTrue(
                both.isEmpty(),
                "These *IT classes are tagged @Tag(\"unit\"), but only failsafe runs *IT classes, after packaging: the"
                        + " quick run never would:\n  " + String.join("\n  ", both));
    }

    @Test
    void theGuardSeesTheTestClasses() {
        List<Class<?>> classes = testClasses();
        // a scan that finds nothing would pass both rules above
        assertTrue(classes.contains(TestTagsTest.class), "finds itself");
        assertTrue(classes.stream().anyMatch(TestTagsTest::quarkusTest), "finds Quarkus tests");
    }

    static boolean hasTestMethods(Class<?> c) {
        return TEST_METHODS.stream()
                .anyMatch(a -> !AnnotationSupport.findAnnotatedMethods(c, a, HierarchyTraversalMode.TOP_DOWN)
                        .isEmpty());
    }

    /**
     * Run by failsafe against the packaged application (its default includes are {@code *IT}; surefire's leave these
     * out), never by the quick run. Its top-level class's name decides, as for failsafe.
     */
    static boolean packagedTest(Class<?> c) {
        Class<?> top = c;
        while (top.getEnclosingClass() != null) {
            top = top.getEnclosingClass();
        }
        return top.getSimpleName().endsWith("IT");
    }

    /** Annotated (directly, inherited or composed) on the class or, for a @Nested class, on an enclosing one. */
    static boolean quarkusTest(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            for (Class<? extends Annotation> a : QUARKUS_TESTS) {
                if (AnnotationSupport.isAnnotated(k, a)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Tagged unit on the class or an enclosing class: JUnit applies an enclosing class's tags to @Nested ones. */
    static boolean taggedUnit(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (AnnotationSupport.findRepeatableAnnotations(k, Tag.class).stream()
                    .anyMatch(t -> UNIT.equals(t.value()))) {
                return true;
            }
        }
        return false;
    }
}
