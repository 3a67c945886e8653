package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code summary}'s service response time section: there with storage operations, absent without. */
class SummaryServiceResponseTimeTest {
    @Test
    void theRealDiscoveryHasItsOpcodesTimed() throws Exception {
        Path file = SharedFiles.hardCapture("magnate3_linux-riscv-dev_nvme-discover2.pcap");
        Cli text = Cli.run("summary", file.toString());
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().contains("\nService response time (storage operations per opcode"), text.out());
        assertTrue(text.out().contains("\nnvme-rdma  Connect           1       0           0  "
                + "198.000  198.000  198.000\n"), text.out());
        assertTrue(text.out().contains("\nnvme-rdma  Identify          0       0           1"
                + "        -        -        -\n"), text.out());

        JsonNode rows = new ObjectMapper().readTree(Cli.run("summary", "--json", file.toString()).out())
                .get("serviceResponseTimes");
        assertEquals(5, rows.size()); // grouped by bare opcode, as tshark -z rpc,srt groups by procedure
        JsonNode propertyGet = rows.get(3);
        assertEquals("Property Get", propertyGet.get("opcode").asText());
        assertEquals(3, propertyGet.get("calls").asLong());
        assertEquals(91_333, propertyGet.get("avgNanos").asLong());
        assertTrue(rows.get(1).get("minNanos").isNull()); // the Identify was never answered
    }

    @Test
    void aCaptureWithoutStorageOperationsHasNoSection() throws Exception {
        Path file = SharedFiles.sampleCases().resolve("rc_loss_nak/rc_loss_nak.pcapng");
        assertFalse(Cli.run("summary", file.toString()).out().contains("Service response time"));
        assertFalse(new ObjectMapper().readTree(Cli.run("summary", "--json", file.toString()).out())
                .has("serviceResponseTimes"));
    }
}
