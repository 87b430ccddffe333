package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The server is a client of store-core's public API: no class of it names a type of
 * {@code io.bloomstore.internal} or Chronicle. Type names are ASCII in a class file's constant
 * pool, so a search of its bytes finds every one however the source referred to it.
 */
class ServerApiBoundaryTest {
    private static final List<String> FORBIDDEN = List.of("io/bloomstore/internal/", "net/openhft/");

    @Test
    void noServerClassUsesTheLibrarysInternals() throws IOException, URISyntaxException {
        Path classes = Path.of(BloomServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, String> violations = new TreeMap<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(classes.resolve("io/bloomstore/server"))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                FORBIDDEN.stream().filter(bytes::contains).findFirst()
                        .ifPresent(name -> violations.put(file.getFileName().toString(), name));
                scanned++;
            }
        }
        assertTrue(scanned > 10, "found the server's classes in " + classes);
        assertEquals(Map.of(), violations);
        try (var in = io.bloomstore.BloomFilter.class.getResourceAsStream("BloomFilter.class")) {
            assertTrue(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1).contains(FORBIDDEN.get(0)),
                    "the search finds the internals the library's own classes use");
        }
    }
}
