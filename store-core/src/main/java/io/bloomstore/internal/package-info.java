/**
 * The implementation of {@link io.bloomstore}: not API, may change in any release.
 *
 * <p>Dependencies point one way. {@code internal.math} and {@code internal.hashing} depend on
 * nothing but the API's value types ({@link io.bloomstore.BloomSpec}, {@link io.bloomstore.Layout},
 * {@link io.bloomstore.HashAlgorithm}); {@code internal.cells} on nothing of bloomstore;
 * {@code internal.format} on the value types, {@code internal.cells} and {@code internal.hashing};
 * {@code internal.probe} on {@code internal.cells} and {@code internal.hashing};
 * {@code internal.files} on {@code internal.format}; {@code internal.bulk} on
 * {@link io.bloomstore.KeyHasher} and the callbacks of {@link io.bloomstore.KeySource};
 * {@code internal.segment} (the files of growing and windowed filters) on all of these. No internal
 * package refers to a handle class
 * of the API ({@link io.bloomstore.BloomFilter} and the operations on it).
 */
package io.bloomstore.internal;
