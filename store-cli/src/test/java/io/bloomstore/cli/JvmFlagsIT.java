package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The JVM flags Chronicle needs are written once, in the parent pom ({@code bloomstore.jvm.flags},
 * {@code bloomstore.jvm.flags.jdk23}); Maven fills them into every argLine and the bench jar's
 * resource. The copies it cannot fill in (failsafe passes the pom's values to this test) must say
 * the same: the manifest properties and the built jar's manifest, bin/bloomstore, and the README.
 */
class JvmFlagsIT {
    /** A property failsafe sets from the parent pom, split into flags. */
    static List<String> pomFlags(String property) {
        String value = System.getProperty(property);
        if (value == null || value.contains("${")) {
            throw new IllegalStateException(property + " is not set from the pom: run this under failsafe");
        }
        return value.isBlank() ? List.of() : Arrays.asList(value.trim().split("\\s+"));
    }

    /** The packages {@code --add-opens=} or {@code --add-exports=} flags name, as a manifest writes them. */
    private static Set<String> manifestForm(List<String> flags, String option) {
        Set<String> packages = new LinkedHashSet<>();
        for (String flag : flags) {
            if (flag.startsWith(option + "=")) {
                String value = flag.substring(option.length() + 1);
                assertTrue(value.endsWith("=ALL-UNNAMED"), flag + ": a manifest can only open to ALL-UNNAMED");
                packages.add(value.substring(0, value.length() - "=ALL-UNNAMED".length()));
            }
        }
        return packages;
    }

    private static Set<String> words(String value) {
        return value == null ? Set.of() : new LinkedHashSet<>(Arrays.asList(value.trim().split("\\s+")));
    }

    @Test
    void manifestPropertiesNameTheFlagsPackages() {
        List<String> flags = pomFlags("bloomstore.jvm.flags");
        Set<String> opens = manifestForm(flags, "--add-opens");
        Set<String> exports = manifestForm(flags, "--add-exports");
        assertFalse(opens.isEmpty() || exports.isEmpty(), flags.toString());
        assertEquals(opens, words(System.getProperty("bloomstore.manifest.opens")), "bloomstore.manifest.opens");
        assertEquals(exports, words(System.getProperty("bloomstore.manifest.exports")), "bloomstore.manifest.exports");
    }

    @Test
    void builtJarManifestCarriesTheFlags() throws IOException {
        List<String> flags = pomFlags("bloomstore.jvm.flags");
        try (JarFile jar = new JarFile(JarProcess.JAR.toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertEquals(manifestForm(flags, "--add-opens"), words(main.getValue("Add-Opens")), "Add-Opens");
            assertEquals(manifestForm(flags, "--add-exports"), words(main.getValue("Add-Exports")), "Add-Exports");
            List<String> nativeAccess = pomFlags("bloomstore.jvm.flags.jdk23").stream()
                    .filter(f -> f.startsWith("--enable-native-access="))
                    .map(f -> f.substring("--enable-native-access=".length()))
                    .toList();
            assertEquals(nativeAccess, List.of(main.getValue("Enable-Native-Access")), "Enable-Native-Access");
        }
    }

    @Test
    void launcherAddsWhatTheManifestCannotSay() throws IOException {
        // bin/bloomstore runs `java -jar`: the manifest opens and exports; the launcher adds the
        // system properties and, on JDK 23+, the JDK 23+ flags.
        String launcher = Files.readString(Path.of(System.getProperty("bloomstore.launcher")), StandardCharsets.UTF_8);
        List<String> expected = new ArrayList<>(pomFlags("bloomstore.jvm.flags").stream().filter(f -> f.startsWith("-D")).toList());
        expected.addAll(pomFlags("bloomstore.jvm.flags.jdk23"));
        for (String flag : expected) {
            assertTrue(launcher.contains(flag), "bin/bloomstore lacks " + flag);
        }
    }

    @Test
    void readmeQuotesTheFlags() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("bloomstore.readme")), StandardCharsets.UTF_8);
        for (String flag : pomFlags("bloomstore.jvm.flags")) {
            if (flag.startsWith("--")) {
                assertTrue(readme.contains(flag), "README.md does not quote " + flag);
            }
        }
        for (String flag : pomFlags("bloomstore.jvm.flags.jdk23")) {
            assertTrue(readme.contains(flag), "README.md does not quote " + flag);
        }
    }
}
