package ui

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/keymap"
)

// lazyLoads names, for each pane whose pane-table row loads on focus,
// the feed messages that are its load.
var lazyLoads = map[string][]string{
	"Overview":  {"feed.OverviewLine"},
	"Retention": {"feed.RetentionLoaded"},
	"Files":     {"feed.FileSessions"},
	"Security":  {"feed.SecretsLoaded"},
	// history.jsonl is read at start (the Overview counts from it); the
	// paste inventory behind these two when one is first shown.
	"History": {"feed.PastesChecked"},
	"Pastes":  {"feed.PastesChecked"},
}

// The pane table's lazy column is what the shell loads by: a pane whose
// row says it loads on focus is not read at start-up while another pane
// is focused, and focusing it reads it.
func TestLazyPanesLoadOnFocus(t *testing.T) {
	for i, r := range paneTable {
		name := keymap.Panes[i].Name
		if r.lazy != (lazyLoads[name] != nil) {
			t.Errorf("%s: its row says lazy %v; this test's list says %v", name, r.lazy, lazyLoads[name] != nil)
		}
	}
	seen := map[string]int{}
	spy := func(msg tea.Msg) { seen[strings.TrimPrefix(reflect.TypeOf(msg).String(), "ui.")]++ }
	// started is an app started on the Projects pane (its feeds its
	// own: History and Pastes share one).
	started := func() Model {
		m := New(Options{Home: fixedHome(t), Root: fstest.MapFS{}, Project: betaProject, Writes: testroot.Writer(t),
			Now: func() time.Time { return testNow }, Getenv: func(k string) string {
				if k == "NO_COLOR" {
					return "1"
				}
				return ""
			}})
		m.setFocus(paneProjects)
		return drainWith(t, m, m.Init(), spy)
	}
	started()
	for name, types := range lazyLoads {
		for _, ty := range types {
			if seen[ty] > 0 {
				t.Errorf("%s was read (%s) before it was focused", name, ty)
			}
		}
	}
	for i := range paneTable {
		types := lazyLoads[keymap.Panes[i].Name]
		if types == nil {
			continue
		}
		f := started()
		clear(seen)
		f = drainWith(t, f, f.setFocus(i), spy)
		n := 0
		for _, ty := range types {
			n += seen[ty]
		}
		if n == 0 {
			t.Errorf("focusing %s did not read it (saw %v)", keymap.Panes[i].Name, seen)
		}
	}
}
