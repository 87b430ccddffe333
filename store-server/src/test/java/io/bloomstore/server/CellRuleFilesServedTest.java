package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomierMap;
import io.bloomstore.OpenMode;
import io.bloomstore.StableSpec;
import io.bloomstore.ValuedFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stable filters, valued filters and Bloomier maps (docs/CLI.md, "serve") served by the real server
 * process and driven by redis-cli: RedisBloom's commands on a stable file add by its rule, a
 * valued file answers BF.EXISTS and refuses BF.ADD naming BS.ADDVALUE, BS.ADDVALUE/BS.GETVALUE
 * write and read values, BS.GETVALUE reads a map, and BS.INFO names each one's kind.
 */
class CellRuleFilesServedTest {
    @TempDir
    static Path dir;
    static ServedFolder server;

    @BeforeAll
    static void start() throws IOException {
        // a stable filter whose keys live about 200 later adds, a valued filter (max) of 2-bit values, a map of 3-bit values
        BloomFilter.createStable(dir.resolve("clicks.bloom"), StableSpec.forLifetime(200, 0.01, 2)).close();
        ValuedFilter.create(dir.resolve("labels.bloom"), 1000, 0.001, 2, ValuedFilter.Keep.MAX).close();
        try (BloomierMap.Builder map = BloomierMap.builder(dir.resolve("shards.bloom"), 3)) {
            for (int i = 0; i < 1000; i++) {
                map.put("user-" + i, i % 8);
            }
            map.build();
        }
        server = ServedFolder.start(dir);
    }

    @AfterAll
    static void stop() throws IOException {
        try (ServedFolder started = server) {
            if (started != null) {
                started.stop();
            }
        }
    }

    /**
     * RedisBloom's commands on a stable file, and its rule: after 25 lifetimes of other items the
     * first is forgotten, as a stable add (decrements, then the item's cells) forgets, where a
     * plain add would keep it for ever; and items past the N it was sized for are never refused as
     * a full NONSCALING filter's are (they were before: its N is a lifetime, not a capacity).
     */
    @Test
    void aStableFileTakesRedisBloomsCommandsAndForgets() throws Exception {
        DebianPackages.requireRedisCli();
        assertEquals("1", server.redisCli("BF.ADD", "clicks", "first"));
        assertEquals("0", server.redisCli("BF.ADD", "clicks", "first"));
        assertEquals("1", server.redisCli("BF.EXISTS", "clicks", "first"));
        assertEquals("1\n1", server.redisCli("BF.MADD", "clicks", "b", "c"));
        assertEquals("1\n1\n0", server.redisCli("BF.MEXISTS", "clicks", "first", "c", "never-added"));
        assertTrue(server.redisCli("BF.INFO", "clicks").startsWith("Capacity\n"), "BF.INFO answers as for any filter");
        String info = server.redisCli("BS.INFO", "clicks");
        assertTrue(info.contains("\"cellRule\":\"stable\"") && info.contains("\"decrements\":")
                && info.contains("\"expectedLifetime\":"), info);
        List<String> madd = new ArrayList<>(List.of("BF.MADD", "clicks"));
        for (int i = 0; i < 5000; i++) {
            madd.add("later-" + i);
        }
        // a stable file takes keys without end: its N is a lifetime, and BF.ADD never calls it full
        String added = server.redisCli(madd.toArray(new String[0]));
        assertFalse(added.contains("ERR"), "items past N are added: " + added.lines().filter(l -> l.contains("ERR")).toList());
        assertEquals("0", server.redisCli("BF.EXISTS", "clicks", "first"));
        assertEquals("1", server.redisCli("BF.EXISTS", "clicks", "later-4999"));
    }

