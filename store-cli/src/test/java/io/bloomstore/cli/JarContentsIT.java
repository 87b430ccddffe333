package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The shaded jar holds no native-access binding for Chronicle's posix layer (JNR, JNA): the parent
 * pom leaves them out, since loading them when Chronicle first starts cost a one-key query most of
 * a second, and nothing in bloomstore needs posix calls (sync is FileChannel.force). This test is
 * what keeps a new dependency from bringing them back unnoticed; the CLI no longer picks Chronicle's
 * no-op binding itself (it must not use Chronicle, see ApiBoundaryTest).
 */
class JarContentsIT {
    private static final List<String> NATIVE_BINDINGS = List.of("jnr/", "com/kenai/jffi/", "com/sun/jna/");

    @Test
    void theJarHoldsNoNativeBindingForChroniclesPosixLayer() throws IOException {
        try (JarFile jar = new JarFile(JarProcess.JAR.toFile())) {
            List<String> bindings = jar.stream().map(ZipEntry::getName)
                    .filter(name -> NATIVE_BINDINGS.stream().anyMatch(name::startsWith)).limit(5).toList();
            assertEquals(List.of(), bindings, "native bindings in " + JarProcess.JAR);
            assertTrue(jar.getEntry("net/openhft/posix/PosixAPI.class") != null,
                    "Chronicle's posix API is in the jar (its Jvm class refers to it); only the bindings are left out");
        }
    }
}
