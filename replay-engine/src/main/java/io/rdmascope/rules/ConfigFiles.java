package io.rdmascope.rules;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/** Reads a rules or expectations file: YAML when it is named .yaml/.yml, JSON otherwise. */
final class ConfigFiles {
    private ConfigFiles() {
    }

    static JsonNode read(Path file) throws IOException {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        ObjectMapper mapper = name.endsWith(".yaml") || name.endsWith(".yml") ? new ObjectMapper(new YAMLFactory())
                : new ObjectMapper();
        try {
            return mapper.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            // One line: where and what, without Jackson's source dump.
            throw new IllegalArgumentException(file + ": line " + e.getLocation().getLineNr() + ": "
                    + e.getOriginalMessage());
        }
    }
}
