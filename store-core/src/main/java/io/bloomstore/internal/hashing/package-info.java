/**
 * Hashing below the API's {@link io.bloomstore.KeyHasher}: UTF-8 encoding without allocation, the
 * reduction of a hash to a cell (fastrange) and the second hash of double hashing, the cells
 * checksum. Depends on nothing else of bloomstore.
 */
package io.bloomstore.internal.hashing;
