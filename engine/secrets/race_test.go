package secrets

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// writerStyle is one way a process appends lines to a file.
type writerStyle int

const (
	// perLine opens, appends one line and closes, as a logger does (and
	// as the client appends to a transcript and to history.jsonl).
	perLine writerStyle = iota
	// held keeps one descriptor open over a burst of lines.
	held
	// split writes each line in two parts (a long line's write may be
	// cut), opening and closing around the pair.
	split
)

func (s writerStyle) String() string { return [...]string{"per-line", "held", "split"}[s] }

// raceWriter appends numbered lines to file until stop is closed, and
// reports how many it wrote whole (a line whose write failed part way is
// not counted, and fails the test).
// Writers of one file take turns (mu), as the appends of one client
// do: two writers' split lines would tear each other without the scrub.
// It starts after delay (so its appends fall at every step of a scrub
// across the rounds) and writes at most maxLines; each whole line adds
// one to lines.
func raceWriter(t *testing.T, file string, style writerStyle, tag string, mu *sync.Mutex, delay time.Duration, stop <-chan struct{}, started chan<- struct{}, wrote *int, lines *atomic.Int64, wg *sync.WaitGroup) {
	defer wg.Done()
	once0 := sync.Once{}
	once0.Do(func() { close(started) })
	time.Sleep(delay)
	line := func(n int) string {
		return fmt.Sprintf(`{"type":"queue-operation","operation":"enqueue","w":%q,"n":%d}`+"\n", tag, n)
	}
	n := 0
	for n < maxLines {
		select {
		case <-stop:
			*wrote = n
			return
		default:
		}
		mu.Lock()
		f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			mu.Unlock()
			t.Errorf("%s: open: %v", tag, err)
			*wrote = n
			return
		}
		burst := 1
		if style == held {
			burst = 8
		}
		for range burst {
			l := line(n)
			if style == split {
				cut := len(l) / 2
				_, err = f.WriteString(l[:cut])
				if err == nil {
					_, err = f.WriteString(l[cut:])
				}
			} else {
				_, err = f.WriteString(l)
			}
			if err != nil {
				t.Errorf("%s: write: %v", tag, err)
				break
			}
			n++
			lines.Add(1)
			if style == held {
				time.Sleep(50 * time.Microsecond)
			}
		}
		f.Close()
		mu.Unlock()
		time.Sleep(20 * time.Microsecond)
	}
	*wrote = n
}

// maxLines bounds what one writer appends in a round.
const maxLines = 40

// countLines checks every line of data parses and counts the lines each
// writer tag appended, failing on a line seen twice.
func countLines(t *testing.T, file string, data []byte) map[string]int {
	t.Helper()
	got := map[string]int{}
	seen := map[string]bool{}
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if !json.Valid([]byte(l)) {
			t.Fatalf("%s line %d does not parse: %.120q", file, i+1, l)
		}
		var r struct {
			W string `json:"w"`
			N int    `json:"n"`
		}
		if json.Unmarshal([]byte(l), &r) != nil || r.W == "" {
			continue
		}
		k := fmt.Sprintf("%s/%d", r.W, r.N)
		if seen[k] {
			t.Fatalf("%s: line %s is there twice", file, k)
		}
		seen[k] = true
		got[r.W]++
	}
	return got
}

// raceWave is one writer of a wave: its file, tag and lines written.
type raceWave struct {
	file, tag string
	wrote     int
}

// withWriters runs op beside one wave of writers: on each file, one
// writer of each style, started at staggered moments, tags prefixed by
// wave. during is how many lines the writers appended while op ran.
func withWriters(t *testing.T, files []string, round int, wave string, op func() error) (ws []*raceWave, during int64, err error) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var starts []chan struct{}
	var lines atomic.Int64
	for fi, file := range files {
		mu := &sync.Mutex{}
		for _, style := range []writerStyle{perLine, held, split} {
			x := &raceWave{file: file, tag: fmt.Sprintf("%s%d-%s", wave, fi, style)}
			ws = append(ws, x)
			st := make(chan struct{})
			starts = append(starts, st)
			wg.Add(1)
			delay := time.Duration((round*7+len(ws)*3)%40) * 100 * time.Microsecond
			go raceWriter(t, file, style, x.tag, mu, delay, stop, st, &x.wrote, &lines, &wg)
		}
	}
	for _, st := range starts {
		<-st
	}
	before := lines.Load()
	err = op()
	during = lines.Load() - before
	close(stop)
	wg.Wait()
	return ws, during, err
}

