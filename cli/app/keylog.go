package app

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"time"

	tea "charm.land/bubbletea/v2"
)

// KeyLogEnv names a file the app writes, when it quits, one line per
// key it handled: milliseconds since the start, the key, the
// microseconds its Update and the View after it took, and the CPU
// microseconds of the two on their thread (Linux; -1 elsewhere), which a
// busy machine does not stretch as it does the first two
// (tab-separated).
// scripts/startup-keys.sh drives keys during start-up and reads it:
// how long a key takes while background work runs. Hidden on purpose,
// as CPUProfileEnv is.
const KeyLogEnv = "MEMSCOPE_KEYLOG"

// maxKeyLog bounds the keys kept (about 40 bytes each).
const maxKeyLog = 100_000

// keyTimer is the app's model with each key's Update and the View that
// follows it timed. It adds no state the model sees.
type keyTimer struct {
	inner tea.Model
	start time.Time
	keys  []keyTime
	// viewing: the last message was a key, whose View is next.
	viewing bool
	path    string
}

type keyTime struct {
	at           time.Duration
	key          string
	update, view time.Duration
	// cpu is the Update's and the View's CPU time on their thread; -1
	// when not had.
	cpu time.Duration
}

// timeKeys wraps m in a keyTimer when getenv(KeyLogEnv) names a file;
// else it is m.
func timeKeys(m tea.Model, getenv func(string) string) tea.Model {
	path := ""
	if getenv != nil {
		path = getenv(KeyLogEnv)
	}
	if path == "" {
		return m
	}
	return &keyTimer{inner: m, start: time.Now(), path: path}
}

func (k *keyTimer) Init() tea.Cmd { return k.inner.Init() }

func (k *keyTimer) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	key, ok := msg.(tea.KeyPressMsg)
	if !ok || len(k.keys) >= maxKeyLog {
		k.viewing = false
		var cmd tea.Cmd
		k.inner, cmd = k.inner.Update(msg)
		return k, cmd
	}
	// The thread is held through the Update so its CPU time is the
	// Update's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, cok := threadCPU()
	t0 := time.Now()
	var cmd tea.Cmd
	k.inner, cmd = k.inner.Update(msg)
	kt := keyTime{at: t0.Sub(k.start), key: key.String(), update: time.Since(t0), cpu: -1}
	if c1, ok := threadCPU(); ok && cok {
		kt.cpu = c1 - c0
	}
	k.keys = append(k.keys, kt)
	k.viewing = true
	return k, cmd
}

func (k *keyTimer) View() tea.View {
	if !k.viewing {
		return k.inner.View()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, cok := threadCPU()
	t0 := time.Now()
	v := k.inner.View()
	kt := &k.keys[len(k.keys)-1]
	kt.view = time.Since(t0)
	if c1, ok := threadCPU(); ok && cok && kt.cpu >= 0 {
		kt.cpu += c1 - c0
	} else {
		kt.cpu = -1
	}
	k.viewing = false
	return v
}

// unwrap is the app's own model, for what Run does after it quits.
func unwrap(m tea.Model) tea.Model {
	if k, ok := m.(*keyTimer); ok {
		m = k.inner
	}
	if f, ok := m.(*frameViews); ok {
		m = f.inner
	}
	return m
}

// writeKeyLog writes the log (a keyTimer only); a log that cannot be written
// is reported on stderr.
func writeKeyLog(m tea.Model) {
	k, ok := m.(*keyTimer)
	if !ok {
		return
	}
	f, err := os.Create(k.path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "memscope: %s: %v\n", KeyLogEnv, err)
		return
	}
	w := bufio.NewWriter(f)
	for _, t := range k.keys {
		cpu := int64(-1)
		if t.cpu >= 0 {
			cpu = t.cpu.Microseconds()
		}
		fmt.Fprintf(w, "%d\t%s\t%d\t%d\t%d\n", t.at.Milliseconds(), t.key, t.update.Microseconds(), t.view.Microseconds(), cpu)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "memscope: %s %s: %v\n", KeyLogEnv, k.path, err)
	}
	f.Close()
}
