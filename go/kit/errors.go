// errors: the two kinds of failure the driver contract tells apart, and how
// they become one line on stderr and an exit status.

package kit

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// UsageError: the driver was invoked wrongly (bad option, too few samples,
// a bad command in serve mode). Exit 2.
type UsageError struct{ Problem string }

func (e *UsageError) Error() string { return e.Problem }

// Usagef makes a UsageError from a format.
func Usagef(format string, args ...any) error {
	return &UsageError{Problem: fmt.Sprintf(format, args...)}
}

// DataError: a file the driver reads is missing, malformed or does not load,
// or the runtime fails during a round. Exit 1. Path names the file (or, for
// a setting, the environment variable) the problem is about.
type DataError struct {
	Path    string
	Problem string
}

func (e *DataError) Error() string { return e.Path + ": " + e.Problem }

// Dataf makes a DataError about path from a format.
func Dataf(path, format string, args ...any) error {
	return &DataError{Path: path, Problem: fmt.Sprintf(format, args...)}
}

// MissingArtifact is the error for an artifact that is not there.
func MissingArtifact(path string) error {
	return Dataf(path, "missing; run `nox -s export` first")
}

// FirstLine is the first non-blank line of a (library's, often multi-line)
// message, so that an error line stays one line.
func FirstLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimRight(line, " \r\t"); line != "" {
			return line
		}
	}
	return "unknown error"
}

// Report writes err as the contract's one line on stderr and returns the exit
// status: 2 for a UsageError, 1 for anything else. With debug the full text
// of an unexpected error goes first.
func Report(stderr io.Writer, id string, err error, debug bool) int {
	var usage *UsageError
	if errors.As(err, &usage) {
		fmt.Fprintf(stderr, "%s: usage: %s\n", id, FirstLine(usage.Problem))
		return 2
	}
	var data *DataError
	if debug && !errors.As(err, &data) {
		fmt.Fprintf(stderr, "%+v\n", err)
	}
	fmt.Fprintf(stderr, "%s: error: %s\n", id, FirstLine(err.Error()))
	return 1
}
