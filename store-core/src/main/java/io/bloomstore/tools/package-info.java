/**
 * What bloomstore's own command line, Spark module and server need of the library beyond its API:
 * start-up tuning, display helpers, the forensics of files they report on without opening them, and
 * the open of a filter for a few queries without mapping it.
 *
 * <p><b>Internal and unsupported.</b> This package carries no compatibility promise: it may change or
 * go in any release. Programs use the API of {@link io.bloomstore}, which answers the same questions
 * through an open filter (its {@code kind()}, {@code shape()}, {@code verify}). This package sits above
 * the API and the internal packages, and no class of the API uses it (Layering's rules).
 */
package io.bloomstore.tools;
