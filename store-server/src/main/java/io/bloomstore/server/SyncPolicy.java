package io.bloomstore.server;

/** When the server forces added keys to the device, as Redis's {@code appendfsync}. */
public enum SyncPolicy {
    /** Never: the kernel writes the pages back when it likes; a kill -9 still loses nothing acknowledged. */
    NO,
    /** About every second: filters with adds since their last sync are synced by a background tick. */
    EVERYSEC,
    /** Before each reply to a command that added keys. */
    ALWAYS
}
