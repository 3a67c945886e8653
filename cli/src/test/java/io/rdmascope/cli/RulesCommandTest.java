package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.rules.Rule;
import io.rdmascope.rules.RuleCatalog;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmascope rules}: the catalog as a table, as JSON, and as docs/rules.md. */
class RulesCommandTest {

    @Test
    void markdownIsDocsRulesMdExactly() throws IOException {
        Path doc = GoldenOutputTest.cases().getParent().getParent().resolve("docs").resolve("rules.md");
        Cli r = Cli.run("rules", "--markdown");
        assertEquals(0, r.status(), r.err());
        assertEquals(Files.readString(doc), r.out(),
                "docs/rules.md is stale: run 'rdmascope rules --markdown > docs/rules.md'");
    }

    @Test
    void theTableHasOneRowPerRuleInCatalogOrder() {
        Cli r = Cli.run("rules");
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().split("\n");
        List<Rule> catalog = RuleCatalog.all();
        assertEquals(1 + catalog.size(), lines.length);
        assertTrue(lines[0].matches("Id\\s+Severity\\s+Summary"), lines[0]);
        for (int i = 0; i < catalog.size(); i++) {
            Rule rule = catalog.get(i);
            assertTrue(lines[i + 1].matches("\\Q" + rule.id() + "\\E\\s+" + rule.severity().id() + "\\s+\\Q"
                    + rule.summary() + "\\E"), lines[i + 1]);
        }
    }

    @Test
    void jsonListsEveryRuleWithItsFields() throws IOException {
        Cli r = Cli.run("rules", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode array = new ObjectMapper().readTree(r.out());
        List<Rule> catalog = RuleCatalog.all();
        assertEquals(catalog.size(), array.size());
        for (int i = 0; i < catalog.size(); i++) {
            JsonNode j = array.get(i);
            Rule rule = catalog.get(i);
            assertEquals(rule.id(), j.get("id").asText());
            assertEquals(rule.severity().id(), j.get("severity").asText());
            assertEquals(rule.summary(), j.get("summary").asText());
            assertEquals(rule.reference(), j.get("reference").asText());
            assertEquals(rule.revision(), j.get("revision").asInt());
            assertEquals(rule.observations().size(), j.get("observations").size());
        }
    }

    @Test
    void markdownAndJsonTogetherIsAUsageError() {
        Cli r = Cli.run("rules", "--markdown", "--json");
        assertEquals(2, r.status());
        assertEquals("", r.out());
        assertEquals("rdmascope: --markdown and --json cannot be combined", r.err().strip());
    }
}
