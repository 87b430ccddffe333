package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyNamesTest {
    private static String name(String key) throws RespError {
        return KeyNames.fileName(key.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void plainKeysAreTheirOwnNamesSoFilesMadeByHandAreServed() throws RespError {
        assertEquals("seen.bloom", name("seen"));
        assertEquals("user:42.v1.bloom", name("user:42.v1"));
        assertArrayEquals("seen".getBytes(StandardCharsets.UTF_8), KeyNames.key("seen.bloom"));
    }

    @Test
    void nothingEscapesTheFolderOrHides() throws RespError {
        assertEquals("%2E.%2Fx.bloom", name("../x"));
        assertEquals("%2Ftmp%2Fx.bloom", name("/tmp/x"));
        assertEquals("%2E.bloom", name("."));
        assertEquals("%2Ehidden.bloom", name(".hidden"));
        assertEquals("a%00b.bloom", name("a\0b"));
        for (String key : new String[] {"../x", "/abs", "a\\b", "..", "x/.."}) {
            String file = name(key);
            assertFalse(file.contains("/") || file.startsWith("."), file);
        }
        assertThrows(RespError.class, () -> name(""));
        assertThrows(RespError.class, () -> name("x".repeat(250)));
        assertEquals(255, name("x".repeat(249)).length());
    }

    @Test
    void everyKeyRoundTripsAndOnlyNamesTheEncodingWritesAreKeys() throws RespError {
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            byte[] key = new byte[1 + random.nextInt(40)];
            random.nextBytes(key);
            assertArrayEquals(key, KeyNames.key(KeyNames.fileName(key)));
        }
        assertNull(KeyNames.key("a%2fb.bloom"), "lower-case hex is not how keys are written");
        assertNull(KeyNames.key("%61.bloom"), "a plain byte written as %XX would be a second name for one key");
        assertNull(KeyNames.key("my file.bloom"));
        assertNull(KeyNames.key("x.bloom.tmp"));
        assertNull(KeyNames.key(".bloom"));
        assertNull(KeyNames.key("a%4.bloom"));
        assertTrue(KeyNames.key("%2E.bloom") != null);
    }
}
