/**
 * The few bytes of Apache Parquet that moving split-block Bloom filters in and out needs: the Thrift
 * compact protocol, read generically and bounded against hostile input, the file footer's column
 * chunks, and the {@code BloomFilterHeader} that precedes each filter. No Hadoop, no Thrift runtime;
 * depends on nothing else of bloomstore.
 */
package io.bloomstore.internal.parquet;
