package io.rdmascope.capture;

/** Sanity bounds on lengths read from untrusted files (DESIGN.md "Bad input contract"). */
final class Limits {

    /**
     * Largest pcap record or pcapng block accepted, in bytes. Real frames stay under 256 KiB even
     * with GRO; 256 MiB leaves room for odd link types while refusing lengths that only corruption
     * produces. It also keeps every record well inside one memory mapping (2 GiB).
     */
    static final int MAX_RECORD_LENGTH = 256 * 1024 * 1024;

    private Limits() {
    }
}
