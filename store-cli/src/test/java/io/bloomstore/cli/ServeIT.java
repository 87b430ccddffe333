package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.server.Resp;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bloomstore serve} from the real jar, beside the CLI's own commands on the same files at
 * the same time: a key added through the server is found by {@code bloomstore contains}, and a key
 * {@code bloomstore add} writes is found through the server, while both run.
 */
class ServeIT {
    private static final Pattern START = Pattern.compile(
            "bloomstore serve: listening on 127\\.0\\.0\\.1:(\\d+), serving (.*) \\((\\d+) filter files?\\), sync everysec, (epoll|nio) transport");

    @TempDir
    Path dir;

    @Test
    void theServerAndTheCliShareLiveFilesBothWays() throws Exception {
        JarProcess.run(dir, "create", "made-by-cli.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
        Process server = JarProcess.start(dir, "serve", ".", "--port", "0");
        CompletableFuture<byte[]> err = JarProcess.readAll(server.getErrorStream());
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String start = out.readLine();
            Matcher matcher = START.matcher(start == null ? "" : start);
            assertTrue(matcher.matches(), "one start line: address, DIR, files found: " + start);
            assertEquals("1", matcher.group(3), start);
            int port = Integer.parseInt(matcher.group(1));
            try (Resp resp = new Resp(port)) {
                assertEquals(":1", resp.send(Resp.command("BF.ADD", "seen", "from-server")).line());
                JarProcess.Result found = JarProcess.run(dir, "contains", "seen.bloom", "from-server", "never-added");
                assertEquals(1, found.exit(), found.err());
                assertEquals("from-server\tpresent\nnever-added\tabsent\n", found.stdout());

                JarProcess.run(dir, "add", "seen.bloom", "from-cli").assertOk();
                assertEquals(":1", resp.send(Resp.command("BF.EXISTS", "seen", "from-cli")).line(),
                        "the server's open mapping sees the CLI's add at once");

                assertEquals(":0", resp.send(Resp.command("BF.EXISTS", "made-by-cli", "x")).line());
                assertEquals(":1", resp.send(Resp.command("BF.ADD", "made-by-cli", "x")).line());
                assertEquals("present", JarProcess.run(dir, "contains", "made-by-cli.bloom", "x").assertOk().stdout()
                        .strip().split("\t")[1]);
            }
            server.destroy(); // SIGTERM
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "SIGTERM stops the server");
            assertEquals("", new String(err.get(60, TimeUnit.SECONDS), StandardCharsets.UTF_8));
            String inspect = JarProcess.run(dir, "inspect", "made-by-cli.bloom").assertOk().stdout();
            assertTrue(inspect.matches("(?s).*open writers +0\n.*"), "SIGTERM closed the file cleanly:\n" + inspect);
        } finally {
            server.destroyForcibly();
        }
    }

    @Test
    void aBadOptionIsOneLineAndExitTwo() {
        JarProcess.run(dir, "serve", ".", "--sync", "sometimes", "--port", "0").assertError(ExitCode.ERROR);
        JarProcess.run(dir, "serve", "no-such-folder", "--port", "0").assertError(ExitCode.ERROR);
    }
}
