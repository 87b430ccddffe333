package io.bloomstore.internal.segment;

import io.bloomstore.internal.format.StepLockHeldException;
import java.io.IOException;

/**
 * An add refused by a growth or rotation it could not do, before it changed anything: a live
 * process holds the step lock too long ({@link #busy()}), or the chain cannot grow (its max size,
 * its table, the disk). The public handles turn it into their own exceptions, with its message
 * and its cause, the refusal itself.
 */
public final class StepRefused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StepRefused(IOException refusal) {
        super(refusal.getMessage(), refusal);
    }

    /** Whether a live process holds the step lock (else the growth itself was refused). */
    public boolean busy() {
        return getCause() instanceof StepLockHeldException;
    }
}
