// DumpProperties prints what java.util.Properties.load(InputStream) reads
// from each file: one "[key] = [value]" line per key, sorted, every
// character outside printable ASCII (and the backslash) as backslash-u and four hex digits; or
// "error: MESSAGE". properties_test.go compares kcg's parser with the
// .golden files this writes:
//
//   cd connconfig/javaprops/testdata/properties
//   for f in *.properties; do java ../DumpProperties.java $f > ${f%.properties}.golden; done
import java.io.FileInputStream;
import java.io.InputStream;
import java.util.Properties;
import java.util.TreeMap;

public class DumpProperties {
    public static void main(String[] args) throws Exception {
        for (String f : args) {
            Properties p = new Properties();
            try (InputStream in = new FileInputStream(f)) {
                p.load(in);
            } catch (IllegalArgumentException e) {
                System.out.println("error: " + e.getMessage());
                continue;
            }
            TreeMap<String, String> m = new TreeMap<>();
            for (String k : p.stringPropertyNames()) m.put(k, p.getProperty(k));
            for (var e : m.entrySet()) System.out.println("[" + esc(e.getKey()) + "] = [" + esc(e.getValue()) + "]");
        }
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c >= 0x20 && c < 0x7f && c != '\\') b.append(c);
            else b.append(String.format("\\" + "u%04x", (int) c));
        }
        return b.toString();
    }
}
