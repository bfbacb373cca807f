package clienttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// TestMain compiles the Java members (testdata/*.java) once, when Apache
// Kafka's jars are there (KCG_TEST_KAFKA_CLASSPATH), and puts the classes
// before the jars on that classpath: run as single-file source programs,
// each of the suite's two dozen Java starts compiled its source again
// (1-2 s of CPU each on the shared 2-core CI machine).
func TestMain(m *testing.M) {
	dir, err := compileJava()
	if err != nil {
		fmt.Fprintln(os.Stderr, "clienttest:", err)
		os.Exit(1)
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// javaClasses is true when compileJava compiled the members: start them
// by class name, not as source files.
var javaClasses bool

func compileJava() (string, error) {
	cp := os.Getenv(kafkatest.EnvClasspath)
	if cp == "" {
		return "", nil // no jars: the Java members skip (real broker only)
	}
	javac := "javac"
	if home := os.Getenv("JAVA_HOME"); home != "" {
		javac = filepath.Join(home, "bin", "javac")
	}
	if _, err := exec.LookPath(javac); err != nil {
		return "", nil // a JRE only: run the sources as single-file programs
	}
	dir, err := os.MkdirTemp("", "kcg-clienttest-java")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(javac, "-nowarn", "-cp", cp, "-d", dir,
		testdata("JavaMember.java"), testdata("StreamsMember.java")).CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("javac of testdata/*.java: %v\n%s", err, strings.TrimSpace(string(out)))
	}
	javaClasses = true
	return dir, os.Setenv(kafkatest.EnvClasspath, dir+string(os.PathListSeparator)+cp)
}

// javaProgram is how to name a Java member to kafkatest.JavaCommand: its
// class compiled by TestMain, or its source file.
func javaProgram(name string) string {
	if javaClasses {
		return name
	}
	return testdata(name + ".java")
}
