####
# paynotify as a native executable on a minimal UBI micro image, built from source in three stages:
#   1. Maven (JDK 17) compiles and runs the Quarkus build with -Dquarkus.native.sources-only=true, which writes the
#      application jar and the exact native-image arguments to target/native-sources (no native-image needed yet);
#   2. the Mandrel builder image (the one Quarkus 3.33 uses by default) turns them into a native executable;
#   3. the executable runs on quay.io/quarkus/ubi9-quarkus-micro-image as user 1001 (non-root).
# No native build runs on the development machine of this project (no GraalVM, no container engine): see
# docs/operations.md. Build and run where Docker or Podman exists:
#
#   docker build -f Dockerfile -t paynotify:0.1.0 .
#   docker run -i --rm -p 8080:8080 -p 9000:9000 \
#       -e QUARKUS_DATASOURCE_JDBC_URL=jdbc:postgresql://host.docker.internal:5432/paynotify \
#       -e QUARKUS_DATASOURCE_USERNAME=paynotify -e QUARKUS_DATASOURCE_PASSWORD=... \
#       -e QUARKUS_CONFIG_LOCATIONS=/config/application.properties -v "$PWD/config:/config:ro" \
#       paynotify:0.1.0
#
# Tests do not run inside the build (they need PostgreSQL): run `mvn verify` before building the image.
###

## Stage 1: the Quarkus build, producing native-image sources
FROM docker.io/library/maven:3.9-eclipse-temurin-17 AS sources
WORKDIR /build
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src src
RUN mvn -B package -DskipTests -Dnative -Dquarkus.native.sources-only=true

## Stage 2: native-image with Mandrel
FROM quay.io/quarkus/ubi9-quarkus-mandrel-builder-image:jdk-25 AS native
WORKDIR /project
COPY --from=sources --chown=quarkus:quarkus /build/target/native-sources /project
USER quarkus
RUN native-image $(cat native-image.args) -J-Xmx4g && mv ./*-runner /project/application

## Stage 3: the runtime image
FROM quay.io/quarkus/ubi9-quarkus-micro-image:2.0
WORKDIR /work/
RUN chown 1001 /work \
    && chmod "g+rwX" /work \
    && chown 1001:root /work
COPY --from=native --chown=1001:root --chmod=0755 /project/application /work/application
EXPOSE 8080
# the management interface: health, metrics, OpenAPI (never published to the internet)
EXPOSE 9000
USER 1001
# -Xmx: the JVM build served 10,000 notifications with a 128 MiB heap (docs/operations.md); the pod limit is 512 MiB
ENTRYPOINT ["./application", "-Dquarkus.http.host=0.0.0.0", "-Xmx128m"]
