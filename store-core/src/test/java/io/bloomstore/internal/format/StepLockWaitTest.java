package io.bloomstore.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.internal.format.ContainerState.Owner;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bounded wait for a step lock held by a live process, against real processes (a
 * {@code sleep}): what it tells about a running, a stopped and an ended owner, and that it gives
 * up, naming the owner, rather than wait without end. The limits are shortened here; the waits of
 * growing and windowed files use the same code with {@link StepLockWait#RUNNING_LIMIT_NANOS}.
 */
class StepLockWaitTest {
    private static final Path FILE = Path.of("shared.bloom");
    private Process sleeper;

    @AfterEach
    void endSleeper() throws InterruptedException {
        if (sleeper != null) {
            sleeper.destroyForcibly().waitFor();
        }
    }

    @Test
    void aRunningOwnerIsWaitedForUpToTheLimitThenNamed() throws Exception {
        long owner = startSleeper();
        assertEquals(Owner.RUNNING, ContainerState.ownerState(owner));
        StepLockWait wait = new StepLockWait(FILE, "growing it", TimeUnit.MILLISECONDS.toNanos(300),
                TimeUnit.MILLISECONDS.toNanos(100));
        long start = System.nanoTime();
        StepLockHeldException held = assertThrows(StepLockHeldException.class, () -> pauseForever(wait, owner));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300), "it waited the limit first");
        assertTrue(held.getMessage().startsWith("shared.bloom: process " + sleeper.pid() + " has held the file's step lock"
                + " (growing it) for 0 s and is still running") && held.getMessage().contains("(kill " + sleeper.pid() + ")"),
                held.getMessage());
    }

    @Test
    void aStoppedOwnerIsNamedWithHowToResumeIt() throws Exception {
        long owner = startSleeper();
        signal("-STOP");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (ContainerState.ownerState(owner) != Owner.STOPPED) {
            assertTrue(System.nanoTime() < deadline, "the sleeper never showed as stopped");
            Thread.sleep(10);
        }
        StepLockWait wait = new StepLockWait(FILE, "rotating its window", TimeUnit.MINUTES.toNanos(10),
                TimeUnit.MILLISECONDS.toNanos(100));
        StepLockHeldException held = assertThrows(StepLockHeldException.class, () -> pauseForever(wait, owner));
        assertTrue(held.getMessage().contains("process " + sleeper.pid() + " holds the file's step lock (rotating its window)"
                + " and is stopped") && held.getMessage().contains("kill -CONT " + sleeper.pid()), held.getMessage());
        signal("-CONT");
        assertEquals(Owner.RUNNING, awaitState(owner, Owner.RUNNING));
    }

    @Test
    void anEndedOwnerIsGoneAndAFreeLockIsNone() throws Exception {
        long owner = startSleeper();
        sleeper.destroyForcibly().waitFor();
        assertEquals(Owner.GONE, ContainerState.ownerState(owner));
        assertTrue(!ContainerState.ownerAlive(owner));
        assertEquals(Owner.NONE, ContainerState.ownerState(0));
        assertEquals(Owner.RUNNING, ContainerState.ownerState(ContainerState.stampOfThisProcess()));
    }

    private long startSleeper() throws Exception {
        sleeper = new ProcessBuilder("sleep", "600").start();
        return ContainerState.stamp(sleeper.toHandle());
    }

    private void signal(String signal) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", signal, Long.toString(sleeper.pid())).start().waitFor());
    }

    private static Owner awaitState(long owner, Owner expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        Owner state;
        while ((state = ContainerState.ownerState(owner)) != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return state;
    }

    private static void pauseForever(StepLockWait wait, long owner) throws StepLockHeldException {
        while (true) {
            wait.pause(owner);
        }
    }
}
