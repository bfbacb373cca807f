package javaprops

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJAAS(t *testing.T) {
	tests := []struct {
		in      string
		module  string
		options map[string]string
	}{
		{`org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";`,
			PlainLoginModule, map[string]string{"username": "u", "password": "p"}},
		{`org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="s3cr\\et\"x";`,
			ScramLoginModule, map[string]string{"username": "alice", "password": `s3cr\et"x`}},
		{"  org.apache.kafka.common.security.scram.ScramLoginModule   REQUIRED\n\tusername=bob\n password='p w' tokenauth=\"true\" ;  ",
			ScramLoginModule, map[string]string{"username": "bob", "password": "p w", "tokenauth": "true"}},
		{`/* block */ org.apache.kafka.common.security.plain.PlainLoginModule optional // line comment
			username="u" /* inside */ password="tab\there\101\7";`,
			PlainLoginModule, map[string]string{"username": "u", "password": "tab\there" + "A" + "\a"}},
		{`org.apache.kafka.common.security.plain.PlainLoginModule required username="ü-é" password="a;b=c";`,
			PlainLoginModule, map[string]string{"username": "ü-é", "password": "a;b=c"}},
		{`org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="";`,
			PlainLoginModule, map[string]string{"username": "u", "password": ""}},
		{`org.apache.kafka.common.security.plain.PlainLoginModule required;`,
			PlainLoginModule, map[string]string{}},
		{`org.apache.kafka.common.security.plain.PlainLoginModule required user-name=x$y.z-1 password=p;`,
			PlainLoginModule, map[string]string{"user-name": "x$y.z-1", "password": "p"}},
	}
	for _, tt := range tests {
		e, err := ParseJAAS(tt.in)
		if err != nil {
			t.Errorf("ParseJAAS(%q): %v", tt.in, err)
			continue
		}
		if e.Module != tt.module || fmt.Sprint(e.Options) != fmt.Sprint(tt.options) {
			t.Errorf("ParseJAAS(%q) = %s %v, want %s %v", tt.in, e.Module, e.Options, tt.module, tt.options)
		}
	}
}

func TestJAASErrorsNeverEchoSecrets(t *testing.T) {
	const pw = "Pa55w0rdSECRET"
	bad := map[string]string{
		"no semicolon":         `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="` + pw + `"`,
		"no control flag":      `org.apache.kafka.common.security.plain.PlainLoginModule ` + pw + ` username="u";`,
		"no equals":            `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password "` + pw + `";`,
		"unquoted with space":  `org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=abc ` + pw + `;`,
		"stray quote":          `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="ab"` + pw + `";`,
		"number value":         `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password=1` + pw + `;`,
		"two modules":          `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="` + pw + `"; x.Y required;`,
		"starts with password": pw + `"`,
		"empty":                "  // only a comment " + pw,
		"slash comments out ;": `org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=` + pw + `/x;`,
	}
	for name, in := range bad {
		_, err := ParseJAAS(in)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: error echoes the password: %v", name, err)
		}
	}
}

// TestJAASInsidePropertiesFile reads a password through both escape
// layers: the properties format's, then JAAS's.
func TestJAASInsidePropertiesFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "properties", "kafka.properties"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := p.Get("sasl.jaas.config")
	e, err := ParseJAAS(v)
	if err != nil {
		t.Fatal(err)
	}
	if e.Options["password"] != `s3cr\et"x` {
		t.Errorf("password through both escape layers = %q", e.Options["password"])
	}
}
