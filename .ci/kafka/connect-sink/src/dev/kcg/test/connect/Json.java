package dev.kcg.test.connect;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.connect.errors.ConnectException;

/** JSON strings and appends to a file, one lock for every task of the worker. */
final class Json {
    private static final Object LOCK = new Object();

    private Json() {
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }

    static void appendLine(String file, String line) {
        append(file, line + "\n");
    }

    /** Appends text in one write and closes the file, so a reader sees whole lines at once. */
    static void append(String file, String text) {
        synchronized (LOCK) {
            try (OutputStream out = new FileOutputStream(file, true)) {
                out.write(text.getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                throw new ConnectException("kcg test sink: appending to " + file + ": " + e.getMessage(), e);
            }
        }
    }
}
