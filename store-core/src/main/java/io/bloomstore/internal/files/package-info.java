/**
 * Files that appear whole or not at all: hidden temporaries beside a target, written, forced and
 * checked through the descriptor that created them, renamed into place, swept after a crash.
 * Depends on the API's value types and {@code internal.format}.
 */
package io.bloomstore.internal.files;
