package io.rdmascope.replay;

import java.util.Locale;

/**
 * How the replay treats ICRCs that do not verify (issue 15). A NIC-offload sniffer (a ConnectX
 * capturing its own traffic) writes frames whose ICRC field is not the one that crossed the wire, so
 * every frame of the capture "fails" although the traffic is fine; a faulty link fails some frames
 * among many that verify.
 */
public enum IcrcCheck {
    /**
     * The default: a bad ICRC is {@code bad_icrc} once another frame of the same sender (on the same
     * capture interface) verifies; when none of a sender's, an interface's or the capture's frames
     * verifies (at least {@link CaptureArtifacts#ICRC_MIN_FRAMES} of them), one
     * {@code icrc_not_verifiable} capture finding replaces them.
     */
    AUTO,
    /** Every ICRC that does not verify is {@code bad_icrc}, as before issue 15. */
    STRICT,
    /** ICRCs are not verified at all: for captures known to carry no meaningful ICRC. */
    OFF;

    /** The value of {@code --icrc}; an IllegalArgumentException naming the choices otherwise. */
    public static IcrcCheck parse(String text) {
        for (IcrcCheck c : values()) {
            if (c.name().toLowerCase(Locale.ROOT).equals(text.strip().toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        throw new IllegalArgumentException("--icrc takes auto, strict or off (got '" + text + "')");
    }
}
