/**
 * Files that appear whole or not at all: hidden temporaries beside a target, forced and renamed
 * into place, swept after a crash. Depends on {@code internal.format}.
 */
package io.bloomstore.internal.files;
