package ui

import (
	"strings"
	"testing"
)

// TestProjectsMarkFollowsEnter: ▸ moves to the project enter opened at
// once, without a reload.
func TestProjectsMarkFollowsEnter(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m = press(t, m, "2", "g", "enter")
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, "▸") && !strings.Contains(l, "/home/me/bad") {
			t.Fatalf("▸ is on another project than the one opened:\n%s", screen(m))
		}
	}
	if !strings.Contains(screen(m), "▸") {
		t.Fatalf("no project is marked open:\n%s", screen(m))
	}
}

// TestFilterMatchesBadges: "/stale" on Memories keeps the stale rows only,
// and a filter matching nothing says so.
func TestFilterMatchesBadges(t *testing.T) {
	m := sharedDemoModel(t, 120, 40)
	m = press(t, m, "4", "/", "s", "t", "a", "l", "e", "enter")
	rows := 0
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, " fresh ") || strings.Contains(l, " aging ") {
			t.Errorf("/stale keeps a row that is not stale: %q", l)
		}
		if strings.Contains(l, " stale ") {
			rows++
		}
	}
	if rows == 0 {
		t.Fatalf("/stale finds no stale row:\n%s", screen(m))
	}
	m = press(t, m, "esc", "/", "x", "y", "z", "q")
	if s := screen(m); !strings.Contains(s, "no row matches /xyzq") || strings.Contains(s, "no memory files") {
		t.Fatalf("a filter matching nothing:\n%s", s)
	}
}

// TestDemoBannerSaysWhy: the demo banner says "no Claude home found" only
// when none was; asked for with --demo, it says so.
func TestDemoBannerSaysWhy(t *testing.T) {
	m := Model{opts: Options{Demo: true, DemoAsked: true}}
	if b := m.bannerText(); strings.Contains(b, "no Claude home found") || !strings.Contains(b, "--demo") {
		t.Errorf("--demo banner: %q", b)
	}
	m.opts.DemoAsked = false
	if b := m.bannerText(); !strings.Contains(b, "no Claude home found") {
		t.Errorf("fallback demo banner: %q", b)
	}
}
