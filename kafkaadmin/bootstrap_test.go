package kafkaadmin_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
)

// blackHole accepts connections and reads them, never answering: a
// bootstrap address whose dial succeeds but that will not talk.
func blackHole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 4096)
				for {
					if _, err := c.Read(buf); err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// With a black-holed address among the bootstrap servers, every client
// still reaches the cluster at once: kafka-go alone would pick the black
// hole for about one client in two here and wait for the deadline.
func TestBootstrapSkipsSilentAddress(t *testing.T) {
	e := kafkatest.Cluster(t)
	hole := blackHole(t)
	for i := range 8 {
		cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{hole, e.Bootstrap}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		start := time.Now()
		_, err = cl.Cluster(ctx)
		cancel()
		cl.Close()
		if err != nil || time.Since(start) > 2*time.Second {
			t.Fatalf("client %d with %s black-holed: %v after %v", i, hole, err, time.Since(start))
		}
	}

	// Every address silent: the deadline, with the usual timeout error.
	cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{hole, blackHole(t)}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var te *kafkaadmin.TimeoutError
	if _, err := cl.Cluster(ctx); !errors.As(err, &te) {
		t.Fatalf("every address silent: %v, want the --timeout error", err)
	}
}
