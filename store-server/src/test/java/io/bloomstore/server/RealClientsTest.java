package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.bloom.BFInsertParams;
import redis.clients.jedis.bloom.BFReserveParams;

/**
 * The server in its own process, driven by the clients Redis users have: redis-cli, redis-py's
 * {@code bf()} and Jedis. Every test uses keys of its own on one server, started once.
 */
class RealClientsTest extends OneServerTests {
    private static String redisCli(String... args) throws IOException, InterruptedException {
        return server.redisCli(args);
    }

    @Test
    void redisCliAddsQueriesAndReadsRedisBloomsReplies() throws Exception {
        DebianPackages.requireRedisCli();
        assertEquals("PONG", redisCli("PING"));
        assertEquals("1", redisCli("BF.ADD", "cli", "a"));
        assertEquals("0", redisCli("BF.ADD", "cli", "a"));
        assertEquals("1", redisCli("BF.EXISTS", "cli", "a"));
        assertEquals("0", redisCli("BF.EXISTS", "cli", "b"));
        assertEquals("0\n1\n1", redisCli("BF.MADD", "cli", "a", "b", "c"));
        assertEquals("1\n0", redisCli("BF.MEXISTS", "cli", "c", "d"));
        assertEquals("Capacity\n100\nSize\n12288\nNumber of filters\n1\nNumber of items inserted\n3\nExpansion rate\n2",
                redisCli("BF.INFO", "cli"));
        assertEquals("3", redisCli("BF.CARD", "cli"));
        assertEquals("ERR not found", redisCli("BF.INFO", "nokey"));
        assertEquals("ERR item exists", redisCli("BF.RESERVE", "cli", "0.01", "100"));
        assertEquals("ERR wrong number of arguments for 'bf.add' command", redisCli("BF.ADD", "cli"));
        assertEquals("ERR unknown command 'NOPE', with args beginning with: 'x'", redisCli("NOPE", "x"));
        assertEquals("ERR bad error rate", redisCli("BF.RESERVE", "r", "x", "100"));
        assertEquals("ERR (0 < error rate range < 1)", redisCli("BF.RESERVE", "r", "1.5", "100"));
        assertEquals("ERR bad capacity", redisCli("BF.RESERVE", "r", "0.01", "x"));
        assertEquals("ERR (capacity should be larger than 0)", redisCli("BF.RESERVE", "r", "0.01", "0"));
        assertEquals("Nonscaling filters cannot expand", redisCli("BF.RESERVE", "r", "0.01", "10", "NONSCALING", "EXPANSION", "2"));
        assertEquals("OK", redisCli("BF.RESERVE", "fixed", "0.01", "2", "NONSCALING"));
        assertEquals("1\n1\nERR non scaling filter is full", redisCli("BF.MADD", "fixed", "x", "y", "z", "w"));
        assertEquals("MBbloom--", redisCli("TYPE", "cli"));
        assertEquals("none", redisCli("TYPE", "nokey"));
        assertTrue(redisCli("INFO").contains("redis_version:"));
        assertTrue(redisCli("-3", "HELLO", "3").contains("proto 3"));
        assertTrue(Files.exists(dir.resolve("cli.bloom")));
        assertTrue(Files.exists(dir.resolve("fixed.bloom")));
    }

    /**
     * After {@code HELLO 3} the replies are RedisBloom 2.4.23's on Redis 7.0, type for type (each
     * expected reply was read from that server, only the file's size and the module's path differ):
     * integers, not booleans; {@code BF.INFO} an array, one field an array of one; a missing
     * expansion RESP3's null; {@code CONFIG GET} a map, {@code COMMAND INFO}'s parts sets.
     */
    @Test
    void resp3RepliesAreRedisBloomsTypeForType() throws IOException {
        try (Resp resp = new Resp(server.port)) {
            assertTrue(resp.send(Resp.command("HELLO", "3")).reply().startsWith(
                    "%8 $6 server $5 redis $7 version $6 7.0.15 $5 proto :3 $2 id :"), "HELLO 3 is a map");
            assertEquals(":1", resp3(resp, "BF.ADD", "r3", "a"));
            assertEquals(":0", resp3(resp, "BF.ADD", "r3", "a"));
            assertEquals("*2 :0 :1", resp3(resp, "BF.MADD", "r3", "a", "b"));
            assertEquals(":1", resp3(resp, "BF.EXISTS", "r3", "b"));
            assertEquals(":0", resp3(resp, "BF.EXISTS", "nokey", "b"));
            assertEquals("*2 :1 :0", resp3(resp, "BF.MEXISTS", "r3", "a", "zz"));
            assertEquals(":2", resp3(resp, "BF.CARD", "r3"));
            assertEquals("*10 +Capacity :100 +Size :" + Files.size(dir.resolve("r3.bloom"))
                    + " +Number of filters :1 +Number of items inserted :2 +Expansion rate :2", resp3(resp, "BF.INFO", "r3"));
            assertEquals("*1 :2", resp3(resp, "BF.INFO", "r3", "ITEMS"));
            assertEquals("*1 :100", resp3(resp, "BF.INFO", "r3", "CAPACITY"));
            assertEquals("+OK", resp3(resp, "BF.RESERVE", "r3fixed", "0.01", "2", "NONSCALING"));
            assertEquals("*1 _", resp3(resp, "BF.INFO", "r3fixed", "EXPANSION"));
            assertTrue(resp3(resp, "BF.INFO", "r3fixed").endsWith(" +Expansion rate _"));
            assertEquals("*3 :1 :1 -ERR non scaling filter is full", resp3(resp, "BF.MADD", "r3fixed", "x", "y", "z"));
            assertEquals("-ERR not found", resp3(resp, "BF.INFO", "nokey"));
            assertEquals("*2 :0 :1", resp3(resp, "BF.INSERT", "r3", "ITEMS", "a", "c"));
            assertEquals("%1 $10 maxclients $5 10000", resp3(resp, "CONFIG", "GET", "maxclients"));
            assertEquals("*1 %4 $4 name $2 bf $3 ver :20423 $4 path $10 bloomstore $4 args *0", resp3(resp, "MODULE", "LIST"));
            assertEquals("*1 *10 $6 bf.add :3 ~2 +write +denyoom :1 :1 :1 ~0 ~0 ~0 ~0",
                    resp3(resp, "COMMAND", "INFO", "bf.add"));
            assertEquals("+MBbloom--", resp3(resp, "TYPE", "r3"));
            assertEquals(":1", resp3(resp, "EXISTS", "r3"));
        }
    }

