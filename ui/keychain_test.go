package ui

import (
	"strings"
	"sync"
	"testing"
)

// keyChain makes the app after a sequence of keys for tests that only
// read the result (a screen, a help line): the app is loaded once
// (base), the model after each sequence is kept, and a longer sequence
// forks the model after its sequence one key shorter and presses its
// last key. So tests whose keys share a start ("7", "7 G enter", "7 G
// enter [") load the app once and press each key once. A fork has panes
// of its own but shares the feeds; a lazily read pane's data comes when
// its pane is focused, which happens once, in the sequence that focuses
// it, and every longer sequence forks from there. base runs with the
// first test that asks (its folders must outlive the chain: make them
// in the test that makes the chain).
type keyChain struct {
	mu   sync.Mutex
	base func(t testing.TB) Model
	made map[string]Model
}

func newKeyChain(base func(t testing.TB) Model) *keyChain {
	return &keyChain{base: base, made: map[string]Model{}}
}

// at is the app after keys (shared: fork it to press more).
func (c *keyChain) at(t testing.TB, keys ...string) Model {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.after(t, keys)
}

func (c *keyChain) after(t testing.TB, keys []string) Model {
	t.Helper()
	k := strings.Join(keys, "\x00")
	if m, ok := c.made[k]; ok {
		return m
	}
	var m Model
	if len(keys) == 0 {
		m = c.base(t)
	} else {
		m = press(t, fork(c.after(t, keys[:len(keys)-1])), keys[len(keys)-1])
	}
	c.made[k] = m
	return m
}
