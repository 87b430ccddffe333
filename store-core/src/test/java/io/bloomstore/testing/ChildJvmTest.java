package io.bloomstore.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The child-process helper itself: the conversation, the failure report, the inherited flags. */
class ChildJvmTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** Echoes its stdin, upper-cased, then fails with a message on stderr when asked to. */
    public static final class EchoChild {
        public static void main(String[] args) throws Exception {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals("fail")) {
                    System.err.println("child failing on purpose");
                    System.exit(3);
                }
                System.out.println(line.toUpperCase(Locale.ROOT));
                System.out.flush();
            }
        }
    }

    @Test
    void talksLineByLineAndExitsCleanly() throws Exception {
        try (ChildJvm child = ChildJvm.start(EchoChild.class)) {
            child.send("ping");
            child.expectLine("PING", TIMEOUT);
            child.awaitSuccess(TIMEOUT);
        }
    }

    @Test
    void aFailingChildIsReportedWithItsStderr() throws Exception {
        try (ChildJvm child = ChildJvm.start(EchoChild.class)) {
            child.send("fail");
            AssertionError ended = assertThrows(AssertionError.class, () -> child.readLine(TIMEOUT));
            assertTrue(ended.getMessage().contains("exit status 3"), ended.getMessage());
            assertTrue(ended.getMessage().contains("child failing on purpose"), ended.getMessage());
        }
    }

    @Test
    void childrenGetTheFlagsThatMappingNeeds() {
        assertEquals(2, ChildJvm.inheritedFlags().stream().filter(f -> f.startsWith("--add-exports")).count(),
                "surefire's argLine exports sun.nio.ch and jdk.internal.ref: " + ChildJvm.inheritedFlags());
    }
}
