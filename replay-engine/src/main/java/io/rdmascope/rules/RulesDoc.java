package io.rdmascope.rules;

/** Renders the catalog as {@code docs/rules.md}; a test keeps the committed file equal to this. */
public final class RulesDoc {
    private RulesDoc() {
    }

    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Conformance rules\n\n");
        sb.append("Generated from `replay-engine/src/main/java/io/rdmascope/rules/RuleCatalog.java` — do not edit by\n");
        sb.append("hand; `rdmascope rules --markdown > docs/rules.md` regenerates it. `check` raises a finding each time\n");
        sb.append("the replay engine makes an observation a rule names; a rules file (`check --rules FILE`) can switch\n");
        sb.append("rules off, change their severity, or set a threshold below which they stay quiet.\n\n");
        sb.append("| id | severity | summary |\n| --- | --- | --- |\n");
        for (Rule r : RuleCatalog.all()) {
            sb.append("| [").append(r.id()).append("](#").append(r.id().toLowerCase(java.util.Locale.ROOT))
                    .append(") | ").append(r.severity().id()).append(" | ").append(r.summary()).append(" |\n");
        }
        for (Rule r : RuleCatalog.all()) {
            sb.append("\n## ").append(r.id()).append("\n\n");
            sb.append("**").append(r.summary()).append("** — ").append(r.severity().id()).append(", revision ")
                    .append(r.revision()).append("\n\n");
            sb.append("Reference: ").append(r.reference()).append("\n\n");
            sb.append(r.explanation()).append("\n\n");
            sb.append("Raised by the observation").append(r.observations().size() > 1 ? "s " : " ");
            for (int i = 0; i < r.observations().size(); i++) {
                sb.append(i == 0 ? "" : ", ").append('`').append(r.observations().get(i)).append('`');
            }
            sb.append(".\n");
        }
        return sb.toString();
    }
}
