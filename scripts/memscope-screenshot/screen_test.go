package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// TestParseSGR: colours (16, 256 and RGB), attributes and resets land on
// the cells they cover; a wide character takes two cells; other escape
// sequences are skipped; a style ends with its line.
func TestParseSGR(t *testing.T) {
	in := "a\x1b[1;31mb\x1b[0mc\x1b[38;5;196md\x1b[48;2;1;2;3me\x1b[39;49m界f\x1b]8;;http://x\x07g\x1b[7m\n\x1b[2mh"
	sc := Parse(in, 10, 3)
	row := sc.Cells[0]
	var got []string
	for _, c := range row {
		got = append(got, c.Text)
	}
	if want := "a b c d e 界  f g"; strings.Join(got[:9], " ") != want {
		t.Fatalf("cells %q", got)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %+v, want %+v", what, got, want)
		}
	}
	check("plain a", row[0].Style, Style{})
	check("bold red b", row[1].Style, Style{Bold: true, FG: palette(1)})
	check("reset c", row[2].Style, Style{})
	check("256-colour d", row[3].Style.FG, Color{true, 255, 0, 0})
	check("RGB background e", row[4].Style.BG, Color{true, 1, 2, 3})
	check("default colours 界", row[5].Style, Style{})
	check("界 is wide", row[5].Wide, true)
	check("界's second cell", row[6].Text, "")
	check("after the OSC", row[8].Text, "g")
	check("reverse does not carry to the next line", sc.Cells[1][0].Style, Style{Dim: true})
	check("a row past the capture is blank", sc.Cells[2][0].Text, " ")
}

// TestRenderIsValidAndStable: the SVG is well-formed XML, escapes text,
// keeps every non-blank run, and is the same for the same screen.
func TestRenderIsValidAndStable(t *testing.T) {
	sc := Parse("\x1b[44m<a & b>\x1b[0m \"q\"\n\x1b[2;3;4mdim", 20, 2)
	var a, b bytes.Buffer
	Render(&a, sc, `t "1" <2>`)
	Render(&b, sc, `t "1" <2>`)
	if a.String() != b.String() {
		t.Fatal("two renderings of one screen differ")
	}
	d := xml.NewDecoder(strings.NewReader(a.String()))
	var texts []string
	rects := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, a.String())
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch se.Name.Local {
			case "text":
				var s string
				if err := d.DecodeElement(&s, &se); err != nil {
					t.Fatal(err)
				}
				texts = append(texts, s)
			case "rect":
				rects++
			}
		}
	}
	// One run of text per foreground: the background is drawn apart.
	if want := []string{`<a & b> "q"`, "dim"}; strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("texts %q, want %q", texts, want)
	}
	// The page and the blue run's background.
	if rects != 2 {
		t.Errorf("%d rects, want 2", rects)
	}
	if !strings.Contains(a.String(), `fill="#0000ee"`) {
		t.Error("the blue background is not drawn")
	}
}
