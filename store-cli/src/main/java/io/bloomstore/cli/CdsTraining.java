package io.bloomstore.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The workload a class-data sharing archive is made from: every verb once, in one JVM, on small
 * files in a scratch folder, with all output discarded. Run by the build and by bin/bloomstore as
 * {@code java -XX:DumpLoadedClassList=L -Dbloomstore.cds.training=DIR -jar bloomstore.jar}; the
 * classes listed in L are then dumped into a static archive A ({@code java -Xshare:dump
 * -XX:SharedClassListFile=L -XX:SharedArchiveFile=A -cp bloomstore.jar}), and later runs with
 * {@code -XX:SharedArchiveFile=A} find the classes of whatever verb they run already parsed,
 * verified and laid out in memory. Why the CLI has an archive: this package's package-info.
 */
final class CdsTraining {
    /** The system property that turns a run of the jar into a training run in the folder it names. */
    static final String PROPERTY = "bloomstore.cds.training";

    /** The workload; every command succeeds but the last three, which are mistakes on purpose (CdsTrainingTest). */
    static final String[][] COMMANDS = {
        {"--version"},
        {"--help"},
        {"contains", "--help"},
        {"create", "plain.bloom", "--expected", "2k", "--fpp", "0.01"},
        {"create", "counting.bloom", "--cells", "65536", "--hashes", "5", "--counter-bits", "4", "--layout", "blocked"},
        {"size", "--expected", "2k", "--fpp", "0.01"},
        {"add", "plain.bloom", "alice", "bob", "--from", "keys.txt", "--sync"},
        {"contains", "plain.bloom", "alice", "carol"},
        {"contains", "plain.bloom", "--from", "keys.txt", "--print", "absent"},
        {"contains", "-q", "plain.bloom", "alice"},
        {"count", "plain.bloom", "alice"},
        {"add", "counting.bloom", "alice", "alice"},
        {"remove", "counting.bloom", "alice"},
        {"dedup", "seen.bloom", "--expected", "2k", "--fpp", "0.01"},
        {"build", "built.bloom", "--from", "keys.txt", "--fpp", "0.01", "--progress", "always"},
        // sized for the 2,000 keys of keys.txt, as built.bloom is: the two must combine for merge and estimate
        {"build", "sized.bloom", "--from", "keys.txt", "--expected", "2k", "--fpp", "0.01"},
        {"merge", "merged.bloom", "built.bloom", "sized.bloom", "--op", "or"},
        {"inspect", "merged.bloom"},
        {"inspect", "merged.bloom", "--json"},
        {"estimate", "built.bloom", "sized.bloom"},
        {"estimate", "built.bloom", "sized.bloom", "--json"},
        {"verify", "merged.bloom"},
        {"pack", "merged.bloom", "merged.pack"},
        {"unpack", "merged.pack", "unpacked.bloom"},
        {"checkpoint", "plain.bloom", "plain-copy.bloom"},
        {"add", "plain.bloom", "dave"},
        {"checkpoint", "plain.bloom", "plain-copy.bloom"},
        {"contains", "missing.bloom", "alice"},
        {"create", "bad.bloom", "--expected", "-1", "--fpp", "0.01"},
        {"create", "bad.bloom", "--no-such-option"},
    };

    private CdsTraining() {
    }

    /** Runs the workload in {@code scratch}, which it creates and deletes; returns each command's exit status. */
    static List<Integer> run(Path scratch) throws IOException {
        Terminals.isTerminal(Terminals.STDERR);
        Files.createDirectories(scratch);
        Path folder = Files.createTempDirectory(scratch, "training");
        try {
            StringBuilder keys = new StringBuilder();
            for (int i = 0; i < 2_000; i++) {
                keys.append("key-").append(i).append(i % 7 == 0 ? "\r\n" : "\n");
            }
            byte[] lines = keys.toString().getBytes(StandardCharsets.UTF_8);
            Files.write(folder.resolve("keys.txt"), lines);
            PrintStream discard = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
            List<Integer> exits = new ArrayList<>();
            for (String[] command : COMMANDS) {
                String[] args = inFolder(command, folder);
                InputStream stdin = new ByteArrayInputStream(lines);
                exits.add(BloomstoreCli.run(args, new CliStreams(stdin, OutputStream.nullOutputStream(), discard, false, false),
                        RawArguments.of(args)));
            }
            return exits;
        } finally {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /** The command with its file operands resolved in {@code folder}. */
    private static String[] inFolder(String[] command, Path folder) {
        String[] args = command.clone();
        for (int i = 0; i < args.length; i++) {
            if (args[i].endsWith(".bloom") || args[i].endsWith(".txt") || args[i].endsWith(".pack")) {
                args[i] = folder.resolve(args[i]).toString();
            }
        }
        return args;
    }
}
