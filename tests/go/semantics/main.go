// Command semantics writes the Go profiles that test pcol's pprof semantics
// against go tool pprof: a CPU profile whose samples carry three labels
// (Go 1.19-1.21 write a sample's labels in map order, so one label set
// arrives in several orders), with inlined frames and recursion, and a heap
// profile with many allocation sizes (numeric "bytes" labels for -tagfocus
// ranges).  Standard library only.
//
//	go run ./semantics OUTDIR   (from tests/go)
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"
)

var sink []byte
var total uint64

// step is small enough to be inlined into its callers.
func step(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

func inlineHeavy(x uint64) uint64 {
	for i := 0; i < 20000; i++ {
		x = step(x)
	}
	return x
}

//go:noinline
func recurse(n int, x uint64) uint64 {
	if n == 0 {
		return inlineHeavy(x)
	}
	return recurse(n-1, x+1)
}

// work spends CPU for at least d, and at least n rounds (on a busy machine
// the wall time alone gives few samples).
//
//go:noinline
func work(d time.Duration, n int, depth int) uint64 {
	var x uint64
	end := time.Now().Add(d)
	for i := 0; i < n || time.Now().Before(end); i++ {
		x += recurse(depth, x)
	}
	return x
}

func cpu(dir string) error {
	f, err := os.Create(filepath.Join(dir, "go-cpu-labels3-inline.pb.gz"))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := 0; w < 4; w++ {
		w := w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, phase := range []string{"inline", "deep"} {
				labels := pprof.Labels("worker", strconv.Itoa(w), "phase", phase, "kind", "cpu")
				pprof.Do(context.Background(), labels, func(context.Context) {
					depth := 1
					if phase == "deep" {
						depth = 3
					}
					x := work(time.Duration(50+20*w)*time.Millisecond, 2000+1000*w, depth)
					mu.Lock()
					total += x
					mu.Unlock()
				})
			}
		}()
	}
	wg.Wait()
	pprof.StopCPUProfile()
	return nil
}

//go:noinline
func allocSmall(n int) {
	for i := 0; i < n; i++ {
		sink = make([]byte, 16+i%512)
	}
}

//go:noinline
func allocMedium(n int) {
	for i := 0; i < n; i++ {
		sink = make([]byte, 1024+i%8192)
	}
}

//go:noinline
func allocLarge(n int) {
	for i := 0; i < n; i++ {
		sink = make([]byte, 1<<20+i%4096)
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: semantics OUTDIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	runtime.MemProfileRate = 4096
	if err := cpu(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	allocSmall(20000)
	allocMedium(5000)
	allocLarge(40)
	runtime.GC()
	f, err := os.Create(filepath.Join(dir, "go-heap-sizes.pb.gz"))
	if err == nil {
		err = pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
