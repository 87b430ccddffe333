package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.Pack;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code bloomstore pack}: a filter as one compressed, checksummed stream. */
final class PackCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Write a filter as a pack: one LZ4-compressed, checksummed stream holding the file byte for byte, for "
                + "shipping and backup. 'unpack' restores it.",
        "OUT - writes to stdout. A pack file appears only when complete; an existing one is kept unless --force.",
        "FILE may be in use: others may keep adding to it meanwhile. It is checked first as 'verify' checks it: a "
                + "damaged file is refused, never packed."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore pack users.bloom users.bloom.pack",
        "  bloomstore pack users.bloom - | ssh backup 'cat > users.bloom.pack'",
        "  bloomstore pack users.bloom - | bloomstore unpack - copy.bloom"
    };

    private Path file;
    private String out;
    private boolean force;

    PackCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file to pack.").build());
        command.addPositional(operand(1, "OUT|-", String.class, value -> out = value)
                .description("The pack file to write, or - for stdout.").build());
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace OUT if it exists; with -, write to stdout even if it is a terminal.").build());
    }

    @Override
    public Integer call() throws Exception {
        long length = Files.size(file); // for the bar: pack checks the file, whatever its kind
        boolean toStdout = LineInput.STDIN.equals(out);
        if (toStdout && streams().stdoutIsTerminal() && !force) {
            throw new IllegalArgumentException("a pack is binary: redirect stdout to a file or a pipe, or give OUT");
        }
        try (Progress progress = progress("pack", length)) {
            if (toStdout) {
                Pack.pack(file, new UnclosableOutputStream(streams().out()), progress::update);
                return ExitCode.OK;
            }
            length = Pack.packTo(file, Path.of(out), progress::update, replacing(force));
        }
        streams().text().println("packed " + file + " (" + Human.bytes(length) + ") into " + out + " ("
                + Human.bytes(Files.size(Path.of(out))) + ")");
        return ExitCode.OK;
    }
}
