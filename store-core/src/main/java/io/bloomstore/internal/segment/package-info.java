/**
 * Segmented files (format version 2): a file of regions, each a version 1 filter image mapped on
 * its own ({@link io.bloomstore.internal.segment.Segment}, the one place these filters build
 * mappings and cell arrays and run the per-key loops), created atomically, grown under a step lock
 * that a crashed owner's successor takes over ({@link io.bloomstore.internal.segment.SegmentedFile}),
 * and the protocols that keep the regions, behind the public handles: a chain's growth
 * ({@link io.bloomstore.internal.segment.Growth}) and a ring's rotation
 * ({@link io.bloomstore.internal.segment.Rotation}), with what both share, their batch calls
 * included ({@link io.bloomstore.internal.segment.Regions}).
 * Depends on {@code internal.format}, {@code internal.cells}, {@code internal.probe},
 * {@code internal.math} and {@code internal.files}.
 */
package io.bloomstore.internal.segment;
