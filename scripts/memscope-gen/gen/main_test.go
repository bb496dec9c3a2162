package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
	"time"
)

// genTiny writes a small home (about 1.5 MB of transcripts) and returns
// its folder and manifest.
func genTiny(t testing.TB, seed uint64) (string, *Manifest) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "home")
	var out, errs bytes.Buffer
	if code := Run([]string{"-out", dir, "-size", "1500K", "-seed", itoa(seed)}, &out, &errs); code != 0 {
		t.Fatalf("gen exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "manifest") {
		t.Errorf("no summary printed: %q", out.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return dir, &m
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// scanned is what an independent pass over one transcript finds.
type scanned struct {
	lines, boundaries, partial, micro, sidechain, responses int
	types                                                   map[string]int
	usage                                                   [4]int64
	first, last                                             time.Time
}

// scanTranscript reads a transcript with encoding/json only, checking
// every line parses, every parent exists earlier in the file and every
// preserved segment points at records that exist.
func scanTranscript(t *testing.T, p string) scanned {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("%s does not end with a newline", p)
	}
	s := scanned{types: map[string]int{}}
	uuids := map[string]bool{}
	seen := map[string]bool{}
	var pendingAnchor string
	for i, line := range bytes.Split(data[:len(data)-1], []byte("\n")) {
		var rec struct {
			Type, Subtype, UUID, ParentUUID, Timestamp, RequestID string
			IsSidechain                                           bool
			CompactMetadata                                       *struct {
				PreservedSegment *struct{ HeadUUID, AnchorUUID, TailUUID string }
			}
			Message *struct {
				ID    string
				Usage *struct {
					Input         int64 `json:"input_tokens"`
					Output        int64 `json:"output_tokens"`
					CacheCreation int64 `json:"cache_creation_input_tokens"`
					CacheRead     int64 `json:"cache_read_input_tokens"`
				}
			}
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("%s:%d: %v", p, i+1, err)
		}
		s.lines++
		s.types[rec.Type]++
		if pendingAnchor != "" {
			if rec.UUID != pendingAnchor {
				t.Errorf("%s:%d: anchor %s is not the record after the boundary", p, i+1, pendingAnchor)
			}
			pendingAnchor = ""
		}
		if rec.ParentUUID != "" && !uuids[rec.ParentUUID] {
			t.Errorf("%s:%d: parent %s not seen before", p, i+1, rec.ParentUUID)
		}
		if rec.UUID != "" {
			uuids[rec.UUID] = true
			if rec.IsSidechain {
				s.sidechain++
			}
		}
		switch rec.Subtype {
		case "compact_boundary":
			s.boundaries++
			if ps := rec.CompactMetadata.PreservedSegment; ps != nil {
				s.partial++
				if !uuids[ps.HeadUUID] || !uuids[ps.TailUUID] {
					t.Errorf("%s:%d: preserved segment points at unknown records", p, i+1)
				}
				pendingAnchor = ps.AnchorUUID
			}
		case "microcompact_boundary":
			s.micro++
		}
		if rec.Timestamp != "" {
			ts, err := time.Parse(time.RFC3339Nano, rec.Timestamp)
			if err != nil {
				t.Fatalf("%s:%d: %v", p, i+1, err)
			}
			if s.first.IsZero() || ts.Before(s.first) {
				s.first = ts
			}
			if ts.After(s.last) {
				s.last = ts
			}
		}
		if rec.Type == "assistant" && !seen[rec.Message.ID+"/"+rec.RequestID] {
			seen[rec.Message.ID+"/"+rec.RequestID] = true
			s.responses++
			u := rec.Message.Usage
			s.usage[0] += u.Input
			s.usage[1] += u.Output
			s.usage[2] += u.CacheCreation
			s.usage[3] += u.CacheRead
		}
	}
	return s
}

func checkTranscript(t *testing.T, dir string, ts TranscriptStats) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(ts.Path))
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	s := scanTranscript(t, p)
	u := ts.Usage
	if st.Size() != ts.Bytes || s.lines != ts.Lines || s.lines != ts.Records || s.boundaries != ts.CompactBoundaries || s.partial != ts.PartialCompactions ||
		s.micro != ts.MicrocompactBoundaries || s.responses != ts.Responses || s.sidechain != ts.SidechainRecords ||
		s.usage != [4]int64{u.InputTokens, u.OutputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens} ||
		!reflect.DeepEqual(s.types, ts.Types) || !s.first.Equal(ts.First) || !s.last.Equal(ts.Last) {
		t.Errorf("%s: scan %+v, size %d\nmanifest %+v", ts.Path, s, st.Size(), ts)
	}
	if ts.Kind == "subagent" && s.sidechain != s.lines {
		t.Errorf("%s: subagent records must all be sidechain", ts.Path)
	}
}

