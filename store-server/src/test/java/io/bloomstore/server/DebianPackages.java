package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real Redis clients the tests talk to the server with (redis-cli from {@code redis-tools},
 * redis-py from {@code python3-redis}): installed with apt-get when missing and the tests run as
 * root (as in CI, where .ci/run installs them first); otherwise the test is skipped with a message
 * saying what to install, except under CI, where a missing client fails the test.
 */
final class DebianPackages {
    /** Debian's own Python, which python3-redis installs into (a python3 earlier on PATH may not see it). */
    static final String PYTHON = "/usr/bin/python3";

    private DebianPackages() {
    }

    static void requireRedisCli() {
        require(Files.isExecutable(Path.of("/usr/bin/redis-cli")), "redis-tools");
    }

    static void requireRedisPy() {
        require(run(List.of(PYTHON, "-c", "import redis")) == 0, "python3-redis");
    }

    private static void require(boolean present, String pkg) {
        if (present) {
            return;
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        if (!root) {
            String message = "the Debian package " + pkg + " is not installed and this test is not root:"
                    + " apt-get install -y " + pkg;
            assertTrue(System.getenv("CI") == null, message);
            System.err.println("SKIPPED: " + message);
            Assumptions.abort(message);
        }
        int updated = run(List.of("apt-get", "update", "-qq"));
        int installed = run(List.of("apt-get", "install", "-y", "-qq", pkg));
        assertEquals(0, installed, "apt-get install -y " + pkg + " failed (apt-get update: " + updated + ")");
    }

    static int run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
