package kit

import (
	"errors"
	"strings"
	"testing"
)

func TestReportUsageIsExit2OneLine(t *testing.T) {
	var stderr strings.Builder
	status := Report(&stderr, "go-x", Usagef("--calls must be >= 1, got 0"), true)
	if status != 2 || stderr.String() != "go-x: usage: --calls must be >= 1, got 0\n" {
		t.Fatalf("status %d, stderr %q", status, stderr.String())
	}
}

func TestReportDataIsExit1NamingTheFile(t *testing.T) {
	var stderr strings.Builder
	status := Report(&stderr, "go-x", MissingArtifact("models/mlp.onnx"), false)
	want := "go-x: error: models/mlp.onnx: missing; run `nox -s export` first\n"
	if status != 1 || stderr.String() != want {
		t.Fatalf("status %d, stderr %q", status, stderr.String())
	}
}

func TestReportKeepsOneLine(t *testing.T) {
	var stderr strings.Builder
	status := Report(&stderr, "go-x", errors.New("\n  first\nsecond\n"), false)
	if status != 1 || stderr.String() != "go-x: error:   first\n" {
		t.Fatalf("status %d, stderr %q", status, stderr.String())
	}
}

func TestReportDebugShowsTheFullTextFirst(t *testing.T) {
	var stderr strings.Builder
	Report(&stderr, "go-x", errors.New("first\nsecond"), true)
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if len(lines) != 3 || lines[len(lines)-1] != "go-x: error: first" {
		t.Fatalf("stderr %q", stderr.String())
	}
}

func TestFirstLine(t *testing.T) {
	if got := FirstLine(" \n\r\nabc \r\ndef"); got != "abc" {
		t.Fatalf("got %q", got)
	}
	if got := FirstLine(""); got != "unknown error" {
		t.Fatalf("got %q", got)
	}
}
