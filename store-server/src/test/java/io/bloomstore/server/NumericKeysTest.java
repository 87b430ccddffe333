package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.ParquetFilters;
import io.bloomstore.ParquetType;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An sbbf filter of a numeric Parquet type, served: an item is the text of a number, read as the
 * command line reads it, so a key added through the server is the number Parquet's writers hash.
 */
class NumericKeysTest {
    @TempDir
    Path dir;

    @Test
    void itemsOfANumericFilterAreNumbers() throws IOException {
        Path file = dir.resolve("ids.bloom");
        try (BloomFilter ids = BloomFilter.create(file, ParquetFilters.spec(ParquetType.INT64, 1000, 0.01, false))) {
            ids.add(7L);
        }
        try (ServedFolder server = ServedFolder.start(dir); Resp resp = new Resp(server.port)) {
            assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "ids", "7")).line(), "the number 7, added as a long");
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "ids", "42")).line());
            assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "ids", "42")).line());
            String refused = resp.send(Resp.command("BF.ADD", "ids", "forty-two")).line();
            assertTrue(refused.startsWith("-ERR "), refused);
        }
        try (BloomFilter ids = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertTrue(ids.mightContain(42L), "added through the server as the number 42");
        }
    }
}
