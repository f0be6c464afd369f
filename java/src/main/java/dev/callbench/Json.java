package dev.callbench;

import java.util.List;
import java.util.Map;

/**
 * The JSON lines a driver prints, one object each: strings, integers, doubles,
 * booleans, null, long arrays, lists and nested maps.
 */
public final class Json {
    private Json() {}

    public static String object(Map<String, ?> fields) {
        StringBuilder out = new StringBuilder();
        appendObject(out, fields);
        return out.toString();
    }

    private static void appendObject(StringBuilder out, Map<?, ?> fields) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : fields.entrySet()) {
            if (!first) {
                out.append(", ");
            }
            first = false;
            appendString(out, String.valueOf(e.getKey()));
            out.append(": ");
            appendValue(out, e.getValue());
        }
        out.append('}');
    }

    private static void appendValue(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Long || value instanceof Integer || value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Double d) {
            // JSON has no NaN or Infinity.
            out.append(Double.isFinite(d) ? d.toString() : "null");
        } else if (value instanceof long[] values) {
            out.append('[');
            for (int i = 0; i < values.length; i++) {
                out.append(i == 0 ? "" : ", ").append(values[i]);
            }
            out.append(']');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i == 0 ? "" : ", ");
                appendValue(out, list.get(i));
            }
            out.append(']');
        } else if (value instanceof Map<?, ?> map) {
            appendObject(out, map);
        } else {
            appendString(out, value.toString());
        }
    }

    static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
