package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.ParquetFilters;
import java.nio.file.Path;

/** {@code bloomstore export-sbbf}: an sbbf filter as Parquet stores a column chunk's filter. */
final class ExportSbbfCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Write the sbbf filter FILE as Parquet stores a column chunk's Bloom filter: its Thrift BloomFilterHeader "
                + "(numBytes, BLOCK, XXHASH, UNCOMPRESSED) followed by the bitset, which parquet-java's "
                + "BlockSplitBloomFilter and Arrow's readers take.",
        "Parquet readers take bitsets of a power of two from 32 B to 128 MiB: an imported filter has such a size; "
                + "one created here needs --parquet-compatible. OUT appears only when complete; an existing OUT is "
                + "kept unless --force."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore export-sbbf user_id.bloom user_id.sbbf"
    };

    private Path file;
    private Path out;
    private boolean force;

    ExportSbbfCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The sbbf filter to export.").build());
        command.addPositional(operand(1, "OUT", Path.class, value -> out = value)
                .description("The file to write.").build());
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace OUT if it exists (atomically, once it is complete).").build());
    }

    @Override
    public Integer call() throws Exception {
        long length = ParquetFilters.exportSbbf(file, out, replacing(force));
        streams().text().println("wrote " + out + ": " + Human.bytes(length) + " (a Parquet BloomFilterHeader and the bitset)");
        return ExitCode.OK;
    }
}
