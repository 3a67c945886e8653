package io.rdmascope.cli;

import io.rdmascope.replay.ObservationKind;
import io.rdmascope.rules.Rule;
import io.rdmascope.rules.RuleCatalog;
import io.rdmascope.rules.RulesDoc;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

import static io.rdmascope.cli.Table.Column.left;

/**
 * {@code rdmascope rules}: the conformance rule catalog {@code check} applies. {@code --markdown} is
 * docs/rules.md itself ({@code rdmascope rules --markdown > docs/rules.md} regenerates it; a test
 * keeps the two equal).
 */
@Command(name = "rules", sortOptions = false,
        description = {"List the conformance rules that check applies: id, severity, summary.",
                "--markdown prints docs/rules.md (every rule's reference and explanation); --json prints the "
                        + "catalog as a JSON array."})
final class RulesCommand implements Callable<Integer> {
    private static final Table TABLE = new Table(left("Id"), left("Severity"), left("Summary"));

    @ParentCommand
    Main parent;

    @Option(names = "--markdown", description = "print the catalog as docs/rules.md")
    boolean markdown;

    @Option(names = "--json", description = "print the catalog as a JSON array")
    boolean json;

    /** One rule in --json: Rule's fields with the severity spelled as reports spell it. */
    record Row(String id, int revision, String severity, String summary, String reference, String explanation,
               List<String> observations) {
        static Row of(Rule r) {
            return new Row(r.id(), r.revision(), r.severity().id(), r.summary(), r.reference(), r.explanation(),
                    r.observations().stream().map(ObservationKind::id).toList());
        }
    }

    @Override
    public Integer call() throws IOException {
        if (markdown && json) {
            throw new DissectCommand.UsageError("--markdown and --json cannot be combined");
        }
        BufferedOutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        if (markdown) {
            out.write(RulesDoc.markdown().getBytes(StandardCharsets.UTF_8));
        } else if (json) {
            ReplayJson.writeArray(out, RuleCatalog.all().stream().map(Row::of).toList());
        } else {
            Writer text = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            TABLE.print(text, RuleCatalog.all(), r -> new String[] {r.id(), r.severity().id(), r.summary()});
            text.flush();
        }
        out.flush();
        return Main.EXIT_OK;
    }
}
