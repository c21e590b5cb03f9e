// Command mkprofiles writes the Go runtime profiles that pcol's interop
// test round-trips: CPU with pprof.Do labels, heap (four sample types),
// mutex and goroutine.  Standard library only.
//
//	go run . OUTDIR   (from tests/go; stdlib only, nothing to download)
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var sink []byte

//go:noinline
func spin(d time.Duration) uint64 {
	var x uint64
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 10000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	return x
}

//go:noinline
func allocate(n int) {
	for i := 0; i < n; i++ {
		sink = make([]byte, 4096+i%8192)
	}
}

func cpu(dir string) error {
	f, err := os.Create(filepath.Join(dir, "go-cpu-labels.pb.gz"))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, kind := range []string{"fast", "slow"} {
		kind := kind
		wg.Add(1)
		go func() {
			defer wg.Done()
			labels := pprof.Labels("worker", kind, "pcol", "test")
			pprof.Do(context.Background(), labels, func(context.Context) {
				d := 150 * time.Millisecond
				if kind == "slow" {
					d = 350 * time.Millisecond
				}
				spin(d)
				allocate(2000)
			})
		}()
	}
	wg.Wait()
	pprof.StopCPUProfile()
	return nil
}

func mutex() {
	runtime.SetMutexProfileFraction(1)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				mu.Lock()
				spin(20 * time.Microsecond)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

func write(dir, name, file string) error {
	f, err := os.Create(filepath.Join(dir, file))
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup(name).WriteTo(f, 0)
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mkprofiles OUTDIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	runtime.MemProfileRate = 4096 // many heap samples in a short run
	if err := cpu(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mutex()
	allocate(5000)
	runtime.GC()
	// goroutines parked on a channel, so the goroutine profile has stacks
	block := make(chan struct{})
	for i := 0; i < 3; i++ {
		go func() { <-block }()
	}
	time.Sleep(10 * time.Millisecond)
	for _, p := range [][2]string{{"heap", "go-heap.pb.gz"}, {"mutex", "go-mutex.pb.gz"},
		{"goroutine", "go-goroutine.pb.gz"}} {
		if err := write(dir, p[0], p[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	close(block)
}
