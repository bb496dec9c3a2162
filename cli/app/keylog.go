package app

import (
	"bufio"
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
)

// KeyLogEnv names a file the app writes, when it quits, one line per
// key it handled: milliseconds since the start, the key, and the
// microseconds its Update and the View after it took (tab-separated).
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
	t0 := time.Now()
	var cmd tea.Cmd
	k.inner, cmd = k.inner.Update(msg)
	k.keys = append(k.keys, keyTime{at: t0.Sub(k.start), key: key.String(), update: time.Since(t0)})
	k.viewing = true
	return k, cmd
}

func (k *keyTimer) View() tea.View {
	if !k.viewing {
		return k.inner.View()
	}
	t0 := time.Now()
	v := k.inner.View()
	k.keys[len(k.keys)-1].view = time.Since(t0)
	k.viewing = false
	return v
}

// unwrap is the app's own model, for what Run does after it quits.
func unwrap(m tea.Model) tea.Model {
	if k, ok := m.(*keyTimer); ok {
		return k.inner
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
		fmt.Fprintf(w, "%d\t%s\t%d\t%d\n", t.at.Milliseconds(), t.key, t.update.Microseconds(), t.view.Microseconds())
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "memscope: %s %s: %v\n", KeyLogEnv, k.path, err)
	}
	f.Close()
}
