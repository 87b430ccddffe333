/**
 * Entries of {@link io.bloomstore} that only {@link io.bloomstore.tools} calls: the API publishes
 * them here when its classes load, so that they stay out of its public surface and the API never
 * names {@code tools}, which sits above it (the JDK's {@code SharedSecrets} pattern). Depends on
 * nothing of bloomstore.
 */
package io.bloomstore.internal.access;
