/**
 * Filters written by other libraries (Guava's {@code BloomFilter}, Spark's sketch), read from
 * their streams into bloomstore files whose cells are their bit arrays as they are.
 */
package io.bloomstore.internal.imports;
