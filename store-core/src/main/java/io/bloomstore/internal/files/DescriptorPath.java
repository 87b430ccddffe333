package io.bloomstore.internal.files;

import java.io.FileDescriptor;
import java.lang.reflect.Field;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * The name under {@code /proc/self/fd} of the descriptor an open channel holds: on Linux, opening
 * or stat-ing it reaches the very file the channel is open on, whatever the directory entry it was
 * opened by names now (another file renamed over it, or nothing). So a file can be reached again
 * without a second lookup of its name in its directory, and its identity (device and inode) read
 * from the descriptor, to compare with what a name holds.
 *
 * <p>The JDK exposes no descriptor number; it is read from the channel's private
 * {@code FileDescriptor} through {@link UnsafeMemory}, as Chronicle reads the JDK's private
 * fields (no {@code --add-opens} is needed for that). Where that fails (another JDK's layout) or
 * there is no {@code /proc/self/fd} (not Linux), there is no such name.
 */
final class DescriptorPath {
    private static final Path FDS = Path.of("/proc/self/fd");

    private DescriptorPath() {
    }

    /** The descriptor's name, if this JVM and system have one for it. */
    static Optional<Path> of(FileChannel channel) {
        try {
            FileDescriptor descriptor = UnsafeMemory.unsafeGetObject(channel,
                    offset(channel.getClass(), "fd", FileDescriptor.class));
            int fd = UnsafeMemory.unsafeGetInt(descriptor, offset(FileDescriptor.class, "fd", int.class));
            Path path = FDS.resolve(Integer.toString(fd));
            return fd >= 0 && Files.isRegularFile(path) ? Optional.of(path) : Optional.empty();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError unknownLayout) {
            return Optional.empty();
        }
    }

    /** Where the private field {@code name} of {@code type} lies, if it is of {@code fieldType} (else this JDK's layout is unknown). */
    private static long offset(Class<?> type, String name, Class<?> fieldType) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        if (field.getType() != fieldType) {
            throw new NoSuchFieldException(type.getName() + "." + name + " is a " + field.getType());
        }
        return UnsafeMemory.unsafeObjectFieldOffset(field);
    }
}
