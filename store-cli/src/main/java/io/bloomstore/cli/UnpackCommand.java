package io.bloomstore.cli;

import io.bloomstore.format.FilterHeader;
import io.bloomstore.ops.Pack;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bloomstore unpack}: a filter file back from a pack. */
@Command(name = "unpack", sortOptions = false,
        description = {
            "Restore a filter file from a pack made by 'pack', bit for bit.",
            "The pack's checksums and the filter's header are checked before FILE appears: a damaged or truncated "
                    + "pack leaves nothing. IN - reads stdin. An existing FILE is kept unless --force."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  bloomstore unpack users.bloom.pack users.bloom",
            "  curl -s https://example.com/users.bloom.pack | bloomstore unpack - users.bloom"
        })
final class UnpackCommand extends CliCommand {
    @Parameters(index = "0", paramLabel = "IN|-", description = "The pack to read, or - for stdin.")
    String in;

    @Parameters(index = "1", paramLabel = "FILE", description = "The filter file to restore.")
    Path file;

    @Option(names = "--force", description = "Replace FILE if it exists (atomically, once the pack has been checked).")
    boolean force;

    @Override
    public Integer call() throws Exception {
        boolean fromStdin = LineInput.STDIN.equals(in);
        FilterHeader header;
        try (InputStream input = fromStdin ? streams().in() : Files.newInputStream(Path.of(in));
                Progress progress = progress("unpack", -1)) {
            header = Pack.unpack(input, fromStdin ? "stdin" : in, file, force, progress::update);
        }
        streams().text().println("unpacked " + (fromStdin ? "stdin" : in) + " into " + file + ": "
                + Human.shape(header.spec(), header.fileLength()));
        return ExitCode.OK;
    }
}
