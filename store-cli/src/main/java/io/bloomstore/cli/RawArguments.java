package io.bloomstore.cli;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes of the command-line arguments exactly as the shell passed them.
 *
 * <p>The JVM decodes {@code argv} with the locale's charset ({@code sun.jnu.encoding}): under the
 * POSIX locale of many containers "café" arrives as "caf\uFFFD\uFFFD", and invalid UTF-8 arrives
 * as U+FFFD under any locale. Hashing those strings would make a key typed on the command line
 * differ from the same bytes read from a file. On Linux {@code /proc/self/cmdline} holds the
 * original bytes; main's arguments are its last entries. They are used only when every one of
 * them decodes back to the String the JVM gave, so a mismatch (another OS, an unusual launcher)
 * falls back to the UTF-8 of the String, which is right whenever the locale is UTF-8 and the bytes
 * are valid UTF-8.
 */
final class RawArguments {
    private final Map<String, byte[]> bytesByArgument;

    private RawArguments(Map<String, byte[]> bytesByArgument) {
        this.bytesByArgument = bytesByArgument;
    }

    /** No raw bytes known: every argument is taken as its UTF-8. */
    static RawArguments none() {
        return new RawArguments(Map.of());
    }

    /** The raw bytes of {@code args}, main's own array (the String instances are the keys). */
    static RawArguments of(String[] args) {
        try {
            return matching(args, Files.readAllBytes(Path.of("/proc/self/cmdline")), jvmArgumentCharset());
        } catch (IOException | RuntimeException e) {
            return none();
        }
    }

    /** Pairs {@code args} with the last {@code args.length} NUL-terminated entries of {@code cmdline}. */
    static RawArguments matching(String[] args, byte[] cmdline, Charset decodedWith) {
        List<byte[]> entries = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < cmdline.length; i++) {
            if (cmdline[i] == 0) {
                entries.add(Arrays.copyOfRange(cmdline, start, i));
                start = i + 1;
            }
        }
        if (entries.size() < args.length) {
            return none();
        }
        Map<String, byte[]> map = new IdentityHashMap<>();
        int first = entries.size() - args.length;
        for (int i = 0; i < args.length; i++) {
            byte[] raw = entries.get(first + i);
            if (!new String(raw, decodedWith).equals(args[i])) {
                return none();
            }
            map.put(args[i], raw);
        }
        return new RawArguments(map);
    }

    /**
     * The bytes of {@code argument}: the original ones if it is one of main's arguments (same
     * instance), else its UTF-8.
     */
    byte[] bytesOf(String argument) {
        byte[] raw = bytesByArgument.get(argument);
        return raw != null ? raw : argument.getBytes(StandardCharsets.UTF_8);
    }

    private static Charset jvmArgumentCharset() {
        String name = System.getProperty("sun.jnu.encoding");
        return name != null && Charset.isSupported(name) ? Charset.forName(name) : Charset.defaultCharset();
    }
}
