package hostilehome

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strconv"
	"strings"
)

// filler is the text big lines repeat: plain ASCII, no quote or backslash,
// so it can sit inside a JSON string as it is.
const filler = "lorem ipsum dolor sit amet consectetur adipiscing elit "

// writeFiller writes exactly n bytes of filler text to w.
func writeFiller(w io.Writer, n int64) error {
	chunk := []byte(strings.Repeat(filler, (64<<10)/len(filler)+1))[:64<<10]
	for n > 0 {
		k := int64(len(chunk))
		if n < k {
			k = n
		}
		if _, err := w.Write(chunk[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// appendLines appends raw lines (each given without its newline) to rel.
func (w *homeWriter) appendLines(rel string, lines ...func(*bufio.Writer) error) {
	if w.err != nil {
		return
	}
	f, err := os.OpenFile(w.path(rel), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		w.err = err
		return
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	for _, line := range lines {
		if err == nil {
			err = line(bw)
		}
		if err == nil {
			err = bw.WriteByte('\n')
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		w.err = err
	}
}

// literal is a line given as a string.
func literal(s string) func(*bufio.Writer) error {
	return func(b *bufio.Writer) error {
		_, err := b.WriteString(s)
		return err
	}
}

// wrapped is a line made of head, n bytes of filler, then tail.
func wrapped(head string, n int64, tail string) func(*bufio.Writer) error {
	return func(b *bufio.Writer) error {
		if _, err := b.WriteString(head); err != nil {
			return err
		}
		if err := writeFiller(b, n); err != nil {
			return err
		}
		_, err := b.WriteString(tail)
		return err
	}
}

// writeBigLine writes a plain home plus one size-byte line in the main
// transcript (a user prompt), in history.jsonl (a display), as a cached
// paste (a single line without newline) and as a memory file's body. The
// lines are valid JSON: a reader may use them or report them, but not
// crash or hold several copies in memory.
func writeBigLine(w *homeWriter, size int64) {
	contentHome(w, " plain text")
	tr := w.res.Transcript
	session, cwd := w.res.SessionID, w.res.Project
	head := string(w.marshal(with(chain(9, uuidN(8), session, cwd), "type", "user", "message", map[string]any{"role": "user", "content": "@@"})))
	pre, post, _ := strings.Cut(head, "@@")
	reply := w.marshal(with(chain(10, uuidN(9), session, cwd), "type", "assistant", "requestId", "req_big",
		"message", map[string]any{"id": "msg_big", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
			"content": []any{map[string]any{"type": "text", "text": "that was long"}},
			"usage":   map[string]any{"input_tokens": 5, "output_tokens": 3}}))
	w.appendLines(tr, wrapped(pre, size, post), literal(string(reply)))

	hist := w.marshal(historyLine(6, "@@", ProjectPath, SessionID, map[string]any{}))
	hpre, hpost, _ := strings.Cut(string(hist), "@@")

	// The paste cache names a paste by its content's hash: hash it first,
	// streaming, then write it.
	h := sha256.New()
	_ = writeFiller(h, size)
	hash := hex.EncodeToString(h.Sum(nil))[:16]
	w.bufferedFile("paste-cache/"+hash+".txt", func(b *bufio.Writer) error { return writeFiller(b, size) })
	pasteRef := w.marshal(historyLine(7, "[Pasted text #1] big paste", ProjectPath, SessionID, map[string]any{
		"1": map[string]any{"id": 1, "type": "text", "contentHash": hash}}))
	after := w.marshal(historyLine(8, "after the big lines", ProjectPath, SessionID, map[string]any{}))
	w.appendLines("history.jsonl", wrapped(hpre, size, hpost), literal(string(pasteRef)), literal(string(after)))
	w.res.HistoryLines += 3

	w.bufferedFile(w.res.MemoryDir+"/big_body.md", func(b *bufio.Writer) error {
		if _, err := b.Write(memoryFile("big-body", "A memory whose body is one huge line", "project", "")); err != nil {
			return err
		}
		return writeFiller(b, size)
	})
}

// writeDeepJSON writes a plain home plus, in the main transcript and in
// history.jsonl, two lines nested depth levels deep (one of arrays, one of
// objects), each followed by a normal line that must still be read.
func writeDeepJSON(w *homeWriter, depth int) {
	contentHome(w, " plain text")
	arrays := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	objects := strings.Repeat("{\"a\":", depth) + "1" + strings.Repeat("}", depth)
	session, cwd := w.res.SessionID, w.res.Project
	tr := func(n int, content string) string {
		head := string(w.marshal(with(chain(n, uuidN(n-1), session, cwd), "type", "user", "message", map[string]any{"role": "user", "content": "@@"})))
		return strings.Replace(head, "\"@@\"", content, 1)
	}
	normal := string(w.marshal(with(chain(11, uuidN(8), session, cwd), "type", "user", "message", map[string]any{"role": "user", "content": "after the deep lines"})))
	w.appendLines(w.res.Transcript, literal(tr(9, arrays)), literal(tr(10, objects)), literal(normal))
	w.res.BadTranscriptLines = 2

	hist := func(n int, pastes string) string {
		return strings.Replace(string(w.marshal(historyLine(n, "deep", ProjectPath, SessionID, map[string]any{}))), "{}", pastes, 1)
	}
	after := string(w.marshal(historyLine(8, "after the deep lines "+strconv.Itoa(depth), ProjectPath, SessionID, map[string]any{})))
	w.appendLines("history.jsonl", literal(hist(6, arrays)), literal(hist(7, objects)), literal(after))
	w.res.HistoryLines++
	w.res.BadHistoryLines += 2
}
