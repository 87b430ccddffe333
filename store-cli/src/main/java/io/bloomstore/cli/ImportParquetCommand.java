package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;
import static io.bloomstore.cli.Model.operands;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.BloomFilter;
import io.bloomstore.ParquetFilters;
import java.nio.file.Path;
import java.util.List;

/** {@code bloomstore import-parquet}: a column's Parquet Bloom filters, over many files, into one filter file. */
final class ImportParquetCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Merge the Bloom filters that Parquet writers (Spark, Hive, Trino, DuckDB, pyarrow, ...) stored for column PATH "
                + "in every row group of the Parquet files given (and of the *.parquet files under the directories "
                + "given) into one filter file OUT of the sbbf layout: it says whether a value might be anywhere in "
                + "that column of the dataset.",
        "Only the files' footers and the filters are read. Filters of different sizes are folded to the smallest "
                + "(exactly: a folded filter is the one the writer would have made at that size). OUT hashes keys as "
                + "the column's Parquet type: 'contains OUT 42' asks for the number 42 in an integer column.",
        "Row groups without a filter of the column, encrypted columns, and files where the column has another type "
                + "are left out and listed on stderr: OUT does not cover them. A damaged file (a truncated footer, a "
                + "filter past the end of the file or claiming more than 128 MiB) stops the import with exit status 2 "
                + "and creates nothing; so does a column without any filter."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore import-parquet user_id.bloom /data/events --column user_id",
        "  bloomstore import-parquet city.bloom part-0.parquet part-1.parquet --column address.city"
    };
    private static final int LISTED = 20;

    private Path out;
    private List<Path> inputs;
    private String column;
    private boolean force;

    ImportParquetCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "OUT", Path.class, value -> out = value)
                .description("The filter file to write.").build());
        command.addPositional(operands(1, "1..*", "FILE|DIR", Path.class, values -> inputs = values)
                .description("Parquet files, or directories searched for *.parquet files.").build());
        command.addOption(option(String.class, value -> column = value, "--column").paramLabel("PATH").required(true)
                .description("The column, its path's parts joined by dots (a.b.c).").build());
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace OUT if it exists (atomically, once the import is complete).").build());
    }

    @Override
    public Integer call() throws Exception {
        ParquetFilters.ImportReport report;
        try (Progress progress = progress("import", -1)) {
            report = ParquetFilters.importColumn(out, inputs, column, progress::update, replacing(force));
        }
        for (String skipped : report.skipped().subList(0, Math.min(LISTED, report.skipped().size()))) {
            streams().err().println("bloomstore: left out: " + skipped);
        }
        long more = report.skipped().size() - Math.min(LISTED, report.skipped().size()) + report.moreSkipped();
        if (more > 0) {
            streams().err().println("bloomstore: left out " + more + " more row groups or files");
        }
        streams().text().println("imported column " + column + " (" + report.type() + ") from " + report.files()
                + " files, " + report.filtersMerged() + " of " + report.rowGroups() + " row groups, into " + out + ": "
                + Human.shape(report.spec(), BloomFilter.fileBytes(report.spec())) + "; sealed");
        streams().text().println("read " + Human.bytes(report.bytesRead()) + ": " + Human.bytes(report.filterBytes())
                + " of filters, the rest footers and filter headers");
        return ExitCode.OK;
    }
}