func TestManifestMatchesFiles(t *testing.T) {
	dir, m := genTiny(t, 7)
	listed := map[string]bool{}
	for _, p := range m.Projects {
		for _, s := range p.Sessions {
			listed[s.Path] = true
			checkTranscript(t, dir, s.TranscriptStats)
			for _, sub := range s.Subagents {
				listed[sub.Path] = true
				checkTranscript(t, dir, sub)
			}
		}
		checkMemory(t, dir, p)
	}
	var files int
	var size int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == manifestName {
			return err
		}
		info, _ := d.Info()
		files++
		size += info.Size()
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(p, ".jsonl") && strings.HasPrefix(rel, "projects") && !listed[filepath.ToSlash(rel)] {
			t.Errorf("transcript %s is not in the manifest", rel)
		}
		return nil
	})
	if files != m.Totals.Files || size != m.Totals.Bytes {
		t.Errorf("walk: %d files %d bytes; manifest %d %d", files, size, m.Totals.Files, m.Totals.Bytes)
	}
	if m.Totals.CompactBoundaries == 0 || m.Totals.SubagentTranscripts == 0 || m.Totals.Transcripts != len(listed) {
		t.Errorf("tiny home should still compact and have a subagent: %+v", m.Totals)
	}
	if got := m.Totals.TranscriptBytes; got < 1_500_000 || got > 1_700_000 {
		t.Errorf("transcript bytes %d, asked for 1.5 MB", got)
	}
	checkHistory(t, dir, m.History)
}

func checkMemory(t *testing.T, dir string, p ProjectManifest) {
	t.Helper()
	root := filepath.Join(dir, filepath.FromSlash(p.Memory.Dir))
	n := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") && filepath.Base(path) != "MEMORY.md" {
			n++
		}
		return err
	})
	index, err := os.ReadFile(filepath.Join(root, "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(index)), "\n")
	if n != p.Memory.Files || n != p.Memory.NestedType+p.Memory.FlatType+p.Memory.Untyped || len(lines) != p.Memory.IndexLines ||
		p.Memory.IndexOverLines != (len(lines) > 200) {
		t.Errorf("memory %s: %d files, %d index lines; manifest %+v", p.Memory.Dir, n, len(lines), p.Memory)
	}
}

func checkHistory(t *testing.T, dir string, h HistoryStats) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, h.Path))
	if err != nil {
		t.Fatal(err)
	}
	missing := map[string]bool{}
	for _, x := range h.MissingHashes {
		missing[x] = true
	}
	lines, hashed, noSession := 0, 0, 0
	var lastTS int64
	for _, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var e struct {
			Display        string
			Timestamp      int64
			SessionID      *string
			PastedContents map[string]struct{ ContentHash string }
		}
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("history line %d: %v", lines+1, err)
		}
		lines++
		if e.Timestamp <= lastTS {
			t.Errorf("history line %d: timestamp not increasing", lines)
		}
		lastTS = e.Timestamp
		if e.SessionID == nil {
			noSession++
		}
		for _, p := range e.PastedContents {
			if p.ContentHash == "" {
				continue
			}
			hashed++
			_, err := os.Stat(filepath.Join(dir, "paste-cache", p.ContentHash+".txt"))
			if (err == nil) == missing[p.ContentHash] {
				t.Errorf("paste %s: file exists %v, listed missing %v", p.ContentHash, err == nil, missing[p.ContentHash])
			}
		}
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "paste-cache"))
	for _, e := range ents {
		content, _ := os.ReadFile(filepath.Join(dir, "paste-cache", e.Name()))
		sum := sha256.Sum256(content)
		if hex.EncodeToString(sum[:8])+".txt" != e.Name() {
			t.Errorf("paste file %s does not hash to its name", e.Name())
		}
	}
	if lines != h.Lines || hashed != h.HashedPastes || noSession != h.WithoutSessionID || len(ents) != h.PasteFiles || int64(len(data)) != h.Bytes {
		t.Errorf("history: %d lines, %d hashed, %d without session, %d files; manifest %+v", lines, hashed, noSession, len(ents), h)
	}
}

