// gorx: Go's regexp answers for tests/interop/t_report_regex.sh.  Reads
// JSON lines ["EXPR", "NAME"] on stdin and prints a line each: 1 (the
// expression matches somewhere in the name), 0 (it does not) or E (Go
// refuses the expression).  Standard library only.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	cache := map[string]*regexp.Regexp{}
	bad := map[string]bool{}
	for in.Scan() {
		var pair [2]string
		if err := json.Unmarshal(in.Bytes(), &pair); err != nil {
			fmt.Fprintln(os.Stderr, "gorx:", err)
			os.Exit(2)
		}
		re, ok := cache[pair[0]]
		if !ok && !bad[pair[0]] {
			var err error
			if re, err = regexp.Compile(pair[0]); err != nil {
				bad[pair[0]] = true
			} else {
				cache[pair[0]] = re
			}
		}
		switch {
		case bad[pair[0]]:
			fmt.Fprintln(out, "E")
		case re.MatchString(pair[1]):
			fmt.Fprintln(out, "1")
		default:
			fmt.Fprintln(out, "0")
		}
	}
}
