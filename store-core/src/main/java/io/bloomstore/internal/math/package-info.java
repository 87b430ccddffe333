/**
 * The false-positive mathematics: sizing m and k for n keys at rate p, the expected and current
 * rates, key-count estimates from the fill, and the blocked layout's exact model. Depends on the
 * API's value types only.
 */
package io.bloomstore.internal.math;