    private static String resp3(Resp resp, String... words) throws IOException {
        return resp.send(Resp.command(words)).reply();
    }

    /** redis-cli -3 prints what it prints for RedisBloom 2.4.23 (read from that server). */
    @Test
    void redisCliInResp3PrintsWhatItPrintsForRedisBloom() throws Exception {
        DebianPackages.requireRedisCli();
        redisCli("BF.MADD", "cli3", "a", "b");
        assertEquals("(integer) 1", redisCli("-3", "--no-raw", "BF.ADD", "cli3", "c"));
        assertEquals("1) (integer) 0\n2) (integer) 1", redisCli("-3", "--no-raw", "BF.MADD", "cli3", "a", "d"));
        assertEquals("1) (integer) 1\n2) (integer) 0", redisCli("-3", "--no-raw", "BF.MEXISTS", "cli3", "a", "zz"));
        assertEquals("1) (integer) 4", redisCli("-3", "--no-raw", "BF.INFO", "cli3", "ITEMS"));
        assertEquals("1) (integer) 100", redisCli("-3", "--no-raw", "BF.INFO", "cli3", "CAPACITY"));
        assertEquals("1) (integer) 100", redisCli("--no-raw", "BF.INFO", "cli3", "CAPACITY"), "the same in RESP2");
        assertTrue(redisCli("-3", "--no-raw", "BF.INFO", "cli3").startsWith("1) Capacity\n 2) (integer) 100\n 3) Size\n"), "strip() took the first line's indent");
        assertEquals("1# \"maxclients\" => \"10000\"", redisCli("-3", "--no-raw", "CONFIG", "GET", "maxclients"));
        assertTrue(redisCli("-3", "--no-raw", "HELLO", "3").contains("3# \"proto\" => (integer) 3"));
    }

    @Test
    void redisPyBfCommandsWorkIncludingADumpAndRestore() throws Exception {
        DebianPackages.requireRedisPy();
        String script = String.join("\n",
                "import redis, sys",
                "r = redis.Redis(port=int(sys.argv[1]))",
                "bf = r.bf()",
                "assert bf.create('py', 0.001, 1000) == True",
                "assert bf.add('py', 'a') == 1",
                "assert bf.add('py', 'a') == 0",
                "assert bf.madd('py', 'b', 'c') == [1, 1]",
                "assert bf.exists('py', 'b') == 1",
                "assert bf.mexists('py', 'a', 'zz') == [1, 0]",
                "info = bf.info('py')",
                "assert (info.capacity, info.insertedNum, info.filterNum, info.expansionRate) == (1000, 3, 1, 2), info.__dict__",
                "assert bf.insert('ins', ['x', 'y'], capacity=50, error=0.1, expansion=4) == [1, 1]",
                "assert bf.info('ins').expansionRate == 4",
                "chunks, it = [], 0",
                "while True:",
                "    it, data = bf.scandump('py', it)",
                "    if it == 0: break",
                "    chunks.append((it, data))",
                "for it, data in chunks: bf.loadchunk('copy', it, data)",
                "assert bf.mexists('copy', 'a', 'b', 'c', 'nope') == [1, 1, 1, 0]",
                "assert r.exists('py', 'copy', 'nokey') == 2",
                "assert sorted(r.keys('*')) == [b'copy', b'ins', b'py'] or len(r.keys('*')) >= 3",
                "assert r.delete('ins') == 1 and r.exists('ins') == 0",
                "tx = r.pipeline()  # transaction=True, redis-py's default: MULTI ... EXEC",
                "tx.bf().add('pytx', 'a')",
                "tx.bf().madd('pytx', 'a', 'b')",
                "tx.bf().exists('pytx', 'b')",
                "assert tx.execute() == [1, [0, 1], 1]",
                "print('ok')");
        Process process = new ProcessBuilder(DebianPackages.PYTHON, "-c", script, Integer.toString(server.port))
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals("ok", out.strip(), out);
        assertFalse(Files.exists(dir.resolve("ins.bloom")), "DEL deletes the file");
    }

