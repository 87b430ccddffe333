package io.bloomstore.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The JVM flags every JVM that maps a filter needs (Chronicle Bytes' --add-opens / --add-exports),
 * as the parent pom's {@code bloomstore.jvm.flags} and {@code bloomstore.jvm.flags.jdk23} say.
 *
 * <p>They reach this class through a Maven-filtered resource rather than a copy in the source, so
 * the pom stays the one place they are written. The JDK 23+ extras are applied by the version of
 * the JVM that runs, not the one that built the jar: a jar built on JDK 25 still runs on 17.
 */
public final class BenchJvm {
    private static final String RESOURCE = "bench-jvm.properties";
    /** The first feature release that knows --sun-misc-unsafe-memory-access. */
    private static final int MODERN_FEATURE = 23;
    /** The first feature release without the jdk.incubator.foreign module DataSketches 7 needs. */
    private static final int NO_INCUBATOR_FOREIGN_FEATURE = 19;

    private BenchJvm() {
    }

    /** The flags for a JVM of the same version as this one. */
    public static List<String> flags() {
        return flagsFor(Runtime.version().feature());
    }

    /** The flags for a JVM of feature version {@code feature} (17, 25, ...). */
    public static List<String> flagsFor(int feature) {
        Properties properties = load();
        List<String> flags = new ArrayList<>(split(properties.getProperty("jvm.flags")));
        if (feature >= MODERN_FEATURE) {
            flags.addAll(split(properties.getProperty("jvm.flags.modern")));
        }
        return flags;
    }

    /**
     * The flags a JMH fork that may run a peer needs besides {@link #flags()}, for a JVM of feature
     * version {@code feature}: DataSketches' {@code --add-modules=jdk.incubator.foreign} on JDK 17
     * and 18, nothing later (the module is gone, and so is DataSketches 7 there).
     */
    public static List<String> peerFlagsFor(int feature) {
        return feature < NO_INCUBATOR_FOREIGN_FEATURE ? split(load().getProperty("jvm.flags.peers")) : List.of();
    }

    /** The {@code java} launcher of the running JVM, for starting child JVMs of the same version. */
    public static Path javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    private static Properties load() {
        Properties properties = new Properties();
        try (InputStream in = BenchJvm.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path; build with Maven");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String flags = properties.getProperty("jvm.flags", "");
        if (flags.contains("${")) {
            throw new IllegalStateException(RESOURCE + " was not filtered by Maven: " + flags);
        }
        return properties;
    }

    private static List<String> split(String flags) {
        if (flags == null || flags.isBlank()) {
            return List.of();
        }
        return Arrays.asList(flags.trim().split("\\s+"));
    }
}
