package io.rdmascope.replay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One vantage point as a user names it, on the command line or in the GUI: {@code NAME=FILE}, or a
 * file named after itself without its capture extensions. An argument with '=' that is an existing
 * file is taken as a file, so a file name holding '=' still opens.
 */
public record VantageInput(String name, Path file) {
    /**
     * The points {@code arguments} name, in their order.
     *
     * @throws IllegalArgumentException when two points get one name
     */
    public static List<VantageInput> parse(List<String> arguments) {
        List<VantageInput> out = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String a : arguments) {
            int eq = a.indexOf('=');
            boolean named = eq > 0 && !Files.exists(Path.of(a));
            Path file = Path.of(named ? a.substring(eq + 1) : a);
            String name = named ? a.substring(0, eq) : nameOf(file);
            if (!names.add(name)) {
                throw new IllegalArgumentException("two vantage points named '" + name + "': name them with NAME=FILE");
            }
            out.add(new VantageInput(name, file));
        }
        return out;
    }

    /** A vantage point's default name: the file's name without its capture extensions. */
    public static String nameOf(Path file) {
        String n = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        return n.replaceFirst("(\\.(pcapng|pcap|erf|cap))?(\\.gz)?$", "");
    }
}