    /** Jedis over RESP3 reads the replies as it reads RedisBloom's: booleans from integers, BF.INFO a map. */
    @Test
    void jedisInResp3ReadsTheRepliesAsFromRedisBloom() {
        try (RedisClient jedis = client(RedisProtocol.RESP3)) {
            assertTrue(jedis.bfAdd("jedis3", "a"));
            assertFalse(jedis.bfAdd("jedis3", "a"));
            assertEquals(List.of(true, false), jedis.bfMExists("jedis3", "a", "b"));
            assertEquals(List.of(true, false), jedis.bfMAdd("jedis3", "b", "a"));
            Map<String, Object> info = jedis.bfInfo("jedis3");
            assertEquals(100L, info.get("Capacity"));
            assertEquals(2L, info.get("Number of items inserted"));
            assertEquals(2L, info.get("Expansion rate"));
            assertEquals(2L, jedis.bfCard("jedis3"));
            assertEquals(Map.of("maxclients", "10000"), jedis.configGet("maxclients"));
        }
    }

    /** A Jedis client with a timeout a loaded machine stays within (its default is 2 s). */
    private static RedisClient client(RedisProtocol protocol) {
        return RedisClient.builder().hostAndPort("127.0.0.1", server.port).clientConfig(DefaultJedisClientConfig.builder()
                .protocol(protocol).socketTimeoutMillis(120_000).build()).build();
    }

    @Test
    void jedisBloomCallsPipelinesAndManyConnectionsAtOnce() throws Exception {
        try (RedisClient jedis = client(RedisProtocol.RESP2)) {
            assertTrue(jedis.bfAdd("jedis", "a"));
            assertFalse(jedis.bfAdd("jedis", "a"));
            assertTrue(jedis.bfExists("jedis", "a"));
            assertFalse(jedis.bfExists("jedis", "b"));
            assertEquals(List.of(true, false), jedis.bfMAdd("jedis", "b", "a"));
            assertEquals(List.of(true, true, false), jedis.bfMExists("jedis", "a", "b", "c"));
            Map<String, Object> info = jedis.bfInfo("jedis");
            assertEquals(100L, info.get("Capacity"));
            assertEquals(2L, info.get("Number of items inserted"));
            assertEquals("OK", jedis.bfReserve("big", 0.001, 10_000, BFReserveParams.reserveParams().expansion(4)));
            assertEquals(List.of(true, true), jedis.bfInsert("big", BFInsertParams.insertParams().noCreate(), "x", "y"));
            assertEquals(2L, jedis.bfCard("big"));
            try (AbstractTransaction transaction = jedis.multi()) {
                Response<Boolean> added = transaction.bfAdd("jedistx", "a");
                Response<List<Boolean>> exists = transaction.bfMExists("jedistx", "a", "b");
                assertEquals(2, transaction.exec().size());
                assertTrue(added.get());
                assertEquals(List.of(true, false), exists.get());
            }
        }
        // many connections on every event loop at once, each pipelining; every key of every one is found after
        int clients = 8;
        int perClient = 2_000;
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            running.add(CompletableFuture.runAsync(() -> {
                try (RedisClient jedis = client(RedisProtocol.RESP2);
                        Pipeline pipeline = (Pipeline) jedis.pipelined()) {
                    for (int i = 0; i < perClient; i++) {
                        pipeline.bfAdd("shared", client + ":" + i);
                        pipeline.sendCommand(Protocol.Command.ECHO, "order " + i);
                    }
                    List<Object> all = pipeline.syncAndReturnAll();
                    for (int i = 0; i < perClient; i++) {
                        assertTrue(all.get(2 * i) instanceof Boolean, "BF.ADD's reply, in its place: " + all.get(2 * i));
                        assertEquals("order " + i, new String((byte[]) all.get(2 * i + 1), StandardCharsets.UTF_8),
                                "replies come in the order of the requests");
                    }
                }
            }));
        }
        CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        try (MembershipFilter shared = MembershipFilter.open(dir.resolve("shared.bloom"), OpenMode.READ_ONLY,
                Clock.systemUTC())) {
            for (int c = 0; c < clients; c++) {
                for (int i = 0; i < perClient; i++) {
                    assertTrue(shared.mightContain(c + ":" + i), "key " + c + ":" + i + " is in the file");
                }
            }
        }
        try (RedisClient jedis = client(RedisProtocol.RESP3)) {
            assertTrue(jedis.bfExists("shared", "0:0"), "a RESP3 connection (HELLO 3) is served too");
        }
    }
}
