/**
 * bloomstore on Apache Spark: {@link io.bloomstore.spark.BloomstoreSpark} builds filter files from
 * a column of a Dataset (the blocked layout by range of blocks, the standard one by OR-merging
 * partial filters) and tests columns against them inside queries. Depends on the core's public API
 * ({@code io.bloomstore}) only, never on {@code io.bloomstore.internal} ({@code LayeringTest} checks
 * the compiled classes), and on Spark and the Hadoop FileSystem API Spark ships (docs/SCALE-OUT.md).
 */
package io.bloomstore.spark;
