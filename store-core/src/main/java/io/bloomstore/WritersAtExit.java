package io.bloomstore;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The fixed filters this JVM has open for writing, whose writer count a shutdown hook gives back
 * when the process ends without closing them (SIGTERM, Ctrl-C, {@code System.exit}): the count in
 * the file is what tells other processes and {@code inspect} who still writes, and it must not stay
 * raised after a clean end. Only a kill -9 or a crash leaves it raised (docs/FORMAT.md: advisory).
 *
 * <p>The hook only publishes each handle's insertion count and lowers the writer count, under the
 * handle's lock; it never unmaps, since other threads run on while shutdown hooks do and may still
 * be adding through the mapping.
 */
final class WritersAtExit {
    /**
     * Weakly held: a handle its program dropped without closing is still collected (and its mapping
     * with it), as it would be without this registry; its count then stays raised, as after a crash.
     */
    private static final Set<BloomFilter> OPEN =
            Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    /** Set by the hook before it releases: a handle registered after it looked releases itself. */
    private static volatile boolean shuttingDown;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            shuttingDown = true;
            List<BloomFilter> open;
            synchronized (OPEN) {
                open = new ArrayList<>(OPEN); // iterated outside the lock: releasing takes each handle's lock
            }
            open.forEach(BloomFilter::releaseWriter);
        }, "bloomstore-open-writers"));
    }

    private WritersAtExit() {
    }

    /** Registers a handle just opened for writing (its writer count raised). */
    static void register(BloomFilter writer) {
        OPEN.add(writer);
        if (shuttingDown) {
            writer.releaseWriter();
        }
    }

    /** Forgets a handle being closed. */
    static void unregister(BloomFilter writer) {
        OPEN.remove(writer);
    }
}
