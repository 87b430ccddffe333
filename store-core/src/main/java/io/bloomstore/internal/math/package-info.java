/**
 * The false-positive mathematics: sizing m and k for n keys at rate p, the expected and current
 * rates, key-count estimates from the fill, and the blocked layout's exact model, as functions of
 * numbers. Depends on nothing else of bloomstore: {@link io.bloomstore.BloomSpec}'s sizing uses it,
 * so it takes m, k and the block size rather than the spec ({@code internal.probe.FillEstimates}
 * chooses a layout's formula for a spec).
 */
package io.bloomstore.internal.math;
