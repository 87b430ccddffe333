package io.bloomstore.internal.cells;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.core.OS;

/**
 * The JVM flags that the memory library needs to map a file, checked before anything is created
 * or mapped, so that a JVM started without them gets a message naming them, instead of an
 * {@code IllegalAccessError} from inside Chronicle after a file was written (a multi-GB one, for a
 * large filter).
 *
 * <p>What each one is for, found by mapping a file in JVMs given each subset of the flags (JDK 17
 * and 25; docs/RELIABILITY.md, "JVM flags"):
 * <ul>
 *   <li>every mapping: {@code --add-exports=java.base/sun.nio.ch} (Chronicle reads the address of
 *       the JDK's {@code MappedByteBuffer} through {@code sun.nio.ch.DirectBuffer}) and
 *       {@code --add-exports=java.base/jdk.internal.ref} (the cleaner that unmaps it at close);
 *   <li>a region longer than {@link FileMapping#JDK_MAPPING_LIMIT} (2 GiB - 1 byte), which
 *       Chronicle maps itself through the JDK's private {@code FileChannelImpl.map0}: also
 *       {@code --add-opens=java.base/java.lang.reflect}.
 * </ul>
 * The JDK 23+ flags ({@code --enable-native-access}, {@code --sun-misc-unsafe-memory-access}) only
 * keep the JVM's warnings quiet, and {@code -Dchronicle.analytics.disable=true} Chronicle's
 * analytics: none of them is needed to map, so none is checked.
 */
public final class MappingFlags {
    /** Where the library's classes live: the unnamed module of the class path, or Chronicle's own. */
    private static final Module CHRONICLE = OS.class.getModule();
    private static final Module JAVA_BASE = Object.class.getModule();
    /** Where the README and docs list the flags, for the message. */
    private static final String SEE = "see the README, \"The Java API\" (JVM flags)";

    private MappingFlags() {
    }

    /**
     * Refuses to go on with a mapping of {@code bytes} bytes that this JVM's flags do not allow.
     *
     * @param file the file to be created or mapped, for the message
     * @throws IllegalStateException naming every missing flag; nothing has been created or mapped
     */
    public static void require(Path file, long bytes) {
        List<String> missing = missing(bytes);
        if (!missing.isEmpty()) {
            throw new IllegalStateException(file + ": cannot map " + bytes + " bytes: this JVM was started without "
                    + String.join(" ", missing) + " (bloomstore's memory library needs " + (missing.size() == 1
                            ? "it" : "them") + "; nothing was created or mapped): add " + (missing.size() == 1
                            ? "it" : "them") + " to the java command line; " + SEE);
        }
    }

    /** The flags this JVM lacks for a mapping of {@code bytes} bytes, as they are written on a command line. */
    static List<String> missing(long bytes) {
        List<String> missing = new ArrayList<>(3);
        if (bytes > FileMapping.JDK_MAPPING_LIMIT && !JAVA_BASE.isOpen("java.lang.reflect", CHRONICLE)) {
            missing.add("--add-opens=java.base/java.lang.reflect=" + target());
        }
        if (!JAVA_BASE.isExported("sun.nio.ch", CHRONICLE)) {
            missing.add("--add-exports=java.base/sun.nio.ch=" + target());
        }
        if (!JAVA_BASE.isExported("jdk.internal.ref", CHRONICLE)) {
            missing.add("--add-exports=java.base/jdk.internal.ref=" + target());
        }
        return missing;
    }

    /** What the flags name as the module they open to: ALL-UNNAMED on the class path, else Chronicle's module. */
    private static String target() {
        return CHRONICLE.isNamed() ? CHRONICLE.getName() : "ALL-UNNAMED";
    }
}
