package kafkaadmin

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRetryBoundAndContext(t *testing.T) {
	calls := 0
	err := retry(context.Background(), 2, func(attempt int) bool {
		if attempt != calls {
			t.Errorf("attempt %d on call %d", attempt, calls)
		}
		calls++
		return true
	})
	if !errors.Is(err, errRetriesExhausted) || calls != 3 {
		t.Errorf("retries=2: %d calls, err = %v; want 3 calls and errRetriesExhausted", calls, err)
	}

	calls = 0
	if err := retry(context.Background(), 5, func(int) bool { calls++; return calls < 2 }); err != nil || calls != 2 {
		t.Errorf("done on the second call: %d calls, err = %v", calls, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls = 0
	if err := retry(ctx, 5, func(int) bool { calls++; return true }); !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("cancelled context: %d calls, err = %v; want 1 call and context.Canceled", calls, err)
	}
}

func TestJitterStaysWithinBackoff(t *testing.T) {
	for _, b := range []time.Duration{retryFirstBackoff, retryMaxBackoff} {
		for range 100 {
			if j := jitter(b); j < b/2 || j > b {
				t.Fatalf("jitter(%s) = %s, want within [%s, %s]", b, j, b/2, b)
			}
		}
	}
}

// A retry loop stops while retryReserve is still left on the deadline, so
// its caller can report what it has before --timeout ends the command.
func TestRetryLeavesReserve(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), retryReserve+300*time.Millisecond)
	defer cancel()
	start := time.Now()
	calls := 0
	err := retry(ctx, 1000, func(int) bool { calls++; return true })
	if !errors.Is(err, errRetriesExhausted) || ctx.Err() != nil {
		t.Fatalf("err = %v, context %v after %v and %d calls; want errRetriesExhausted with the context still live", err, ctx.Err(), time.Since(start), calls)
	}
	if calls < 2 {
		t.Fatalf("%d calls: the loop should retry while the reserve is not reached", calls)
	}
	dl, _ := ctx.Deadline()
	if left := time.Until(dl); left < retryReserve-50*time.Millisecond {
		t.Fatalf("stopped with %v left, want at least the reserve %v", left, retryReserve)
	}

	// Without a deadline only the bound stops it.
	calls = 0
	if err := retry(context.Background(), 3, func(int) bool { calls++; return true }); !errors.Is(err, errRetriesExhausted) || calls != 4 {
		t.Fatalf("no deadline: %d calls, %v", calls, err)
	}
}
