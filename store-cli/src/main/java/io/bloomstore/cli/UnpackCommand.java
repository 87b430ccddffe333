package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.FilterFileSummary;
import io.bloomstore.FilterKind;
import io.bloomstore.Pack;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code bloomstore unpack}: a filter file back from a pack. */
final class UnpackCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Restore a filter file from a pack made by 'pack', bit for bit.",
        "The pack's checksums and the filter's header are checked before FILE appears: a damaged or truncated "
                + "pack leaves nothing. IN - reads stdin. An existing FILE is kept unless --force."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore unpack users.bloom.pack users.bloom",
        "  curl -s https://example.com/users.bloom.pack | bloomstore unpack - users.bloom"
    };

    private String in;
    private Path file;
    private boolean force;

    UnpackCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "IN|-", String.class, value -> in = value)
                .description("The pack to read, or - for stdin.").build());
        command.addPositional(operand(1, "FILE", Path.class, value -> file = value)
                .description("The filter file to restore.").build());
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace FILE if it exists (atomically, once the pack has been checked).").build());
    }

    @Override
    public Integer call() throws Exception {
        boolean fromStdin = LineInput.STDIN.equals(in);
        if (!fromStdin && Files.isDirectory(Path.of(in))) {
            throw new FileSystemException(in, null, "is a directory, not a pack; give the file that 'pack' wrote");
        }
        FilterFileSummary restored;
        try (InputStream input = fromStdin ? streams().in() : Files.newInputStream(Path.of(in));
                Progress progress = progress("unpack", -1)) {
            restored = Pack.unpack(input, fromStdin ? "stdin" : in, file, progress::update, replacing(force));
        }
        String what = restored.info().map(info -> Human.shape(info.spec(), info.fileLength()))
                .orElseGet(() -> restored.kind() == FilterKind.MAP ? "Bloomier map, " + Human.bytes(restored.fileLength())
                        : restored.kind() == FilterKind.GROWING
                        ? "growing filter, " + restored.regions() + " segments, " + Human.bytes(restored.fileLength())
                        : "windowed filter, " + restored.regions() + " slots, " + Human.bytes(restored.fileLength()));
        streams().text().println("unpacked " + (fromStdin ? "stdin" : in) + " into " + file + ": " + what);
        return ExitCode.OK;
    }
}
