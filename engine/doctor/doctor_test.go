package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
)

// The fixture homes memscope ships, and the demo, hold nothing doctor
// does not know: each name the table lacks would be reported here.
func TestShippedHomesAreKnown(t *testing.T) {
	homes := map[string]string{"testdata": filepath.Join("..", "..", "testdata", "home")}
	lay, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	homes["demo"] = lay.Home
	for name, dir := range homes {
		r := Scan(os.DirFS(dir))
		if r.Transcripts == 0 {
			t.Fatalf("%s: no transcript read", name)
		}
		found := 0
		for _, u := range r.Unknown {
			if name == "testdata" && planted(u) {
				found++
				continue
			}
			t.Errorf("%s: unknown %s %q (%d, e.g. %s)", name, u.Kind, u.Name, u.Count, u.Example)
		}
		if name == "testdata" && found != 2 {
			t.Errorf("the planted unknown record was not reported: %+v", r.Unknown)
		}
		if r.BeyondChecked || r.Newest == "" {
			t.Errorf("%s: %s", name, r.Summary())
		}
	}
}

// planted is the one record of testdata/home made to be unknown (the
// "bad" project checks that readers keep and count unknown types): it
// must be reported, as a record type and its one field.
func planted(u Unknown) bool {
	const bad = "projects/-home-me-bad/9d2c6a10-0000-4000-8000-000000000001.jsonl:5"
	return u.Example == bad && (u == Unknown{UnknownRecord, "some-future-record", 1, bad} || u == Unknown{UnknownField, "payload", 1, bad})
}

// A record type memscope does not know and a client version beyond the
// checked range are both reported, with a count and one place, never the
// content.
func TestPlantedUnknownsAreReported(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "projects", "-w")
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
	lines := `{"type":"user","uuid":"u1","parentUuid":null,"isSidechain":false,"sessionId":"s1","cwd":"/w","version":"2.1.331","timestamp":"2026-11-28T10:00:00Z","message":{"role":"user","content":"hi"}}
{"type":"hologram","uuid":"h1","sessionId":"s1","version":"9.9.9","secretPayload":"TOP SECRET CONTENT","timestamp":"2026-11-28T10:00:01Z"}
{"type":"attachment","uuid":"a1","parentUuid":"u1","isSidechain":false,"sessionId":"s1","version":"9.9.9","attachment":{"type":"telepathy","content":"x"},"timestamp":"2026-11-28T10:00:02Z"}
{"type":"hologram","sessionId":"s1","version":"9.9.9"}
not json
`
	if err := os.WriteFile(filepath.Join(p, "s1.jsonl"), []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	old := `{"type":"user","uuid":"u1","sessionId":"s2","version":"2.1.330","message":{"role":"user","content":"hi"}}` + "\n"
	if err := os.WriteFile(filepath.Join(p, "s2.jsonl"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	r := Scan(os.DirFS(dir))
	if r.Newest != "9.9.9" || !r.BeyondChecked || len(r.Versions) != 2 || r.Versions[0] != (Version{"9.9.9", 1}) || r.Versions[1] != (Version{"2.1.330", 1}) {
		t.Errorf("versions %+v newest %q beyond %v", r.Versions, r.Newest, r.BeyondChecked)
	}
	want := []Unknown{
		{UnknownRecord, "hologram", 2, "projects/-w/s1.jsonl:2"},
		{UnknownAttachment, "telepathy", 1, "projects/-w/s1.jsonl:3"},
		{UnknownField, "secretPayload", 1, "projects/-w/s1.jsonl:2"},
	}
	if len(r.Unknown) != len(want) {
		t.Fatalf("unknown %+v, want %+v", r.Unknown, want)
	}
	for i := range want {
		if r.Unknown[i] != want[i] {
			t.Errorf("unknown[%d] = %+v, want %+v", i, r.Unknown[i], want[i])
		}
	}
	if r.Malformed != 1 || r.Clean() {
		t.Errorf("malformed %d clean %v", r.Malformed, r.Clean())
	}
	s := r.Summary()
	if !strings.Contains(s, "9.9.9 is newer than memscope checked (2.1.330–2.1.332)") || !strings.Contains(s, "3 unknown names") || strings.Contains(s, "SECRET") {
		t.Errorf("summary %q", s)
	}
}

func TestCompare(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"2.1.332", "2.1.330", 1}, {"2.1.1000", "2.1.332", 1}, {"9.9.9", "2.1.332", 1}, {"2.1.332", "2.1.332", 0}, {"", "2.1.0", -1}, {"2.1", "2.1.0", -1}, {"2.1.x", "2.1.1", 1}} {
		if got := Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
