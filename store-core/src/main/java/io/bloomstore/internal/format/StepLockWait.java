package io.bloomstore.internal.format;

import io.bloomstore.internal.format.ContainerState.Owner;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One bounded wait for a growing or windowed file's step lock while a live process holds it.
 *
 * <p>The lock cannot be taken from a live owner, even a stopped one: a process stopped in the middle
 * of zeroing a slot or writing a segment goes on writing when it is resumed, with plain stores and
 * writes no lock word can fence, over whatever another process put there meanwhile (a slot reused
 * for a newer epoch, a segment already taking keys), and acknowledged keys would be lost. So a
 * waiter gives up instead, and says which process holds the lock and what to do: after
 * {@link #STOPPED_LIMIT_NANOS} of seeing the owner stopped (it does nothing until resumed), or after
 * {@link #RUNNING_LIMIT_NANOS} in all (far longer than writing a segment or clearing a window's
 * slots takes, even on a loaded disk).
 */
public final class StepLockWait {
    /** How long a waiter lets a running owner hold the lock. */
    public static final long RUNNING_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** How long a waiter lets an owner it sees stopped hold the lock: time for a shell's {@code bg}. */
    public static final long STOPPED_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** Pauses spent spinning before sleeping: most steps end within them. */
    private static final int SPINS = 128;
    private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How often a sleeping waiter asks what the owner is doing (a read of /proc). */
    private static final long LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Path path;
    private final String step;
    private final long runningLimit;
    private final long stoppedLimit;
    private final long start = System.nanoTime();
    private long lastLook = start;
    private long stoppedSince = -1;
    private int pauses;

    /**
     * A wait starting now.
     *
     * @param path the file, for the message
     * @param step what the owner does under the lock, for the message ("growing it")
     */
    public StepLockWait(Path path, String step) {
        this(path, step, RUNNING_LIMIT_NANOS, STOPPED_LIMIT_NANOS);
    }

    StepLockWait(Path path, String step, long runningLimit, long stoppedLimit) {
        this.path = path;
        this.step = step;
        this.runningLimit = runningLimit;
        this.stoppedLimit = stoppedLimit;
    }

    /**
     * Waits a little while the process stamped {@code owner} holds the lock, then returns for the
     * caller to look again; 0 (freed meanwhile) returns at once.
     *
     * @throws StepLockHeldException once the owner has held it too long
     */
    public void pause(long owner) throws StepLockHeldException {
        if (owner == 0) {
            return;
        }
        if (++pauses <= SPINS) {
            Thread.onSpinWait();
            return;
        }
        long now = System.nanoTime();
        if (now - lastLook >= LOOK_NANOS || now - start >= runningLimit) {
            lastLook = now;
            Owner state = ContainerState.ownerState(owner);
            stoppedSince = state != Owner.STOPPED ? -1 : stoppedSince >= 0 ? stoppedSince : now;
            if (stoppedSince >= 0 && now - stoppedSince >= stoppedLimit || now - start >= runningLimit) {
                throw held(owner, state, now - start);
            }
        }
        LockSupport.parkNanos(SLEEP_NANOS);
    }

    private StepLockHeldException held(long owner, Owner state, long waited) {
        long pid = ContainerState.pidOf(owner);
        String advice = "a step it leaves half done is finished by the next writer; then try again";
        if (state == Owner.STOPPED) {
            return new StepLockHeldException(path + ": process " + pid + " holds the file's step lock (" + step
                    + ") and is stopped (as Ctrl-Z leaves it); resume it (kill -CONT " + pid + ") or end it (kill -KILL "
                    + pid + "): " + advice);
        }
        return new StepLockHeldException(path + ": process " + pid + " has held the file's step lock (" + step + ") for "
                + TimeUnit.NANOSECONDS.toSeconds(waited) + " s and is still running; wait for it, or if it hangs end it"
                + " (kill " + pid + "): " + advice);
    }
}
