// Command serve runs Go's own profile endpoints (net/http/pprof) for
// t_fetch_go.sh: a server on 127.0.0.1 (a free port, written to PORTFILE)
// that spins in a labelled goroutine and keeps some memory, and stops
// after SECONDS.  Standard library only.
//
//	go run ./serve PORTFILE SECONDS   (from tests/go)
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

var keep [][]byte

//go:noinline
func spin(stop <-chan struct{}) uint64 {
	var x uint64
	for {
		select {
		case <-stop:
			return x
		default:
		}
		for i := 0; i < 100000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
}

//go:noinline
func hold() {
	for i := 0; i < 64; i++ {
		keep = append(keep, make([]byte, 64<<10))
	}
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: serve PORTFILE SECONDS")
		os.Exit(2)
	}
	secs, err := strconv.Atoi(os.Args[2])
	if err != nil {
		panic(err)
	}
	hold()
	stop := make(chan struct{})
	go pprof.Do(context.Background(), pprof.Labels("worker", "spinner"), func(context.Context) { spin(stop) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := os.WriteFile(os.Args[1]+".tmp", []byte(strconv.Itoa(port)), 0o644); err != nil {
		panic(err)
	}
	if err := os.Rename(os.Args[1]+".tmp", os.Args[1]); err != nil {
		panic(err)
	}
	time.AfterFunc(time.Duration(secs)*time.Second, func() { close(stop); os.Exit(0) })
	panic(http.Serve(ln, nil))
}
