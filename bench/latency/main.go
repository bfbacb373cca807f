// Command latency (bench/latency/run's proxy) puts a network delay between
// its clients and a Kafka cluster: one internal/faultproxy proxy per broker
// in Latency mode, each way -delay, the TCP handshake's round trip
// included, with the brokers' addresses in Metadata and FindCoordinator
// answers rewritten to the proxies'. It prints the proxies' bootstrap
// (comma-joined) on its first line and runs until it is signalled
// (SIGINT or SIGTERM).
//
//	go run ./bench/latency -brokers 127.0.0.1:9092 -delay 25ms
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/kcg-dev/kcg/internal/faultproxy"
)

func main() {
	brokers := flag.String("brokers", "", "the brokers' advertised addresses, comma-separated")
	delay := flag.Duration("delay", 25*time.Millisecond, "one-way delay (the round trip is twice it)")
	flag.Parse()
	if *brokers == "" || *delay < 0 {
		fmt.Fprintln(os.Stderr, "latency: -brokers host:port[,...] is required and -delay must not be negative")
		os.Exit(2)
	}
	pc, err := faultproxy.New(strings.Split(*brokers, ","))
	if err != nil {
		fmt.Fprintln(os.Stderr, "latency:", err)
		os.Exit(1)
	}
	defer pc.Close()
	if *delay > 0 {
		if err := pc.SetAll(faultproxy.Fault{Mode: faultproxy.Latency, Delay: *delay}); err != nil {
			fmt.Fprintln(os.Stderr, "latency:", err)
			os.Exit(1)
		}
	}
	fmt.Println(pc.Bootstrap())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	if errs := pc.Errors(); len(errs) > 0 {
		fmt.Fprintln(os.Stderr, "latency: proxy errors:", errs)
		os.Exit(1)
	}
}
