package extract

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// extractSpan is one extract call.
type extractSpan struct{ from, to int }

// extractRecorder is an ExtractFunc that records its calls and detects any call
// running while another is in flight.
type extractRecorder struct {
	mu         sync.Mutex
	calls      []extractSpan
	inFlight   atomic.Int32
	concurrent atomic.Bool
	// during, when set, runs inside each call (to block or yield).
	during func(call int)
}

func TestCoordinatorSequential(t *testing.T) {
	tests := []struct {
		name      string
		counts    []int
		want      []extractSpan
		watermark int
	}{
		{"nothing", nil, nil, 0},
		{"below threshold", []int{1, 2, 3}, nil, 0},
		{"exactly threshold", []int{4}, []extractSpan{{0, 4}}, 4},
		{"small steps accumulate", []int{1, 2, 3, 4, 5, 6, 7, 8}, []extractSpan{{0, 4}, {4, 8}}, 8},
		{"one big jump", []int{10}, []extractSpan{{0, 10}}, 10},
		{"tail below threshold waits", []int{4, 7}, []extractSpan{{0, 4}}, 4},
		{"count never goes back", []int{8, 3, 11}, []extractSpan{{0, 8}}, 8},
		{"repeated count", []int{5, 5, 5}, []extractSpan{{0, 5}}, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r extractRecorder
			c := NewCoordinator(r.extract)
			for _, n := range tc.counts {
				if err := c.RequestExtraction(context.Background(), n); err != nil {
					t.Fatalf("request %d: %v", n, err)
				}
			}
			if got := r.spans(); !slices.Equal(got, tc.want) {
				t.Errorf("extract calls %v, want %v", got, tc.want)
			}
			st := c.State()
			if st.Watermark != tc.watermark || st.Running || st.Dirty || st.Runs != len(tc.want) {
				t.Errorf("state %+v, want watermark %d, %d runs, idle", st, tc.watermark, len(tc.want))
			}
		})
	}
}

// TestCoordinatorCoalesces holds the first extraction open while more
// requests arrive: they return at once, and exactly one more run covers
// the latest count (a debounce or a queue would behave differently).
func TestCoordinatorCoalesces(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	r := extractRecorder{during: func(call int) {
		if call == 1 {
			close(started)
			<-release
		}
	}}
	c := NewCoordinator(r.extract)
	done := make(chan error)
	go func() { done <- c.RequestExtraction(context.Background(), 4) }()
	<-started
	for _, n := range []int{6, 9, 13, 20} {
		if err := c.RequestExtraction(context.Background(), n); err != nil {
			t.Fatalf("coalesced request %d: %v", n, err)
		}
	}
	if st := c.State(); !st.Running || !st.Dirty || st.Latest != 20 || st.Watermark != 0 {
		t.Errorf("while running: %+v, want running, dirty, latest 20, watermark 0", st)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, want := r.spans(), []extractSpan{{0, 4}, {4, 20}}; !slices.Equal(got, want) {
		t.Errorf("extract calls %v, want %v", got, want)
	}
	if st := c.State(); st.Running || st.Dirty || st.Watermark != 20 {
		t.Errorf("after: %+v, want idle with watermark 20", st)
	}
}

// TestCoordinatorConcurrentRequests is the race test: hundreds of
// goroutines each add a message and request extraction. After they all
// return no state may be skipped: the extractions cover [0, watermark)
// without gaps or overlaps, fewer than MinNewMessages messages are left,
// and extract never ran concurrently with itself. Run with -race.
func TestCoordinatorConcurrentRequests(t *testing.T) {
	const goroutines = 300
	for round := range 20 {
		var r extractRecorder
		r.during = func(int) {
			// Yield inside the extraction so requests pile up meanwhile.
			for range round % 4 {
				runtime.Gosched()
			}
		}
		c := NewCoordinator(r.extract)
		var count atomic.Int64
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(func() {
				n := int(count.Add(1))
				if err := c.RequestExtraction(context.Background(), n); err != nil {
					t.Errorf("request %d: %v", n, err)
				}
			})
		}
		wg.Wait()
		st := c.State()
		checkCoverage(t, fmt.Sprintf("round %d", round), r.spans(), st)
		if goroutines-st.Watermark >= MinNewMessages {
			t.Errorf("round %d: final state skipped: %d messages, watermark %d", round, goroutines, st.Watermark)
		}
		if r.concurrent.Load() {
			t.Errorf("round %d: extract ran concurrently with itself", round)
		}

		// A last burst whose increment reaches the threshold must end
		// with the watermark exactly at the final count.
		final := goroutines + MinNewMessages
		for range 100 {
			wg.Go(func() {
				if err := c.RequestExtraction(context.Background(), final); err != nil {
					t.Errorf("final request: %v", err)
				}
			})
		}
		wg.Wait()
		st = c.State()
		checkCoverage(t, fmt.Sprintf("round %d final", round), r.spans(), st)
		if st.Watermark != final {
			t.Errorf("round %d: watermark %d after the final burst, want %d", round, st.Watermark, final)
		}
	}
}

