package io.paynotify;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.paynotify.core.notify.Provider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The dependency rules (docs/architecture.md "Dependency rules"): a framework-free core, provider packages that never import each other, and
 * secrets compared in constant time only.
 */
@Tag("unit")
class ArchitectureTest {

    /** The compiled main classes, imported once for this class and {@link ArchitectureDocTest}. */
    static JavaClasses classes;

    static synchronized JavaClasses mainClasses() {
        if (classes == null) {
            classes = new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.paynotify");
        }
        return classes;
    }

    @BeforeAll
    static void importClasses() {
        mainClasses();
    }

    @Test
    void coreDependsOnlyOnItselfAndTheJdk() {
        classes()
                .that()
                .resideInAPackage("io.paynotify.core..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("io.paynotify.core..", "java..")
                .check(classes);
    }

    @Test
    void providerPackagesAreIndependent() {
        slices().matching("io.paynotify.provider.(*)..")
                .should()
                .notDependOnEachOther()
                .check(classes);
    }

    @Test
    void nothingOutsideTheProviderPackagesSwitchesOnTheProvider() {
        // a switch on an enum compiles to a call of ordinal(); a comparison reads one of its constants
        noClasses()
                .that()
                .resideOutsideOfPackages("io.paynotify.provider..")
                .and()
                .doNotHaveFullyQualifiedName(Provider.class.getName())
                .should()
                .callMethod(Provider.class, "ordinal")
                .orShould()
                .accessField(Provider.class, "WECHATPAY_V2")
                .orShould()
                .accessField(Provider.class, "WECHATPAY_V3")
                .orShould()
                .accessField(Provider.class, "ALIPAY")
                .because("provider knowledge lives in io.paynotify.provider.<x> (docs/architecture.md)")
                .check(classes);
    }

    @Test
    void theApisAndTheIdempotencyLayerNeverSeeAProvider() {
        noClasses()
                .that()
                .resideInAnyPackage("io.paynotify.merchant..", "io.paynotify.admin..", "io.paynotify.idempotency..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.paynotify.provider..")
                .check(classes);
    }

    @Test
    void onlyThePersistencePackageWritesSql() {
        // one place per table: every statement lives in io.paynotify.persistence (health checks only read)
        noClasses()
                .that()
                .resideOutsideOfPackages("io.paynotify.persistence..", "io.paynotify.health..")
                .should()
                .callMethod(java.sql.Connection.class, "prepareStatement", String.class)
                .orShould()
                .callMethod(java.sql.Connection.class, "createStatement")
                .check(classes);
    }

    @Test
    void nothingButTheIntakeWritesNotifications() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.paynotify.intake..", "io.paynotify.notify..", "io.paynotify.reconcile..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("io.paynotify.intake.NotificationIntake")
                .check(classes);
    }

    @Test
    void theProviderPackagesHoldProtocolCodeOnly() {
        // parsing, signatures, acks and queries: they use the domain, the configuration and the log budget, and
        // never the intake, the database, the HTTP layer or the metrics (the front door, notify/, does that)
        classes()
                .that()
                .resideInAPackage("io.paynotify.provider..")
                .should()
                .onlyDependOnClassesThat(JavaClass.Predicates.resideOutsideOfPackage("io.paynotify..")
                        .or(JavaClass.Predicates.resideInAnyPackage(
                                "io.paynotify.core..",
                                "io.paynotify.config..",
                                "io.paynotify.logging..",
                                "io.paynotify.provider..")))
                .because("provider/ holds protocol code only (docs/architecture.md)")
                .check(classes);
    }

    @Test
    void signaturesAreNeverComparedWithArraysEquals() {
        // MessageDigest.isEqual is the only comparison of secrets, so no MAC or signature is compared with
        // String.equals
        noClasses()
                .that()
                .resideInAnyPackage("io.paynotify.provider..", "io.paynotify.merchant..", "io.paynotify.admin..")
                .should()
                .callMethod(java.util.Arrays.class, "equals", byte[].class, byte[].class)
                .check(classes);
    }
}
