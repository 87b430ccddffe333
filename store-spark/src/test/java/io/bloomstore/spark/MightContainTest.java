package io.bloomstore.spark;

import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Testing columns against a filter file inside queries: the DataFrame function, the SQL function,
 * the semi- and anti-join prefilters, and the errors for a missing or damaged file.
 */
class MightContainTest {
    private static final int MEMBERS = 20_000;
    /** Absent keys queried: enough that the tolerance below is a few tenths of a percent. */
    private static final int ABSENT = 40_000;
    private static final double FPP = 0.02;

    @TempDir
    static Path dir;
    private static Path filter;

    /** Members are m-0 .. m-19999, built with the core's Java API; the queried rows hold them and as many absent keys. */
    @BeforeAll
    static void buildFilter() throws IOException {
        filter = dir.resolve("members.bloom");
        try (BloomFilter f = BloomFilter.create(filter, BloomSpec.builder().expectedKeys(MEMBERS).fpp(FPP)
                .layout(Layout.BLOCKED).build())) {
            IntStream.range(0, MEMBERS).forEach(i -> f.add("m-" + i));
            f.seal();
        }
    }

    private static Dataset<Row> rows() {
        List<String> keys = IntStream.range(0, MEMBERS).mapToObj(i -> "m-" + i).collect(java.util.stream.Collectors.toList());
        IntStream.range(0, ABSENT).mapToObj(i -> "a-" + i).forEach(keys::add);
        keys.add(null);
        return Filters.strings(keys, 4);
    }

    /** The rate must lie within 4 binomial standard deviations of the target (fixed keys: the result is the same every run). */
    private static void assertRateNearTarget(long falsePositives, double target) {
        double rate = (double) falsePositives / ABSENT;
        double sigma = Math.sqrt(target * (1 - target) / ABSENT);
        assertTrue(Math.abs(rate - target) < 4 * sigma + target * 0.10,
                "false-positive rate " + rate + ", target " + target + " +- " + 4 * sigma);
    }

    @Test
    void theSemiJoinPrefilterKeepsEveryMemberAndAboutTheTargetRateOfTheRest() throws IOException {
        Dataset<Row> kept = BloomstoreSpark.whereMightContain(rows(), "id", filter.toString());
        long members = kept.filter(functions.col("id").startsWith("m-")).count();
        long falsePositives = kept.filter(functions.col("id").startsWith("a-")).count();
        assertEquals(MEMBERS, members, "no false negatives");
        assertEquals(MEMBERS + falsePositives, kept.count(), "a null key is never kept");
        assertRateNearTarget(falsePositives, FPP);
    }

    @Test
    void theAntiJoinPrefilterKeepsOnlyAbsentKeysAndNulls() throws IOException {
        Dataset<Row> absent = BloomstoreSpark.whereAbsent(rows(), "id", filter.toString());
        assertEquals(0, absent.filter(functions.col("id").startsWith("m-")).count(), "no member is called absent");
        assertEquals(1, absent.filter(functions.col("id").isNull()).count(), "a null key is no member");
        long absentKept = absent.filter(functions.col("id").startsWith("a-")).count();
        assertRateNearTarget(ABSENT - absentKept, FPP);
    }

    @Test
    void theSqlFunctionAnswersAsTheDataFrameFunction() throws IOException {
        SparkSession spark = SharedSpark.session();
        rows().createOrReplaceTempView("keys");
        BloomstoreSpark.register(spark, "is_member", filter.toString());
        long bySql = spark.sql("SELECT count(*) FROM keys WHERE is_member(id)").first().getLong(0);
        long byColumn = rows().filter(BloomstoreSpark.mightContain(functions.col("id"), filter.toString())).count();
        assertEquals(byColumn, bySql);
        assertTrue(bySql >= MEMBERS);
    }

    @Test
    void aMissingFileIsNamedWhenTheQueryIsPlanned() {
        Path missing = dir.resolve("nope.bloom");
        FileNotFoundException e = assertThrows(FileNotFoundException.class,
                () -> BloomstoreSpark.mightContain(functions.col("id"), missing.toString()));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void aFilterWithDamagedCellsFailsTheQueryNamingIt() throws IOException {
        Path damaged = dir.resolve("damaged.bloom");
        java.nio.file.Files.copy(filter, damaged);
        try (RandomAccessFile file = new RandomAccessFile(damaged.toFile(), "rw")) {
            file.seek(4096 + 100);
            file.write(file.read() ^ 0x10);
        }
        Exception e = assertThrows(Exception.class,
                () -> BloomstoreSpark.whereMightContain(rows(), "id", damaged.toString()).count());
        String messages = messages(e);
        assertTrue(messages.contains(damaged.toString() + ": cells are damaged"), messages);
    }

    @Test
    void aPrefilterOnAMissingColumnNamesIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BloomstoreSpark.whereMightContain(rows(), "user", filter.toString()));
        assertTrue(e.getMessage().startsWith("no column user"), e.getMessage());
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
