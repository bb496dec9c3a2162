package main

import (
	"encoding/xml"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// svgRows reads a picture Render wrote back into its rows of text, each
// text element put at the column its x says.
func svgRows(t *testing.T, data []byte, cols int) []string {
	t.Helper()
	rows := map[int][]rune{}
	d := xml.NewDecoder(strings.NewReader(string(data)))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "text" {
			continue
		}
		var x, y float64
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "x":
				x, _ = strconv.ParseFloat(a.Value, 64)
			case "y":
				y, _ = strconv.ParseFloat(a.Value, 64)
			}
		}
		var s string
		if err := d.DecodeElement(&s, &se); err != nil {
			t.Fatal(err)
		}
		col, row := int(math.Round((x-pad)/cellW)), int(math.Round((y-pad-cellH*0.75)/cellH))
		if rows[row] == nil {
			rows[row] = []rune(strings.Repeat(" ", cols))
		}
		for i, r := range []rune(s) {
			if col+i < cols {
				rows[row][col+i] = r
			}
		}
	}
	out := make([]string, 0, len(rows))
	for i := 0; i < len(rows) || rows[i] != nil; i++ {
		out = append(out, strings.TrimRight(string(rows[i]), " "))
	}
	return out
}

// tabBar is the line under a screen's title line ("memscope  <path>"):
// the tab bar, which starts with a pane's tab or a folded group.
func tabBar(lines []string) string {
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "memscope ") && i+1 < len(lines) {
			return strings.TrimRight(lines[i+1], " ")
		}
	}
	return ""
}

// TestPictureIsCurrent: the README's picture (docs/memscope.svg) shows
// the tab bar the Index pane's 120x40 golden shows. When the app's
// chrome changes (panes added, renamed, regrouped), the golden changes
// and this fails until scripts/screenshot.sh has made the picture again.
func TestPictureIsCurrent(t *testing.T) {
	svg, err := os.ReadFile("../../docs/memscope.svg")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("../../ui/testdata/TestPanesGolden/index_120x40.golden")
	if err != nil {
		t.Fatal(err)
	}
	want := tabBar(strings.Split(string(golden), "\n"))
	if want == "" {
		t.Fatal("the golden shows no tab bar")
	}
	if got := tabBar(svgRows(t, svg, 120)); got != want {
		t.Errorf("docs/memscope.svg is out of date: run scripts/screenshot.sh\npicture: %q\ngolden:  %q", got, want)
	}
}
