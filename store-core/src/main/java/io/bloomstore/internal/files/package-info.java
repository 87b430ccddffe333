/**
 * Files that appear whole or not at all: hidden temporaries beside a target, written, forced and
 * checked through the descriptor that created them, renamed into place, swept after a crash.
 * The one recipe for a new filter file ({@link io.bloomstore.internal.files.FilterFiles#publishFilter}).
 * Depends on the API's value types, {@code internal.cells} (the mapping flags) and
 * {@code internal.format}.
 */
package io.bloomstore.internal.files;