    @Test
    void aValuedFileTakesValuesAndRefusesAPlainAdd() throws Exception {
        DebianPackages.requireRedisCli();
        assertEquals("WRONGTYPE 'labels' is a valued filter, which holds a value per item: add with BS.ADDVALUE key item value",
                server.redisCli("BF.ADD", "labels", "10.0.0.1"));
        assertEquals("1", server.redisCli("BS.ADDVALUE", "labels", "10.0.0.1", "2"));
        assertEquals("0", server.redisCli("BS.ADDVALUE", "labels", "10.0.0.1", "1"), "max keeps 2");
        assertEquals("1", server.redisCli("BS.ADDVALUE", "labels", "10.0.0.1", "3"));
        assertEquals("3", server.redisCli("BS.GETVALUE", "labels", "10.0.0.1"));
        assertEquals("", server.redisCli("BS.GETVALUE", "labels", "10.9.9.9"), "absent: a null reply");
        assertEquals("", server.redisCli("BS.GETVALUE", "nokey", "10.0.0.1"));
        assertEquals("1", server.redisCli("BF.EXISTS", "labels", "10.0.0.1"));
        assertEquals("1\n0", server.redisCli("BF.MEXISTS", "labels", "10.0.0.1", "10.9.9.9"));
        assertEquals("ERR value '4' is not a whole number from 0 to 3 (the file's 2 value bits)",
                server.redisCli("BS.ADDVALUE", "labels", "10.0.0.2", "4"));
        assertEquals("ERR value 'x' is not a whole number from 0 to 3 (the file's 2 value bits)",
                server.redisCli("BS.ADDVALUE", "labels", "10.0.0.2", "x"));
        assertTrue(server.redisCli("BS.ADDVALUE", "clicks", "a", "1").startsWith("WRONGTYPE 'clicks' holds no values (it is a "
                + "stable filter); BS.ADDVALUE adds to valued filters"));
        assertTrue(server.redisCli("BS.ADDVALUE", "nokey", "a", "1").startsWith("ERR no such key 'nokey'"));
        assertEquals("ERR wrong number of arguments for 'bs.addvalue' command", server.redisCli("BS.ADDVALUE", "labels", "a"));
        String info = server.redisCli("BS.INFO", "labels");
        assertTrue(info.contains("\"cellRule\":\"max\",\"valueBits\":2"), info);
        try (ValuedFilter file = ValuedFilter.open(dir.resolve("labels.bloom"), OpenMode.READ_ONLY)) {
            assertEquals(OptionalLong.of(3), file.get("10.0.0.1"), "the server wrote the shared file");
        }
    }

    @Test
    void aBloomierMapAnswersGetValueAndInfo() throws Exception {
        DebianPackages.requireRedisCli();
        for (int i : new int[] {0, 7, 13, 999}) {
            assertEquals(Integer.toString(i % 8), server.redisCli("BS.GETVALUE", "shards", "user-" + i));
        }
        int absent = 0;
        for (int i = 0; i < 20; i++) {
            absent += server.redisCli("BS.GETVALUE", "shards", "stranger-" + i).isEmpty() ? 1 : 0;
        }
        assertTrue(absent >= 17, absent + " of 20 keys not in the map read absent (each but for 2^-8)");
        String info = server.redisCli("BS.INFO", "shards");
        assertTrue(info.contains("\"kind\":\"map\"") && info.contains("\"pairs\":1000") && info.contains("\"valueBits\":3"),
                info);
        assertTrue(server.redisCli("BF.EXISTS", "shards", "user-1").startsWith("WRONGTYPE"), "a map is not a filter");
    }

    /**
     * BS.GETVALUE of a key whose file the keyspace refuses opens it once more as a file of any kind:
     * a damaged map is reported as the map's damage, a file that is no bloomstore file at all as the
     * keyspace's refusal, as each was before that open went through StoredFile.
     */
    @Test
    void aDamagedMapAndAForeignFileAreRefusedEachForWhatItIs() throws Exception {
        DebianPackages.requireRedisCli();
        byte[] map = Files.readAllBytes(dir.resolve("shards.bloom"));
        Files.write(dir.resolve("cut.bloom"), Arrays.copyOf(map, map.length - 8)); // shorter than its header says
        String cut = server.redisCli("BS.GETVALUE", "cut", "user-1");
        assertTrue(cut.startsWith("ERR cannot open " + dir.resolve("cut.bloom") + ": "), cut);
        assertFalse(cut.contains("is a Bloomier map"), "the map's damage, not the keyspace's refusal of a map: " + cut);
        Files.writeString(dir.resolve("notes.bloom"), "a text file, not a filter\n".repeat(200));
        String notes = server.redisCli("BS.GETVALUE", "notes", "a");
        assertTrue(notes.startsWith("WRONGTYPE notes.bloom is not a bloomstore filter file: "), notes);
        assertEquals(notes, server.redisCli("BS.INFO", "notes"), "BS.INFO refuses it alike");
    }
}
