package io.rdmascope.rules;

import io.rdmascope.replay.ObservationKind;
import io.rdmascope.samples.Expected;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RuleCatalogTest {

    static Path docs() {
        return SharedFiles.projectRoot().resolve("docs").resolve("rules.md");
    }

    /** docs/rules.md is the catalog rendered; -Drdmascope.updateDocs=true rewrites it. */
    @Test
    void docsRulesMdIsCurrent() throws IOException {
        String generated = RulesDoc.markdown();
        if (Boolean.getBoolean("rdmascope.updateDocs")) {
            Files.writeString(docs(), generated, StandardCharsets.UTF_8);
        }
        assertEquals(generated, Files.readString(docs()),
                "docs/rules.md is stale: run `rdmascope rules --markdown > docs/rules.md`");
    }

    @Test
    void everyConsequenceKindIsACatalogRule() {
        for (String id : RuleCatalog.consequenceKinds()) {
            org.junit.jupiter.api.Assertions.assertNotNull(RuleCatalog.byId(id), id);
        }
    }

    @Test
    void idsAndObservationKindsAreUnique() {
        Set<String> ids = new HashSet<>();
        Set<ObservationKind> kinds = new HashSet<>();
        for (Rule r : RuleCatalog.all()) {
            assertTrue(ids.add(r.id()), "twice: " + r.id());
            // families: InfiniBand/RoCE, iWARP, rdmascope itself, the storage protocols on top (issue 19)
            assertTrue(r.id().matches("(IB|IW|RS|ULP)-[A-Z]+(-[A-Z]+)?-\\d{3}"), r.id());
            assertTrue(!r.summary().isBlank() && !r.reference().isBlank() && r.explanation().length() > 40, r.id());
            for (ObservationKind k : r.observations()) {
                assertTrue(kinds.add(k), "observation kind in two rules: " + k);
            }
        }
    }

    /** The scenario generator's expected findings name these rules, with these severities. */
    @Test
    void everyRuleTheScenarioTruthsExpectIsInTheCatalogAsTheyExpectIt() {
        for (Expected e : Expected.values()) {
            if (e.rule() == null) {
                continue;
            }
            Rule r = RuleCatalog.byId(e.rule());
            assertNotNull(r, "no rule " + e.rule());
            assertEquals(e.severity().id(), r.severity().id(), e.rule());
            assertTrue(r.observations().contains(ObservationKind.ofId(e.id())), e.rule() + " should be raised by " + e.id());
        }
    }
}
