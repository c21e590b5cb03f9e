// Command regexmatch prints Go's regexp.MatchString answers for the
// differential of tests/interop/t_regex.sh, in tests/support/rx_match.c's
// format: stdin, each line hex, holds the number of names, the names, then
// one expression a line; stdout has a line per expression, a 0 or 1 per
// name, or "E " and Go's error when regexp.Compile (what pprof calls)
// refuses it.  Standard library only.
//
//	go build -o DIR/regexmatch ./regexmatch   (from tests/go)
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

func unhex(s string) string {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil {
		fmt.Fprintln(os.Stderr, "regexmatch: bad hex line:", err)
		os.Exit(2)
	}
	return string(b)
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	if !in.Scan() {
		os.Exit(2)
	}
	n, err := strconv.Atoi(strings.TrimSpace(in.Text()))
	if err != nil {
		os.Exit(2)
	}
	names := make([]string, n)
	for i := range names {
		if !in.Scan() {
			os.Exit(2)
		}
		names[i] = unhex(in.Text())
	}
	for in.Scan() {
		re, err := regexp.Compile(unhex(in.Text()))
		if err != nil {
			fmt.Fprintf(out, "E %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		for _, s := range names {
			if re.MatchString(s) {
				out.WriteByte('1')
			} else {
				out.WriteByte('0')
			}
		}
		out.WriteByte('\n')
	}
}
