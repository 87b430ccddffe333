package io.bloomstore.internal.parquet;

import java.io.IOException;
import java.nio.file.Path;

/** A Parquet file that cannot be what it claims: its message names the file, what is wrong and what to do. */
public final class DamagedParquetException extends IOException {
    private static final long serialVersionUID = 1L;

    public DamagedParquetException(Path file, String problem) {
        super(file + ": " + problem + "; the Parquet file is damaged or not Parquet: rewrite it, or leave it out");
    }
}
