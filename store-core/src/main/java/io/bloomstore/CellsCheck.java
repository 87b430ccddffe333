package io.bloomstore;

/** What {@link MembershipFilter#verify()} found, when it found no damage. */
public enum CellsCheck {
    /**
     * The cells match the checksum of a seal that stood, unchanged, through the whole check; of a
     * Bloomier map, its table matches the checksum its build recorded.
     */
    INTACT,
    /** The filter was not sealed when the check began: there is no checksum to check the cells against. */
    NOT_SEALED,
    /**
     * The seal was withdrawn while the cells were read: another handle opened the file for
     * writing, which withdraws the seal before it changes any cell. The cells read may then
     * differ from the old checksum without being damaged; the file is now as one not sealed.
     */
    UNSEALED_DURING_CHECK,
    /**
     * The cells are written live and never sealed (a growing or windowed file): there is no
     * checksum of them; every header, shape, table entry and padding was checked.
     */
    LIVE
}
