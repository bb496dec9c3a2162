package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// BenchmarkReloadAfterAppend is what the app spends when Claude Code
// appends to the session it shows: one history line and one ~1 KB
// transcript line are appended, then the app hands the two paths to the
// Live pane's tracker, reloads what they name and draws its screen. It runs on homes of several sizes
// from scripts/memscope-gen, kept in the user's cache folder
// (MEMSCOPE_BENCH_SIZES, default "16M 64M 256M"; the targets use
// "W/4 W/2 W"): the time per op should not grow with the home.
func BenchmarkReloadAfterAppend(b *testing.B) {
	for _, size := range genhome.BenchSizes("16M", "64M", "256M") {
		b.Run("size="+size, func(b *testing.B) {
			base, err := genhome.Cached(size, "1")
			if err != nil {
				b.Fatalf("scripts/memscope-gen (in this repository) failed: %v", err)
			}
			benchReload(b, base)
		})
	}
}

func benchReload(b *testing.B, base string) {
	project, transcript := biggestSession(b, base)
	hist := filepath.Join(base, model.HistoryPath)
	home := linkedCopy(b, base, hist, transcript)
	hist = filepath.Join(home, model.HistoryPath)
	transcript = filepath.Join(home, transcript[len(base)+1:])
	m := openBench(b, home, project)
	if len(m.feeds.sessions.List()) == 0 || m.feeds.history.History() == nil {
		b.Fatal("the home did not load")
	}
	paths := []string{hist, transcript}
	var c change
	for _, p := range paths {
		c.merge(classify(home, p))
	}
	// The transcript line is ~1 KB; MEMSCOPE_BENCH_LINE_BYTES makes it
	// longer, for the cost per KB appended.
	padBytes := 900
	if n, err := strconv.Atoi(os.Getenv("MEMSCOPE_BENCH_LINE_BYTES")); err == nil && n > 100 {
		padBytes = n - 100
	}
	pad := strings.Repeat("x", padBytes)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		appendTo(b, hist, fmt.Sprintf(`{"display":"benchmark prompt %d","pastedContents":{},"timestamp":%d,"project":%q,"sessionId":"bench"}`, i, time.Now().UnixMilli(), project))
		appendTo(b, transcript, fmt.Sprintf(`{"type":"user","timestamp":%q,"sessionId":"bench","uuid":"u%d","message":{"role":"user","content":"line %d %s"}}`, time.Now().UTC().Format(time.RFC3339Nano), i, i, pad))
		c0 := testenv.ProcessCPU()
		b.StartTimer()
		// What the events and their debounce tick start: the Live pane's
		// tracker and the reload of the stores they name.
		m = drain(b, m, tea.Batch(m.fileEvents(paths), m.reload(c)))
		_ = m.View()
		b.StopTimer()
		cpu += testenv.ProcessCPU() - c0
		b.StartTimer()
	}
	// CPU time, the collector's included, is what the app spends; on a
	// shared machine the wall time also counts waiting for a core.
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkReloadAfterMemoryWrite is the same for a memory file written
// in the open project (of the 64 MB home, 80 memory files): the project's
// memory is read and checked again (lint, the prune plan), and only the
// changed file's Markdown is rendered again.
func BenchmarkReloadAfterMemoryWrite(b *testing.B) {
	base, err := genhome.Cached("64M", "1")
	if err != nil {
		b.Fatalf("scripts/memscope-gen (in this repository) failed: %v", err)
	}
	project, _ := biggestSession(b, base)
	home := linkedCopy(b, base)
	m := openBench(b, home, project)
	mem := filepath.Join(home, "projects", m.data.open, "memory", "bench_note.md")
	c := classify(home, mem)
	var cpu time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		if err := os.WriteFile(mem, fmt.Appendf(nil, "---\nname: bench %d\ndescription: d\ntype: project\n---\nbody %d\n", i, i), 0o600); err != nil {
			b.Fatal(err)
		}
		c0 := testenv.ProcessCPU()
		b.StartTimer()
		m = drain(b, m, m.reload(c))
		_ = m.View()
		b.StopTimer()
		cpu += testenv.ProcessCPU() - c0
		b.StartTimer()
	}
	// The CPU time: on a shared machine the wall time counts the wait
	// for a core too.
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
	if len(m.feeds.project.Cur().Rows) == 0 {
		b.Fatal("no memory rows")
	}
}

// openBench opens the app on the home at dir, on project, loaded and
// drawn at 160 × 50.
func openBench(b *testing.B, dir, project string) Model {
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		b.Fatal(err)
	}
	m := New(Options{Home: h, Project: project, Now: time.Now})
	m = drain(b, m, m.Init())
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	return drain(b, next.(Model), cmd)
}

// biggestSession finds, in a scripts/memscope-gen manifest, the project with the
// most transcript bytes and its biggest main transcript.
func biggestSession(b *testing.B, home string) (project, transcript string) {
	data, err := os.ReadFile(filepath.Join(home, "manifest.json"))
	if err != nil {
		b.Fatal(err)
	}
	var man struct {
		Projects []struct {
			Path     string `json:"path"`
			Sessions []struct {
				Kind  string `json:"kind"`
				Path  string `json:"path"`
				Bytes int64  `json:"bytes"`
			} `json:"sessions"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &man); err != nil {
		b.Fatal(err)
	}
	var best, bestSession int64
	for _, p := range man.Projects {
		var sum int64
		for _, s := range p.Sessions {
			sum += s.Bytes
		}
		if sum <= best {
			continue
		}
		best, bestSession, project = sum, 0, p.Path
		for _, s := range p.Sessions {
			if s.Kind == "main" && s.Bytes > bestSession {
				bestSession, transcript = s.Bytes, filepath.Join(home, filepath.FromSlash(s.Path))
			}
		}
	}
	if transcript == "" {
		b.Fatal("the manifest lists no main transcript")
	}
	return project, transcript
}

// linkedCopy makes a copy of the home at base in which every file is a
// hard link to the original but the files in copies, which are copied so
// they can be appended to.
func linkedCopy(b *testing.B, base string, copies ...string) string {
	dst := filepath.Join(b.TempDir(), "home")
	own := map[string]bool{}
	for _, c := range copies {
		own[c] = true
	}
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		to := filepath.Join(dst, p[len(base):])
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o700)
		case own[p]:
			return copyFile(p, to)
		case d.Type().IsRegular():
			if os.Link(p, to) != nil {
				return copyFile(p, to)
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return dst
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

func appendTo(b *testing.B, p, line string) {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		b.Fatal(err)
	}
}
