package kafkatest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Java classes of Apache Kafka's command-line tools (as in 4.4.0).
const (
	ConsumerGroupCommandClass = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"
	ConsoleProducerClass      = "org.apache.kafka.tools.ConsoleProducer"
	ConsoleConsumerClass      = "org.apache.kafka.tools.consumer.ConsoleConsumer"
	TopicCommandClass         = "org.apache.kafka.tools.TopicCommand"
)

// javaTimeout bounds one run of a Java tool.
const javaTimeout = 3 * time.Minute

// JavaTool runs Apache Kafka's kafka-consumer-groups (ConsumerGroupCommand)
// with args and returns its stdout, stderr (where its log4j output goes, at
// WARN, as with the real script) and exit code. Only on the real broker: it
// skips on kfake. Pass "--bootstrap-server", e.Bootstrap yourself.
func (e *Env) JavaTool(t testing.TB, args ...string) (stdout, stderr string, exitCode int) {
	t.Helper()
	return e.JavaRun(t, ConsumerGroupCommandClass, "", args...)
}

// ConsoleProduce sends lines (one record each, "key<TAB>value" when
// parse.key is passed in extra) to topic with Apache Kafka's console
// producer. Real broker only.
func (e *Env) ConsoleProduce(t testing.TB, topic string, lines []string, extra ...string) {
	t.Helper()
	args := append([]string{"--bootstrap-server", e.Bootstrap, "--topic", topic}, extra...)
	_, stderr, code := e.JavaRun(t, ConsoleProducerClass, strings.Join(lines, "\n")+"\n", args...)
	if code != 0 {
		t.Fatalf("kafkatest: console producer exited %d:\n%s", code, stderr)
	}
}

// JavaRun runs a class from Apache Kafka's jars with the tools' JVM and
// log4j settings, stdin as its input. Real broker only (skips on kfake).
func (e *Env) JavaRun(t testing.TB, class, stdin string, args ...string) (stdout, stderr string, exitCode int) {
	t.Helper()
	e.RequireReal(t, "runs Apache Kafka's Java tools")
	ctx, cancel := context.WithTimeout(context.Background(), javaTimeout)
	defer cancel()
	cmd := javaCommand(t, class, args...)
	cmd = withContext(ctx, cmd)
	var out, errb bytes.Buffer
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout = &out
	cmd.Stderr = &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("kafkatest: %s %q did not finish in %v; stderr:\n%s", class, args, javaTimeout, errb.String())
	}
	var xerr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &xerr):
		exitCode = xerr.ExitCode()
	default:
		t.Fatalf("kafkatest: running %s: %v", class, err)
	}
	return out.String(), errb.String(), exitCode
}

// JavaCommand builds the command that runs class (a class of Apache
// Kafka's jars, or a single-file Java source program, as
// testdata/StreamsGroupApp.java is run) with the tools' JVM and log4j
// settings and Apache Kafka's jars on the classpath, in a process group of
// its own, for tests that start long-running Java clients themselves and
// read their stdout (clienttest). Fails the test when the classpath or java
// is missing.
func JavaCommand(t testing.TB, class string, args ...string) *exec.Cmd {
	t.Helper()
	return javaCommand(t, class, args...)
}

// javaCommand builds `java <tool opts> -cp $KCG_TEST_KAFKA_CLASSPATH class
// args...`. Fails the test when the classpath is missing.
func javaCommand(t testing.TB, class string, args ...string) *exec.Cmd {
	t.Helper()
	cp := os.Getenv(EnvClasspath)
	if cp == "" {
		t.Fatalf("kafkatest: %s is not set; it holds Apache Kafka's jars (.ci/kafka/kafka.sh start writes it to .ci/kafka/.state/env)", EnvClasspath)
	}
	java := "java"
	if home := os.Getenv("JAVA_HOME"); home != "" {
		if p := filepath.Join(home, "bin", "java"); fileExists(p) {
			java = p
		}
	}
	if _, err := exec.LookPath(java); err != nil {
		t.Fatalf("kafkatest: java not found (%v); install a JDK 17+ or set JAVA_HOME", err)
	}
	log4j := toolsLog4j(t)
	full := []string{
		// As kafka-run-class.sh, tuned for start-up time (same as kafka.sh).
		"-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
		"-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + log4j,
	}
	// As kafka-run-class.sh: $KAFKA_OPTS goes to the JVM (a test sets
	// -Djava.security.krb5.conf=... there for GSSAPI, as a user would).
	full = append(full, strings.Fields(os.Getenv("KAFKA_OPTS"))...)
	full = append(full, "-cp", cp, class)
	cmd := exec.Command(java, append(full, args...)...)
	cmd.SysProcAttr = childProcAttr()
	return cmd
}

func withContext(ctx context.Context, cmd *exec.Cmd) *exec.Cmd {
	c := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	c.SysProcAttr = cmd.SysProcAttr
	c.WaitDelay = 5 * time.Second
	return c
}

// toolsLog4j finds the tools' log4j2 config: $KCG_TEST_KAFKA_TOOLS_LOG4J, or
// .ci/kafka/tools-log4j2.yaml in the module that contains the working
// directory (go test runs in the package's folder).
func toolsLog4j(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(EnvToolsLog4j); p != "" {
		if !fileExists(p) {
			t.Fatalf("kafkatest: %s=%s does not exist", EnvToolsLog4j, p)
		}
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if fileExists(filepath.Join(dir, "go.mod")) {
			p := filepath.Join(dir, ".ci", "kafka", "tools-log4j2.yaml")
			if !fileExists(p) {
				t.Fatalf("kafkatest: %s not found; set %s", p, EnvToolsLog4j)
			}
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("kafkatest: no go.mod above the working directory; set %s", EnvToolsLog4j)
		}
		dir = parent
	}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