// checkCoverage asserts the extract calls tile [0, watermark) in order,
// each at least MinNewMessages long, and that the coordinator is idle.
func checkCoverage(t *testing.T, label string, calls []extractSpan, st CoordinatorState) {
	t.Helper()
	if st.Running || st.Dirty {
		t.Errorf("%s: coordinator not idle after all requests returned: %+v", label, st)
	}
	next := 0
	for _, s := range calls {
		if s.from != next || s.to-s.from < MinNewMessages {
			t.Fatalf("%s: extract calls %v: call %v does not continue at %d with at least %d messages", label, calls, s, next, MinNewMessages)
		}
		next = s.to
	}
	if next != st.Watermark || st.Runs != len(calls) {
		t.Errorf("%s: calls end at %d (%d calls), state %+v", label, next, len(calls), st)
	}
}

func TestCoordinatorErrors(t *testing.T) {
	boom := errors.New("model unavailable")
	tests := []struct {
		name    string
		extract func(call int) error
		wantErr string
	}{
		{"error", func(int) error { return boom }, "extract messages 0..5: model unavailable"},
		{"panic", func(int) error { panic("nil map") }, "extract messages 0..5: panic: nil map"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			c := NewCoordinator(func(_ context.Context, from, to int) error {
				calls++
				if calls == 1 {
					return tc.extract(calls)
				}
				return nil
			})
			err := c.RequestExtraction(context.Background(), 5)
			if err == nil || err.Error() != tc.wantErr {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
			if st := c.State(); st.Watermark != 0 || st.Running {
				t.Fatalf("after failure: %+v, want watermark 0 and idle", st)
			}
			// The failed messages are retried by the next request.
			if err := c.RequestExtraction(context.Background(), 5); err != nil {
				t.Fatal(err)
			}
			if st := c.State(); st.Watermark != 5 || calls != 2 {
				t.Errorf("retry: %+v after %d calls, want watermark 5 after 2", st, calls)
			}
		})
	}
}

func TestCoordinatorCancelled(t *testing.T) {
	var r extractRecorder
	c := NewCoordinator(r.extract)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.RequestExtraction(ctx, 8); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(r.spans()) != 0 || c.State().Watermark != 0 {
		t.Fatalf("cancelled request extracted: %v", r.spans())
	}
	if err := c.RequestExtraction(context.Background(), 8); err != nil {
		t.Fatal(err)
	}
	if got := r.spans(); !slices.Equal(got, []extractSpan{{0, 8}}) {
		t.Errorf("calls %v, want [{0 8}]", got)
	}
}

func TestCoordinatorErrorWrapsCause(t *testing.T) {
	boom := errors.New("disk full")
	c := NewCoordinator(func(context.Context, int, int) error { return boom })
	err := c.RequestExtraction(context.Background(), 4)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "0..4") {
		t.Errorf("err = %v, want it to wrap the cause and name the range", err)
	}
}

func (r *extractRecorder) extract(_ context.Context, from, to int) error {
	if r.inFlight.Add(1) != 1 {
		r.concurrent.Store(true)
	}
	defer r.inFlight.Add(-1)
	r.mu.Lock()
	r.calls = append(r.calls, extractSpan{from, to})
	n := len(r.calls)
	r.mu.Unlock()
	if r.during != nil {
		r.during(n)
	}
	return nil
}

func (r *extractRecorder) spans() []extractSpan {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}
