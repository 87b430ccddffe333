package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands a Redis user's scripts, test fixtures and monitoring send besides the Bloom ones,
 * answered as Redis answers them where a filter file can mean the same (FLUSHDB, RENAME, COPY, TTL, MEMORY USAGE,
 * SAVE, LASTSAVE, WAIT, ROLE, INFO's replication and persistence fields), and refused with a way out
 * where it cannot (EXPIRE).
 */
class RedisHabitsTest extends OneServerTests {
    @Test
    void flushdbDeletesEveryFileAndTtlAndMemoryUsageDescribeAFile() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "a", "x")).reply());
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "b", "x")).reply());
            assertEquals(":-1", resp.send(Resp.command("TTL", "a")).reply(), "a key without expiry");
            assertEquals(":-1", resp.send(Resp.command("PTTL", "a")).reply());
            assertEquals(":-2", resp.send(Resp.command("TTL", "nokey")).reply(), "no such key");
            assertEquals(":0", resp.send(Resp.command("PERSIST", "a")).reply(), "no timeout to remove");
            assertTrue(resp.send(Resp.command("EXPIRE", "a", "10")).reply().startsWith(
                    "-ERR EXPIRE is not supported: a filter has no expiry; to forget keys after a time, reserve a"
                            + " windowed filter (BS.RESERVEWINDOW"));
            assertEquals(":" + Files.size(dir.resolve("a.bloom")), resp.send(Resp.command("MEMORY", "USAGE", "a")).reply());
            assertEquals(":" + Files.size(dir.resolve("a.bloom")),
                    resp.send(Resp.command("MEMORY", "USAGE", "a", "SAMPLES", "0")).reply());
            assertEquals("$-1", resp.send(Resp.command("MEMORY", "USAGE", "nokey")).reply());
            assertEquals("-ERR unknown subcommand 'DOCTOR'. Try MEMORY HELP.",
                    resp.send(Resp.command("MEMORY", "DOCTOR")).reply());
            assertEquals("-ERR syntax error", resp.send(Resp.command("FLUSHDB", "NOW")).reply());
            assertTrue(Files.exists(dir.resolve("a.bloom")), "a refused FLUSHDB deletes nothing");
            assertEquals("+OK", resp.send(Resp.command("FLUSHDB")).reply());
            assertEquals(":0", resp.send(Resp.command("DBSIZE")).reply());
            assertFalse(Files.exists(dir.resolve("a.bloom")) || Files.exists(dir.resolve("b.bloom")), "the files are gone");
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "c", "x")).reply());
            assertEquals("+OK", resp.send(Resp.command("FLUSHALL", "ASYNC")).reply());
            assertFalse(Files.exists(dir.resolve("c.bloom")));
        }
    }

    @Test
    void renameMovesTheFileAtomicallyAndRenamenxNeverReplacesOne() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "old", "x")).reply());
            assertEquals("+OK", resp.send(Resp.command("RENAME", "old", "new")).reply());
            assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "new", "x")).reply(), "the keys went with the file");
            assertFalse(Files.exists(dir.resolve("old.bloom")));
            assertEquals("-ERR no such key", resp.send(Resp.command("RENAME", "old", "other")).reply());
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "taken", "y")).reply());
            assertEquals(":0", resp.send(Resp.command("RENAMENX", "new", "taken")).reply());
            assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "taken", "y")).reply(), "RENAMENX kept the target");
            assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "new", "x")).reply(), "and the source");
            assertEquals(":0", resp.send(Resp.command("RENAMENX", "new", "new")).reply());
            assertEquals("+OK", resp.send(Resp.command("RENAME", "new", "new")).reply());
            assertEquals("+OK", resp.send(Resp.command("RENAME", "new", "taken")).reply(), "RENAME replaces the target");
            assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "taken", "x")).reply());
            assertEquals(":0", resp.send(Resp.command("BF.EXISTS", "taken", "y")).reply(), "the target's old file is gone");
            assertEquals(":0", resp.send(Resp.command("EXISTS", "new")).reply());
        }
    }

    @Test
    void copyWritesAConsistentCopyOfTheLiveFileUnderTheNewName() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "live", "x")).reply());
            assertEquals(":1", resp.send(Resp.command("COPY", "live", "snapshot")).reply());
            assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "snapshot", "x")).reply());
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "live", "y")).reply());
            assertEquals(":0", resp.send(Resp.command("BF.EXISTS", "snapshot", "y")).reply(), "a copy, not a link to the live file");
            assertEquals(":0", resp.send(Resp.command("COPY", "live", "snapshot")).reply(), "without REPLACE the target stays");
            assertEquals(":1", resp.send(Resp.command("COPY", "live", "snapshot", "DB", "0", "REPLACE")).reply());
            assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "snapshot", "y")).reply());
            assertEquals(":0", resp.send(Resp.command("COPY", "nokey", "other")).reply());
            assertEquals("-ERR source and destination objects are the same", resp.send(Resp.command("COPY", "live", "live")).reply());
            assertEquals("-ERR DB index is out of range", resp.send(Resp.command("COPY", "live", "other", "DB", "1")).reply());
            try (var listing = Files.list(dir)) {
                assertTrue(listing.noneMatch(file -> file.getFileName().toString().startsWith(".copy-")), "no copy left half-made");
            }
        }
    }

    @Test
    void saveMakesTheAddsDurableNowAndLastsaveAndInfoSaySo(@TempDir Path own) throws Exception {
        // a server of its own, --sync no: only SAVE and BGSAVE sync, so LASTSAVE moves only through them
        try (ServedFolder server = ServedFolder.start(own, SyncPolicy.NO, null, 30, ServerOptions.DEFAULT_MAX_CLIENTS);
                Resp resp = new Resp(server.port)) {
            long started = Long.parseLong(resp.send(Resp.command("LASTSAVE")).reply().substring(1));
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "s", "x")).reply());
            TimeUnit.MILLISECONDS.sleep(1_100); // LASTSAVE counts whole seconds
            assertEquals("+OK", resp.send(Resp.command("SAVE")).reply());
            long saved = Long.parseLong(resp.send(Resp.command("LASTSAVE")).reply().substring(1));
            assertTrue(saved > started, "LASTSAVE moved from the start (" + started + ") to the SAVE (" + saved + ")");
            try (MembershipFilter filter = MembershipFilter.open(own.resolve("s.bloom"), OpenMode.READ_ONLY,
                    Clock.systemUTC())) {
                assertTrue(filter.mightContain("x"));
                assertEquals(1, filter.approximateKeys(), "SAVE published the insertion count with the cells");
            }
            assertEquals(":1", resp.send(Resp.command("BF.ADD", "s", "y")).reply());
            assertEquals("+Background saving started", resp.send(Resp.command("BGSAVE")).reply());
            String persistence = "";
            for (int i = 0; i < 600 && !persistence.contains("rdb_bgsave_in_progress:0"); i++) {
                TimeUnit.MILLISECONDS.sleep(100);
                persistence = resp.send(Resp.command("INFO", "persistence")).bulk();
            }
            assertTrue(persistence.contains("rdb_bgsave_in_progress:0"), persistence);
            assertTrue(persistence.contains("rdb_last_save_time:"), persistence);
            assertEquals("-ERR syntax error", resp.send(Resp.command("BGSAVE", "NOW")).reply());
            server.stop();
        }
    }

    @Test
    void infoCommandstatsCountsCallsFailuresAndRejectionsPerCommand() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            assertEquals(":0", resp.send(Resp.command("BF.CARD", "stats")).reply());
            assertEquals(":0", resp.send(Resp.command("BF.CARD", "stats")).reply());
            assertEquals("-ERR wrong number of arguments for 'bf.card' command", resp.send(Resp.command("BF.CARD")).reply());
            assertEquals("-ERR not found", resp.send(Resp.command("BF.INFO", "stats")).reply());
            String stats = resp.send(Resp.command("INFO", "commandstats")).bulk();
            assertTrue(stats.startsWith("# Commandstats\r\n"), stats);
            assertTrue(stats.matches("(?s).*\r\ncmdstat_bf\\.card:calls=2,usec=\\d+,usec_per_call=\\d+\\.\\d\\d,"
                    + "rejected_calls=1,failed_calls=0\r\n.*"), stats);
            assertTrue(stats.matches("(?s).*\r\ncmdstat_bf\\.info:calls=1,usec=\\d+,usec_per_call=\\d+\\.\\d\\d,"
                    + "rejected_calls=0,failed_calls=1\r\n.*"), stats);
            assertFalse(resp.send(Resp.command("INFO")).bulk().contains("cmdstat_"), "as Redis: not in the default INFO");
            assertTrue(resp.send(Resp.command("INFO", "all")).bulk().contains("cmdstat_bf.card:"));
        }
    }

    @Test
    void aCallIsTimedOnceInSixtyFourOnAverage() {
        CommandStats.Sampler sampler = new CommandStats.Sampler(42);
        int calls = 640_000;
        int timed = 0;
        for (int i = 0; i < calls; i++) {
            timed += sampler.sample() ? 1 : 0;
        }
        // countdowns uniform on 1..127: mean 64, standard deviation 36.7, so over 10,000 samples the
        // mean countdown is within 64 +- 1.5 (4 standard errors of 0.37) whatever the seed
        assertTrue(Math.abs((double) calls / timed - CommandStats.SAMPLE_ONE_IN) < 1.5, "one call timed in " + (double) calls / timed);
    }

    @Test
    void aServerWithoutReplicasSaysSoToWaitRoleAndInfo() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            assertEquals(":0", resp.send(Resp.command("WAIT", "1", "0")).reply(), "no replica: 0 at once, never blocked");
            assertEquals("-ERR timeout is negative", resp.send(Resp.command("WAIT", "1", "-1")).reply());
            assertEquals("*3 $6 master :0 *0", resp.send(Resp.command("ROLE")).reply());
            String replication = resp.send(Resp.command("INFO", "replication")).bulk();
            assertTrue(replication.contains("role:master") && replication.contains("connected_slaves:0"), replication);
        }
    }
}
