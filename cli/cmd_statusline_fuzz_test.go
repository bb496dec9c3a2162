package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/model"
)

// FuzzStatuslineInput feeds arbitrary stdin to the status line's reader
// and builds the line from it on an empty home: no panic; what is read
// is at most the bound; stdin holding one JSON value (and anything
// after it) gives that value, so the line never waits for stdin to
// close; the line is one line of printable text.
func FuzzStatuslineInput(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","cwd":"/nowhere","context_window":{"context_window_size":200000,"current_usage":{"input_tokens":10,"cache_read_input_tokens":121990}}}`))
	f.Add([]byte(`{"session_id":"s"}` + "\n" + `{"second":1}`))
	f.Add([]byte(`{"transcript_path":"/dev/zero","workspace":{"project_dir":"/"}}`))
	f.Add([]byte(`{"context_window":{"used_percentage":1e308,"context_window_size":-1}}`))
	f.Add([]byte(`{"session_id":"\u001b]0;PWNED\u0007"}`))
	f.Add([]byte(`[1,2`))
	f.Add([]byte(""))
	home := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readFirstValue(bytes.NewReader(data), maxStatusInput)
		if err != nil {
			return
		}
		if len(got) > maxStatusInput {
			t.Fatalf("read %d bytes, over the bound", len(got))
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		var first json.RawMessage
		if dec.Decode(&first) == nil && len(data) <= maxStatusInput && !bytes.Equal(got, first) {
			t.Fatalf("stdin starts with the value %q, read %q", first, got)
		}
		st := live.Statusline(got, live.StatusOptions{HomeDir: home, Root: model.DirFS(home), Getenv: func(string) string { return "" }})
		if line := model.SanitizeLine(st.Line); strings.ContainsAny(line, "\n\r\x1b\x07") {
			t.Fatalf("the line %q is not one line of text", line)
		}
	})
}
