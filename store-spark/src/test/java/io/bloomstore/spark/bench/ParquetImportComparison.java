package io.bloomstore.spark.bench;

import io.bloomstore.CreateOption;
import io.bloomstore.ParquetFilters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.hadoop.BloomFilterReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * A one-off measurement, not a unit test: Spark writes F Parquet files (R rows each, a Bloom filter
 * on the INT64 column {@code l} sized for R distinct values a row group), then, alternately, three
 * times each: bloomstore's {@link ParquetFilters#importColumn} of the whole directory (footers and
 * filters read, folded and ORed, a sealed file written) and parquet-java's own way to the same
 * filters, {@code ParquetFileReader.open} and {@code BloomFilterReader.readBloomFilter} of every
 * row group through Hadoop's local file system (read only: it merges nothing, writes nothing). Prints
 * each run's wall time and bloomstore's bytes read against the filters' and footers' size.
 * docs/BENCHMARKS.md gives the command and the numbers.
 */
public final class ParquetImportComparison {
    private ParquetImportComparison() {
    }

    public static void main(String[] args) throws IOException {
        int files = Integer.parseInt(args[0]);
        long rows = Long.parseLong(args[1]);
        Path dir = Files.createTempDirectory("parquet-import-comparison");
        SparkSession spark = SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false")
                .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1").getOrCreate();
        spark.range(0, files * rows, 1, files).selectExpr("id as l", "concat('s-', id) as s").write()
                .mode(SaveMode.Overwrite).option("parquet.bloom.filter.enabled#l", "true")
                .option("parquet.bloom.filter.expected.ndv#l", rows).parquet(dir.resolve("data").toString());
        spark.stop();
        List<Path> parquet;
        try (Stream<Path> walk = Files.list(dir.resolve("data"))) {
            parquet = walk.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
        }
        long fileBytes = 0;
        for (Path p : parquet) {
            fileBytes += Files.size(p);
        }
        System.out.printf(Locale.ROOT, "%d files, %d rows each, %.1f MiB of Parquet%n", parquet.size(), rows,
                fileBytes / 1048576.0);
        for (int round = 1; round <= 3; round++) {
            long start = System.nanoTime();
            ParquetFilters.ImportReport report = ParquetFilters.importColumn(dir.resolve("l.bloom"),
                    List.of(dir.resolve("data")), "l", CreateOption.REPLACE_EXISTING);
            double bloomstoreMs = (System.nanoTime() - start) / 1e6;
            start = System.nanoTime();
            long parquetJavaBytes = readWithParquetJava(parquet);
            double parquetJavaMs = (System.nanoTime() - start) / 1e6;
            System.out.printf(Locale.ROOT, "round %d: bloomstore import %.1f ms (%d filters, read %d bytes: %d of filters,"
                    + " %d of footers and filter headers, %.4fx the filters), parquet-java readBloomFilter %.1f ms"
                    + " (%d bytes of filters)%n", round, bloomstoreMs, report.filtersMerged(), report.bytesRead(),
                    report.filterBytes(), report.bytesRead() - report.filterBytes(),
                    report.bytesRead() / (double) report.filterBytes(), parquetJavaMs, parquetJavaBytes);
        }
    }

    private static long readWithParquetJava(List<Path> files) throws IOException {
        Configuration conf = new Configuration();
        long bytes = 0;
        List<BloomFilter> kept = new ArrayList<>();
        for (Path file : files) {
            try (ParquetFileReader reader = ParquetFileReader.open(
                    HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), conf))) {
                for (BlockMetaData block : reader.getFooter().getBlocks()) {
                    BloomFilterReader filters = reader.getBloomFilterDataReader(block);
                    for (ColumnChunkMetaData column : block.getColumns()) {
                        if (column.getPath().toDotString().equals("l")) {
                            BloomFilter filter = filters.readBloomFilter(column);
                            bytes += filter.getBitsetSize();
                            kept.add(filter);
                        }
                    }
                }
            }
        }
        return kept.isEmpty() ? 0 : bytes;
    }
}
