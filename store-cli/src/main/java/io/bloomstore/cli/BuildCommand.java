package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.BloomFilter;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.files.TemporaryFile;
import io.bloomstore.BloomSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** {@code bloomstore build}: a new, sealed filter from a file of keys. */
final class BuildCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Build a filter from keys, one per line: size it, fill it, seal it (record a checksum of its cells, "
                + "which 'verify' checks).",
        "Sized for --expected N keys at --fpp P; without --expected the lines are counted first (from stdin they "
                + "are spooled to a temporary file beside FILE to be counted, then deleted).",
        "FILE appears only when complete: a failed build leaves nothing. An existing FILE is kept unless --force."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore build words.bloom --from /usr/share/dict/words --fpp 0.001",
        "  zcat ids.gz | bloomstore build ids.bloom --from - --expected 50M --fpp 1e-4 --layout blocked",
        "  bloomstore build part-1.bloom --from part-1.txt --expected 1G --fpp 0.01   # then merge the parts"
    };

    private Path file;
    private final LineInput input;
    private final ShapeOptions shape;
    private boolean force;

    BuildCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file to build.").build());
        input = new LineInput().declareOn(command);
        shape = new ShapeOptions(command);
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace FILE if it exists (atomically, once the new filter is complete).").build());
    }

    @Override
    public Integer call() throws Exception {
        if (!input.isGiven()) {
            throw new IllegalArgumentException("build needs --from PATH (or --from - for stdin): the keys, one per line");
        }
        shape.spec(1L); // refuse bad options before reading any input (1: the count is not known yet)
        if (!force) {
            FilterFiles.requireAbsent(file);
        }
        // Sizing from stdin means reading it twice: it is spooled to a temporary beside the filter first.
        boolean spooled = shape.needsKeyCount() && input.isStdin();
        try (TemporaryFile spool = spooled ? TemporaryFile.beside(file, "keys") : null) {
            LineInput keys = input;
            if (spooled) {
                spoolStdin(spool.path());
                keys = LineInput.of(spool.path().toString());
            }
            Long counted = shape.needsKeyCount() ? count(keys) : null;
            BloomSpec spec = shape.spec(counted);
            try (TemporaryFile building = TemporaryFile.beside(file, "building")) {
                Filters.Added added;
                try (BloomFilter filter = BloomFilter.create(building.path(), spec, shape.createOptions(true));
                        KeySource source = keys.open(streams(), null);
                        Progress progress = progress("build", keys.size())) {
                    added = Filters.addAll(filter, source, progress);
                    filter.seal();
                }
                building.publishAs(file, force);
                streams().text().println("built " + file + " from " + Filters.keys(added.keys()) + " ("
                        + Human.count(added.newKeys()) + " new): " + Human.shape(spec, Files.size(file)) + "; sealed");
            }
        }
        return ExitCode.OK;
    }

    private long count(LineInput keys) throws IOException {
        try (KeyLineReader lines = keys.open(streams(), null);
                Progress progress = progress("count", keys.size())) {
            KeyBatch batch = new KeyBatch();
            long count = 0;
            while (lines.nextBatch(batch)) {
                count += batch.size;
                progress.update(lines.bytesRead());
            }
            return count;
        }
    }

    private void spoolStdin(Path spool) throws IOException {
        InputStream in = streams().in();
        byte[] buffer = new byte[KeyLineReader.DEFAULT_BUFFER];
        // WRITE without CREATE: if a shutdown hook has deleted the temporary, fail instead of making it again
        try (OutputStream out = Files.newOutputStream(spool, StandardOpenOption.WRITE);
                Progress progress = progress("spool", -1)) {
            long copied = 0;
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                copied += n;
                progress.update(copied);
            }
        }
    }
}
