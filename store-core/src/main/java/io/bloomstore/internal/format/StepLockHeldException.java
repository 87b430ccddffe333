package io.bloomstore.internal.format;

import java.io.IOException;

/**
 * A growing or windowed file's step lock held by a live process for longer than a step takes
 * ({@link StepLockWait}): the message names the file, the process, whether it is stopped, and what
 * to do. Nothing was changed by the operation that gave up.
 */
public final class StepLockHeldException extends IOException {
    private static final long serialVersionUID = 1L;

    StepLockHeldException(String message) {
        super(message);
    }
}
