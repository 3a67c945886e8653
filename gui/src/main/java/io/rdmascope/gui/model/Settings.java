package io.rdmascope.gui.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * What the GUI remembers between runs: recent files, filter history, colouring rules and added
 * columns, in one properties file ({@code $XDG_CONFIG_HOME/rdmascope/gui.properties}, else
 * {@code ~/.config/rdmascope/gui.properties}). Tests use {@link #inMemory()}. Writing is best effort:
 * a read-only home must not stop the analyzer.
 */
public final class Settings {
    private final Path file;
    private final Properties props = new Properties();

    private Settings(Path file) {
        this.file = file;
    }

    /** Settings kept only in memory (tests, or when no home folder exists). */
    public static Settings inMemory() {
        return new Settings(null);
    }

    /** Settings read from (and saved to) {@code file}; a missing or unreadable file gives defaults. */
    public static Settings load(Path file) {
        Settings s = new Settings(file);
        if (file != null && Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                s.props.load(in);
            } catch (IOException | IllegalArgumentException e) {
                s.props.clear();
            }
        }
        return s;
    }

    /** The user's settings file. */
    public static Path defaultFile() {
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("rdmascope").resolve("gui.properties");
    }

    /** A list stored under {@code key}.0, {@code key}.1, … */
    public synchronized List<String> list(String key) {
        List<String> out = new ArrayList<>();
        for (int i = 0; ; i++) {
            String v = props.getProperty(key + "." + i);
            if (v == null) {
                return out;
            }
            out.add(v);
        }
    }

    public synchronized void putList(String key, List<String> values) {
        for (int i = 0; props.remove(key + "." + i) != null; i++) {
            // removed
        }
        for (int i = 0; i < values.size(); i++) {
            props.setProperty(key + "." + i, values.get(i));
        }
        save();
    }

    /** Whether anything is stored under {@code key} (as a list). */
    public synchronized boolean has(String key) {
        return props.containsKey(key + ".0") || props.containsKey(key + ".count");
    }

    public synchronized String get(String key, String fallback) {
        return props.getProperty(key, fallback);
    }

    public synchronized void put(String key, String value) {
        props.setProperty(key, value);
        save();
    }

    private void save() {
        if (file == null) {
            return;
        }
        try {
            Files.createDirectories(file.getParent());
            try (OutputStream out = Files.newOutputStream(file)) {
                props.store(out, "rdmascope gui");
            }
        } catch (IOException e) {
            // best effort: settings are a convenience
        }
    }
}
