package io.rdmascope.cli;

import io.rdmascope.replay.IcrcCheck;
import picocli.CommandLine.Option;

/**
 * {@code --icrc auto|strict|off}, shared by every command that replays (a picocli mixin). Why three:
 * a capture taken through a NIC's offload sniffer carries no ICRC that verifies, on any frame, so
 * judging each frame would bury the traffic under one error per frame (auto, the default, says it once
 * and counts a frame's bad ICRC as an error only when other frames of its sender verify); strict is for
 * a capture path known to keep ICRCs, where every failure is a fault; off skips the check for a capture
 * path known not to keep them.
 */
final class IcrcOption {
    @Option(names = "--icrc", paramLabel = "MODE", defaultValue = "auto",
            description = "ICRCs that do not verify: auto (default: one capture finding when none of a capture's, "
                    + "interface's or sender's ICRCs verifies, else an error per frame), strict (an error per "
                    + "frame, always) or off (not verified)")
    String mode;

    /** The chosen mode; a one-line usage error for anything else. */
    IcrcCheck check() {
        try {
            return IcrcCheck.parse(mode);
        } catch (IllegalArgumentException e) {
            throw new DissectCommand.UsageError(e.getMessage());
        }
    }
}
