package io.bloomstore.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What Linux says about this process's memory mappings (/proc/self/maps and /proc/self/smaps),
 * to check what a file mapping really does: whether it is still mapped, whether its pages are
 * dirty.
 */
public final class ProcSelf {
    private static final Path MAPS = Path.of("/proc/self/maps");
    private static final Path SMAPS = Path.of("/proc/self/smaps");

    private ProcSelf() {
    }

    /** The lines of /proc/self/maps that map {@code file} (compared by its real path). */
    public static List<String> mappingsOf(Path file) throws IOException {
        String name = file.toRealPath().toString();
        return Files.readAllLines(MAPS).stream().filter(line -> mapsFile(line, name)).toList();
    }

    /**
     * Kilobytes of {@code file}'s mappings in this process whose pages are dirty, i.e. changed in
     * memory and not yet written to the file's storage (smaps' Shared_Dirty + Private_Dirty).
     * msync(MS_SYNC) writes them back and cleans them, so after a real sync this is 0.
     */
    public static long dirtyKilobytesOf(Path file) throws IOException {
        String name = file.toRealPath().toString();
        long dirty = 0;
        boolean inFileMapping = false;
        for (String line : Files.readAllLines(SMAPS)) {
            if (isMappingHeader(line)) {
                inFileMapping = mapsFile(line, name);
            } else if (inFileMapping && (line.startsWith("Shared_Dirty:") || line.startsWith("Private_Dirty:"))) {
                dirty += Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return dirty;
    }

    /** Whether an smaps line opens a mapping ("start-end perms offset dev inode [path]"). */
    private static boolean isMappingHeader(String line) {
        int dash = line.indexOf('-');
        int space = line.indexOf(' ');
        return dash > 0 && space > dash && line.substring(0, dash).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    /** Whether a maps line's path (its last field, which may hold spaces) is {@code name}. */
    private static boolean mapsFile(String line, String name) {
        return line.endsWith(" " + name);
    }
}
