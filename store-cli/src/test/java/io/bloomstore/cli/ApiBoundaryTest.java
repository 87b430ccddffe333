package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The CLI is a client of the library's public API (package-info): no compiled class of
 * {@code io.bloomstore.cli} may name a type of {@code io.bloomstore.internal} or of Chronicle
 * ({@code net.openhft}). Checked on the class files the build made, through their constant pools,
 * where every type a class uses is named (class references, field and method descriptors,
 * signatures), so an import, a fully qualified name and a {@code var} are all caught.
 */
class ApiBoundaryTest {
    private static final List<String> FORBIDDEN = List.of("io/bloomstore/internal/", "net/openhft/",
            "io.bloomstore.internal.", "net.openhft.");

    @Test
    void noCliClassRefersToAnInternalOrChronicleType() throws IOException, URISyntaxException {
        Path classes = Path.of(BloomstoreCli.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path cli = classes.resolve("io/bloomstore/cli");
        Map<String, List<String>> violations = new TreeMap<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(cli)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                List<String> bad = forbiddenNames(Files.readAllBytes(file));
                if (!bad.isEmpty()) {
                    violations.put(classes.relativize(file).toString(), bad);
                }
                scanned++;
            }
        }
        assertTrue(scanned > 0 && Files.exists(cli.resolve("BloomstoreCli.class")), "found the CLI's classes in " + cli);
        assertEquals(Map.of(), violations, "CLI classes that use internals or Chronicle; add what they need to io.bloomstore");
    }

    @Test
    void theScanFindsTheInternalsTheLibraryItselfUses() throws IOException {
        // BloomFilter is built on internal types: a scan that missed them would let the test above pass vacuously.
        try (InputStream in = BloomFilter.class.getResourceAsStream("BloomFilter.class")) {
            List<String> found = forbiddenNames(in.readAllBytes());
            assertTrue(found.stream().anyMatch(name -> name.contains("io/bloomstore/internal/cells/CellArray")), found.toString());
        }
    }

    /** The strings of the class file's constant pool (JVMS 4.4) that name a forbidden package. */
    private static List<String> forbiddenNames(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        TreeSet<String> bad = new TreeSet<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> { // Utf8: class names, descriptors, signatures, string constants
                    String text = in.readUTF();
                    if (FORBIDDEN.stream().anyMatch(text::contains)) {
                        bad.add(text);
                    }
                }
                case 7, 8, 16, 19, 20 -> in.skipBytes(2); // Class, String, MethodType, Module, Package
                case 15 -> in.skipBytes(3); // MethodHandle
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4); // Integer, Float, refs, NameAndType, dynamic
                case 5, 6 -> { // Long, Double take two entries
                    in.skipBytes(8);
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
            }
        }
        return new ArrayList<>(bad);
    }
}
