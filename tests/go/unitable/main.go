// Command unitable writes lib/core/regex_unicode.h: the Unicode classes of
// Go's regexp (\pL, \p{Greek}: unicode.Categories and unicode.Scripts, the
// tables regexp/syntax reads) as sorted ranges of code points, each one
// uint32 (lo << 11 | hi - lo, ranges longer than 2048 split).  It checks
// that each class's fold table (unicode.FoldCategory, FoldScript, what Go
// adds under (?i)) is the class closed under unicode.SimpleFold, which is
// what regex_go.c computes (cs_fold).  Standard library only.
//
//	go run ./unitable >../../lib/core/regex_unicode.h   (from tests/go)
//	go run ./unitable -js   the line of lib/query/report/regex.js that names Go's scripts
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode"
)

type rng struct{ lo, hi rune }

func ranges(t *unicode.RangeTable) []rng {
	var r []rng
	add := func(c rune) {
		if n := len(r); n > 0 && r[n-1].hi == c-1 {
			r[n-1].hi = c
		} else {
			r = append(r, rng{c, c})
		}
	}
	for _, x := range t.R16 {
		for c := rune(x.Lo); c <= rune(x.Hi); c += rune(x.Stride) {
			add(c)
		}
	}
	for _, x := range t.R32 {
		for c := rune(x.Lo); c <= rune(x.Hi); c += rune(x.Stride) {
			add(c)
		}
	}
	return r
}

// checkFold: t plus fold is t closed under SimpleFold.
func checkFold(name string, t, fold *unicode.RangeTable) {
	for c := rune(0); c <= unicode.MaxRune; c++ {
		closed := unicode.Is(t, c)
		for f := unicode.SimpleFold(c); !closed && f != c; f = unicode.SimpleFold(f) {
			closed = unicode.Is(t, f)
		}
		got := unicode.Is(t, c) || (fold != nil && unicode.Is(fold, c))
		if got != closed {
			fmt.Fprintf(os.Stderr, "unitable: %s's fold table is not its SimpleFold closure at U+%04X\n", name, c)
			os.Exit(1)
		}
	}
}

// wrap: the items, comma separated, in lines of at most 100, then "};".
func wrap(b *strings.Builder, items []string) {
	line := " "
	for i, w := range items {
		if i < len(items)-1 {
			w += ","
		}
		if len(line)+len(w)+1 > 100 {
			b.WriteString(line + "\n")
			line = " "
		}
		line += " " + w
	}
	b.WriteString(line + "\n};\n")
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-js" {
		var names []string
		for name := range unicode.Scripts {
			names = append(names, name)
		}
		sort.Strings(names)
		fmt.Printf("var PCOL_RX_SCRIPTS = ' %s ';\n", strings.Join(names, " "))
		return
	}
	type class struct {
		name string
		r    []rng
	}
	var cls []class
	for name, t := range unicode.Categories {
		checkFold(name, t, unicode.FoldCategory[name])
		cls = append(cls, class{name, ranges(t)})
	}
	for name, t := range unicode.Scripts {
		if unicode.Categories[name] != nil {
			continue // (Go's regexp looks at the categories first)
		}
		checkFold(name, t, unicode.FoldScript[name])
		cls = append(cls, class{name, ranges(t)})
	}
	sort.Slice(cls, func(i, j int) bool { return cls[i].name < cls[j].name })
	var b strings.Builder
	fmt.Fprintf(&b, "/* regex_unicode.h — the Unicode classes of Go's regexp (\\pL, \\p{Greek}:\n")
	fmt.Fprintf(&b, " * unicode.Categories and unicode.Scripts, Unicode %s) as sorted ranges,\n", unicode.Version)
	b.WriteString(" * each lo << 11 | (hi - lo); uni_classes[i] has uni_ranges[first, first + n).\n")
	b.WriteString(" * Written by tests/go/unitable (go run ./unitable >../../lib/core/regex_unicode.h\n")
	b.WriteString(" * in tests/go); tests/interop/t_regex.sh checks it is what the Go there gives. */\n")
	var words []string
	type ent struct {
		name     string
		first, n int
	}
	var ents []ent
	for _, c := range cls {
		first := len(words)
		for _, r := range c.r {
			for lo := r.lo; lo <= r.hi; lo += 2048 {
				hi := lo + 2047
				if hi > r.hi {
					hi = r.hi
				}
				words = append(words, fmt.Sprintf("0x%x", uint32(lo)<<11|uint32(hi-lo)))
			}
		}
		ents = append(ents, ent{c.name, first, len(words) - first})
	}
	fmt.Fprintf(&b, "static const uint32_t uni_ranges[%d] = {\n", len(words))
	wrap(&b, words)
	fmt.Fprintf(&b, "static const struct uni_class {\n  const char *name;\n  uint16_t first, n;\n} uni_classes[%d] = {\n", len(ents))
	var es []string
	for _, e := range ents {
		es = append(es, fmt.Sprintf("{\"%s\", %d, %d}", e.name, e.first, e.n))
	}
	wrap(&b, es)
	os.Stdout.WriteString(b.String())
}
