/**
 * The implementation of {@link io.bloomstore}: not API, may change in any release.
 *
 * <p>Dependencies point one way. {@code internal.math}, {@code internal.hashing} and
 * {@code internal.cells} depend on nothing of bloomstore. The API's value types
 * ({@link io.bloomstore.BloomSpec}, {@link io.bloomstore.Layout}, {@link io.bloomstore.HashAlgorithm},
 * {@link io.bloomstore.KeyHasher}, {@link io.bloomstore.InvalidFilterFileException},
 * {@link io.bloomstore.CellsCheck}, {@link io.bloomstore.FilterFileInfo}) use only {@code internal.math} and {@code internal.hashing}, so
 * the packages above them may use them without a cycle: {@code internal.format} on the value types,
 * {@code internal.cells} and {@code internal.hashing}; {@code internal.probe} on the value types,
 * {@code internal.cells}, {@code internal.hashing} and {@code internal.math};
 * {@code internal.files} on the value types, {@code internal.cells} and {@code internal.format}; {@code internal.bulk} on
 * {@link io.bloomstore.KeyHasher}; {@code internal.segment} (the files of growing and windowed
 * filters) on all of these. No internal package refers to a handle class of the API
 * ({@link io.bloomstore.BloomFilter} and the operations on it). The test-jar's
 * {@code io.bloomstore.testing.Layering} holds these rules as one table, with those of the other
 * modules, and each module's {@code LayeringTest} checks its compiled classes against it.
 */
package io.bloomstore.internal;
