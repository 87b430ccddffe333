package io.bloomstore.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.Layout;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A column's Spark sketch written as a bloomstore file answers as the sketch does. */
class SketchImportTest {
    private static final int KEYS = 20_000;
    private static final int ABSENT = 200_000;

    @TempDir
    Path dir;

    @Test
    void aLongColumnsSketchAnswersAsTheSketch() throws IOException {
        List<Long> ids = new ArrayList<>();
        LongStream.range(0, KEYS).forEach(i -> ids.add(i * 7));
        var data = SparkFixtures.column("id", DataTypes.LongType, ids, 3);
        var sketch = data.stat().bloomFilter("id", KEYS, 0.01);
        Path file = dir.resolve("ids.bloom");
        assertEquals(Layout.SPARK_SKETCH, BloomstoreSpark.buildSketch(data, "id", KEYS, 0.01, file).spec().layout());
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            for (long id : ids) {
                assertTrue(filter.mightContain(id), "no false negative: " + id);
            }
            int positives = 0;
            for (long key = 1; key <= ABSENT; key++) {
                long absent = key * 7 + 3; // never a multiple of 7
                assertEquals(sketch.mightContain(absent), filter.mightContain(absent), "key " + absent);
                positives += filter.mightContain(absent) ? 1 : 0;
            }
            // the answers are the sketch's; this only shows they are not all one value
            assertTrue(positives > 0 && positives < ABSENT / 10, positives + " false positives");
        }
    }

    @Test
    void aStringColumnsSketchAnswersAsTheSketch() throws IOException {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            names.add("user-" + i);
        }
        var data = SparkFixtures.strings(names, 2);
        Path file = dir.resolve("names.bloom");
        var sketch = data.stat().bloomFilter("id", KEYS, 0.001);
        BloomstoreSpark.importSketch(sketch, file);
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            for (String name : names) {
                assertTrue(filter.mightContain(name), name);
            }
            for (int i = 0; i < ABSENT; i++) {
                String other = "other-" + i;
                assertEquals(sketch.mightContain(other), filter.mightContain(other), other);
            }
        }
    }
}
