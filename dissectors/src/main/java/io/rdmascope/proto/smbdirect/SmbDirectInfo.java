package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.Dissection;

/**
 * The Protocol and Info text of an SMB Direct frame, in Wireshark 4.0's words
 * (packet-smb-direct.c, packet-smb2.c): "SMBDirect" and the message's name ("NegotiateRequest",
 * "NegotiateResponse", "DataMessage"), or "SMB2" and the command with "Request"/"Response" when a
 * Data Transfer message carries an SMB2 header.
 */
final class SmbDirectInfo {
    static final String SMBD_COLUMN = "SMBDirect";
    static final String SMB2_COLUMN = "SMB2";
    private static final int SMB2_READ = 0x08;
    private static final int SMB2_WRITE = 0x09;

    private SmbDirectInfo() {
    }

    static String column(Dissection d) {
        return d.find(SmbDirect.SMB2_HEADER) >= 0 ? SMB2_COLUMN : SMBD_COLUMN;
    }

    /** The SMB Direct (or SMB2) part of Info, or null when the frame carries none. */
    static String text(Dissection d) {
        int smb2 = d.find(SmbDirect.SMB2_HEADER);
        if (smb2 >= 0) {
            // Compounded messages ([MS-SMB2] §3.2.4.1.4): each one's text, joined by ';' as packet-smb2.c does.
            StringBuilder texts = new StringBuilder(smb2Text(d, d.layerStart(smb2)));
            for (int next = d.findNext(SmbDirect.SMB2_HEADER, smb2); next >= 0;
                 next = d.findNext(SmbDirect.SMB2_HEADER, next)) {
                texts.append(';').append(smb2Text(d, d.layerStart(next)));
            }
            return texts.toString();
        }
        if (d.find(SmbDirect.NEGOTIATE_REQUEST) >= 0) {
            return "NegotiateRequest";
        }
        int response = d.find(SmbDirect.NEGOTIATE_RESPONSE);
        if (response >= 0) {
            long status = d.u32le(d.layerStart(response) + 12);
            // Wireshark names the NT status; we print its code (docs/tshark-parity.md).
            return status == 0 ? "NegotiateResponse" : String.format("NegotiateResponse, Error: 0x%08X", status);
        }
        return d.find(SmbDirect.DATA_MESSAGE) >= 0 ? "DataMessage" : null;
    }

    /** One SMB2 message's text: its command, "Request" or "Response", a READ's or WRITE's length and offset. */
    private static String smb2Text(Dissection d, int at) {
        int command = d.u16le(at + 12);
        String name = SmbDirect.SMB2_COMMAND_NAMES.nameOf(command);
        boolean response = SmbDirect.isSmb2Response(d, at);
        String text = (name != null ? name : "Unknown command 0x" + Integer.toHexString(command))
                + (response ? " Response" : " Request");
        // packet-smb2.c adds a READ's or WRITE request's length and file offset ([MS-SMB2] §2.2.19,
        // §2.2.21: both at body bytes 4 and 8); the file name it adds when it saw the Create is not kept.
        int body = at + SmbDirect.SMB2_HEADER_SIZE;
        if (!response && (command == SMB2_READ || command == SMB2_WRITE)
                && body + 16 <= d.capturedLength() + d.reassembledLength()) {
            long offset = (d.u32le(body + 12) << 32) | d.u32le(body + 8);
            text += " Len:" + d.u32le(body + 4) + " Off:" + Long.toUnsignedString(offset);
        }
        return text;
    }
}