// checkLines fails unless every line every writer of ws wrote is in its
// file once and whole, and every line parses.
func checkLines(t *testing.T, round int, what string, files []string, ws []*raceWave, err error) {
	t.Helper()
	for _, file := range files {
		data, rerr := os.ReadFile(file)
		if rerr != nil {
			t.Fatal(rerr)
		}
		got := countLines(t, file, data)
		for _, x := range ws {
			if x.file == file && got[x.tag] != x.wrote {
				t.Fatalf("round %d: %s: writer %s wrote %d lines, %d are in the file (%s: %v)", round, file, x.tag, x.wrote, got[x.tag], what, err)
			}
		}
	}
}

// A scrub beside writers that append to the same transcript and to
// history.jsonl (each file: one writer opening and closing per line, one
// holding its descriptor over bursts, one writing each line in two
// parts) never loses a byte: in every round each line each writer wrote
// is in the file once and whole, whether the scrub landed or refused.
// Every fourth round that landed, the scrub is restored beside a second
// wave of writers, with the same promise, and the secrets are back.
// 1 000 rounds with MEMSCOPE_LONG=1; otherwise the rounds stop once
// raceScrubs scrubs and raceRestores restores ran while a writer
// appended (at most 60 rounds, and the test fails if they did not).
func TestScrubRaceWithWriters(t *testing.T) {
	t.Parallel()
	rounds := testenv.Size(t, 1000, 60)
	landed, refused, restored := 0, 0, 0
	// Rounds in which lines were appended while the scrub, or a
	// restore, ran: the interleavings the test is for.
	raced, racedRestores := 0, 0
	errs := map[string]int{}
	w := store.WithOSExchange(faultfs.NoSync{})
	for round := range rounds {
		l, h := plantedHome(t)
		files := []string{h.Abs(l.Transcript), h.Abs("history.jsonl")}
		var res Result
		// The idle rule off: only the checks against the disk stand in
		// the way, as when a writer starts after the plan. No fsync (the
		// race is in the names, not the disk); the exchange production
		// takes.
		busy := BusyOptions{Now: time.Now().Add(time.Hour), Idle: time.Nanosecond}
		ws, during, err := withWriters(t, files, round, "", func() error {
			o := Options{Home: h}
			p := PlanScrub(o, Scan(o), nil, busy)
			var err error
			res, err = Apply(ApplyOptions{Home: h, Write: w, Busy: busy, Now: now}, p)
			return err
		})
		if during > 0 {
			raced++
		}
		if err == nil {
			landed++
		} else {
			refused++
			errs[firstWords(strings.ReplaceAll(err.Error(), h.Dir+"/", ""), 8)]++
		}
		checkLines(t, round, "scrub", files, ws, err)
		if err == nil && round%4 == 0 {
			ws2, rduring, rerr := withWriters(t, files, round+1, "r", func() error {
				_, err := Restore(ApplyOptions{Home: h, Write: w, Now: now}, res.ID)
				return err
			})
			checkLines(t, round, "restore", files, append(ws, ws2...), rerr)
			if rduring > 0 {
				racedRestores++
			}
			if rerr == nil {
				restored++
				if data, _ := os.ReadFile(files[0]); !strings.Contains(string(data), l.Planted[0].Secret) {
					t.Fatalf("round %d: restored, but the secret is not back", round)
				}
			}
		}
		if leftovers, _ := hiddenFiles(h.Dir); len(leftovers) > 0 {
			t.Fatalf("round %d: hidden files left: %v (scrub: %v)", round, leftovers, err)
		}
		if !testenv.Long() && raced >= raceScrubs && racedRestores >= raceRestores {
			rounds = round + 1
			break
		}
	}
	t.Logf("%d rounds: %d landed (%d restored beside writers), %d refused %v; lines appended during %d scrubs and %d restores", rounds, landed, restored, refused, errs, raced, racedRestores)
	if !testenv.Long() && (raced < raceScrubs || racedRestores < raceRestores) {
		t.Fatalf("in %d rounds lines were appended during %d scrubs and %d restores, want %d and %d: the writers did not race the scrub", rounds, raced, racedRestores, raceScrubs, raceRestores)
	}
}

// The interleavings TestScrubRaceWithWriters waits for by default:
// scrubs, and restores, during which a writer appended lines.
const raceScrubs, raceRestores = 20, 5

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// hiddenFiles lists memscope's hidden files anywhere under dir.
func hiddenFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if _, ok := model.ParseOwnCopy(d.Name()); ok {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}
