package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// streamToken marks, in a value about to be printed as JSON, the one
// element of the array that jsonStream writes element by element: set
// it as the element's first string field (a file name or an id cannot
// hold a NUL, so nothing else prints as it does).
const streamToken = "\x00memscope-stream\x00"

// jsonPart writes one JSON value exactly as writeJSON's encoder prints
// it nested at prefix (the indentation of the line it starts on), with
// terminal controls escaped; no newline after it.
type jsonPart func(w io.Writer, prefix string) error

// jsonValue is v as a jsonPart.
func jsonValue(v any) jsonPart {
	return func(w io.Writer, prefix string) error {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent(prefix, "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := w.Write(escapeTerminalRunes(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))))
		return err
	}
}

// jsonStream is v printed as writeJSON prints it, except that the array
// whose one element starts with streamToken is written element by
// element: each(yield) calls yield with every element in turn, so a
// command prints a million findings without holding them, or their
// JSON, at once. Byte for byte what writeJSON prints of v holding them.
func jsonStream(v any, each func(yield func(jsonPart) error) error) jsonPart {
	return func(w io.Writer, prefix string) error {
		var buf bytes.Buffer
		if err := jsonValue(v)(&buf, prefix); err != nil {
			return err
		}
		data := buf.Bytes()
		tok, _ := json.Marshal(streamToken)
		at := bytes.Index(data, tok)
		if at < 0 {
			return fmt.Errorf("json stream: no placeholder element in %T", v)
		}
		open := bytes.LastIndexByte(data[:at], '[')
		if open < 0 {
			return fmt.Errorf("json stream: the placeholder of %T is not in an array", v)
		}
		// The array's indentation is its line's: the element's is one
		// step more, and the array closes on a line of its own.
		line := bytes.LastIndexByte(data[:open], '\n') + 1
		indent := string(data[line : line+len(data[line:open])-len(bytes.TrimLeft(data[line:open], " "))])
		end := bytes.Index(data[at:], []byte("\n"+indent+"]"))
		if end < 0 {
			return fmt.Errorf("json stream: the placeholder array of %T does not close", v)
		}
		end += at + len("\n"+indent+"]")
		if _, err := w.Write(data[:open]); err != nil {
			return err
		}
		n := 0
		err := each(func(p jsonPart) error {
			sep := ",\n"
			if n == 0 {
				sep = "[\n"
			}
			n++
			if _, err := io.WriteString(w, sep+indent+"  "); err != nil {
				return err
			}
			return p(w, indent+"  ")
		})
		if err != nil {
			return err
		}
		closing := "\n" + indent + "]"
		if n == 0 {
			closing = "[]"
		}
		if _, err := io.WriteString(w, closing); err != nil {
			return err
		}
		_, err = w.Write(data[end:])
		return err
	}
}

// writeJSONPart prints p as writeJSON prints a value: at the top level,
// a newline after it, through a buffer.
func writeJSONPart(w io.Writer, p jsonPart) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := p(bw, ""); err != nil {
		return err
	}
	if err := bw.WriteByte('\n'); err != nil {
		return err
	}
	return bw.Flush()
}
