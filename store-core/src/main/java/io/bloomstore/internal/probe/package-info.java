/**
 * Where a key's k cells lie for each layout, and the loops that probe them. Depends on
 * {@code internal.cells} and {@code internal.hashing}.
 */
package io.bloomstore.internal.probe;
