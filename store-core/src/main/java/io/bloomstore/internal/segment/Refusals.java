package io.bloomstore.internal.segment;

import io.bloomstore.internal.format.StepLockHeldException;
import java.io.IOException;

/**
 * The exceptions with which a protocol refuses an add, before it changed anything, as the public
 * API names them: given by the handle that opens the protocol.
 */
public interface Refusals {
    /** A live process has held the step lock for longer than a growth or rotation takes. */
    RuntimeException busy(StepLockHeldException held);

    /** The chain cannot grow: its max size, its table or the disk refused the next segment. */
    RuntimeException full(IOException refusal);

    /** {@link #busy} or {@link #full}, as {@code refusal} says. */
    default RuntimeException of(IOException refusal) {
        return refusal instanceof StepLockHeldException held ? busy(held) : full(refusal);
    }
}
