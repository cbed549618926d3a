FROM eclipse-temurin:21-jdk AS build
WORKDIR /workspace
COPY gradlew settings.gradle.kts build.gradle.kts ./
COPY gradle gradle
RUN ./gradlew --no-daemon dependencies > /dev/null
COPY src src
RUN ./gradlew --no-daemon bootJar -x test

FROM eclipse-temurin:21-jre
RUN addgroup --system spring && adduser --system --ingroup spring spring
USER spring:spring
COPY --from=build /workspace/build/libs/*.jar /app.jar
ENTRYPOINT ["java", "-jar", "/app.jar"]
