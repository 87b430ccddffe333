package io.bloomstore.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.FilterFileInfo;
import io.bloomstore.tools.FileForensics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** Test data and checks shared by the store-spark tests. */
final class SparkFixtures {
    private SparkFixtures() {
    }

    /** A one-column Dataset of {@code values} of {@code type} (nulls allowed), in {@code partitions} partitions. */
    static Dataset<Row> column(String name, DataType type, List<?> values, int partitions) {
        StructType schema = new StructType().add(name, type, true);
        List<Row> rows = values.stream().map(v -> RowFactory.create(v)).toList();
        return SharedSpark.session().createDataFrame(rows, schema).repartition(partitions);
    }

    static Dataset<Row> strings(List<String> values, int partitions) {
        return column("id", DataTypes.StringType, values, partitions);
    }

    /** Asserts that two filter files hold the same shape and the same cell bytes. */
    static void assertSameCells(Path expected, Path actual) throws IOException {
        FilterFileInfo a = FileForensics.readInfo(expected);
        FilterFileInfo b = FileForensics.readInfo(actual);
        assertEquals(a.spec(), b.spec());
        byte[] x = Files.readAllBytes(expected);
        byte[] y = Files.readAllBytes(actual);
        assertEquals(x.length, y.length, "file lengths");
        int cellsStart = (int) a.cellsOffset();
        assertArrayEquals(Arrays.copyOfRange(x, cellsStart, x.length), Arrays.copyOfRange(y, cellsStart, y.length),
                "cells of " + actual + " differ from " + expected);
    }
}
