// Command foldtable writes lib/core/regex_fold.h: Go's simple case folding
// (unicode.SimpleFold, whose orbits Go's regexp matches under (?i)) as runs
// of code points that fold by the same difference.  Standard library only.
//
//	go run ./foldtable >../../lib/core/regex_fold.h   (from tests/go)
package main

import (
	"fmt"
	"os"
	"strings"
	"unicode"
)

type run struct {
	lo, hi rune
	d      int32 // SimpleFold(c) - c; alt: +d for even c, -d for odd
	alt    bool
}

func main() {
	var runs []run
	for c := rune(0); c <= unicode.MaxRune; c++ {
		f := unicode.SimpleFold(c)
		if f == c {
			continue
		}
		d := int32(f - c)
		if n := len(runs); n > 0 && runs[n-1].hi == c-1 {
			r := &runs[n-1]
			want := r.d // the d that would continue r
			if r.alt && (c-r.lo)%2 == 1 {
				want = -r.d
			}
			if d == want {
				r.hi = c
				continue
			}
			if r.lo == r.hi && (d == 1 || d == -1) && d == -r.d { // a pair: alternate
				r.alt, r.hi = true, c
				continue
			}
		}
		runs = append(runs, run{c, c, d, false})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "/* regex_fold.h — Go's simple case folding (unicode.SimpleFold, Unicode %s),\n", unicode.Version)
	b.WriteString(" * which Go's regexp matches under (?i): c folds to c + d for c in\n")
	b.WriteString(" * [lo, hi]; when alt, d for the first c, -d for the next and so on.\n")
	b.WriteString(" * Written by tests/go/foldtable (go run ./foldtable >../../lib/core/regex_fold.h\n")
	b.WriteString(" * in tests/go); tests/interop/t_regex.sh checks it is what the Go there gives. */\n")
	fmt.Fprintf(&b, "static const struct fold_run {\n  uint32_t lo, hi;\n  int32_t d;\n  uint8_t alt;\n} fold_runs[%d] = {\n", len(runs))
	line := "  "
	for i, r := range runs {
		alt := 0
		if r.alt {
			alt = 1
		}
		e := fmt.Sprintf("{0x%x, 0x%x, %d, %d}", r.lo, r.hi, r.d, alt)
		if i < len(runs)-1 {
			e += ","
		}
		if len(line)+len(e)+1 > 100 {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = "  "
		}
		line += e + " "
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n};\n")
	os.Stdout.WriteString(b.String())
}