// fileDigests maps each file under dir to the sha256 of its content.
func fileDigests(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == manifestName {
			return err
		}
		f, _ := os.Open(p)
		defer f.Close()
		h := sha256.New()
		io.Copy(h, f)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	return out
}

func TestSameSeedSameHome(t *testing.T) {
	dirA, a := genTiny(t, 3)
	dirB, b := genTiny(t, 3)
	_, c := genTiny(t, 4)
	a.Home, b.Home, c.Home = "", "", ""
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different manifests")
	}
	if da, db := fileDigests(t, dirA), fileDigests(t, dirB); !reflect.DeepEqual(da, db) || len(da) < 100 {
		t.Errorf("same seed, different files (%d vs %d)", len(da), len(db))
	}
	if reflect.DeepEqual(a.Totals, c.Totals) {
		t.Error("another seed gave the same totals")
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  bool
	}{
		{"W", 1_000_000_000, false},
		{"W/2", 500_000_000, false},
		{"W/4", 250_000_000, false},
		{"123456", 123456, false},
		{"1500K", 1_500_000, false},
		{"2M", 2_000_000, false},
		{"1G", 1_000_000_000, false},
		{"W/0", 0, true},
		{"-5", 0, true},
		{"big", 0, true},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("parseSize(%q) = %d, %v", tt.in, got, err)
		}
	}
}

func TestRefusesNonEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o600)
	var out, errs bytes.Buffer
	if code := Run([]string{"-out", dir, "-size", "100K"}, &out, &errs); code == 0 || !strings.Contains(errs.String(), "not empty") {
		t.Errorf("exit %d, stderr %q", code, errs.String())
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(data) != "mine" {
		t.Error("existing file touched")
	}
}

// TestWorkFolder: -work puts every project path and the live sessions'
// cwd under it (a test keeps them beside a project of its own), and
// a relative -work is refused.
func TestWorkFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	work := "/srv/elsewhere/work"
	var out, errs bytes.Buffer
	if code := Run([]string{"-out", dir, "-size", "100K", "-seed", "2", "-work", work + "/"}, &out, &errs); code != 0 {
		t.Fatalf("gen exit %d: %s", code, errs.String())
	}
	var m Manifest
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil || json.Unmarshal(data, &m) != nil || len(m.Projects) == 0 {
		t.Fatalf("manifest: %v %s", err, data)
	}
	for _, p := range m.Projects {
		if !strings.HasPrefix(p.Path, work+"/") || p.Slug != model.Slug(p.Path) {
			t.Errorf("project %s (slug %s) is not under %s", p.Path, p.Slug, work)
		}
	}
	for _, pid := range []string{"41001", "41002"} {
		var live struct{ CWD string }
		data, err := os.ReadFile(filepath.Join(dir, "sessions", pid+".json"))
		if err != nil || json.Unmarshal(data, &live) != nil || live.CWD != work {
			t.Errorf("sessions/%s.json: cwd %q, want %s (%v)", pid, live.CWD, work, err)
		}
	}
	errs.Reset()
	if code := Run([]string{"-out", filepath.Join(t.TempDir(), "h"), "-size", "100K", "-work", "rel/work"}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "absolute -work") {
		t.Errorf("relative -work: exit %d, stderr %q", code, errs.String())
	}
}

func BenchmarkGenerate20MB(b *testing.B) {
	b.SetBytes(20_000_000)
	for b.Loop() {
		dir := filepath.Join(b.TempDir(), "home")
		if _, err := generate(options{out: dir, size: 20_000_000, seed: 1, memories: memoriesPerProject, history: -1}); err != nil {
			b.Fatal(err)
		}
	}
}
