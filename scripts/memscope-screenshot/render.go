package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// The picture's geometry and its default colours (a dark terminal).
const (
	cellW    = 8.4
	cellH    = 18.0
	fontSize = 14.0
	pad      = 12.0
)

var (
	defaultFG = Color{true, 0xd4, 0xd4, 0xd4}
	defaultBG = Color{true, 0x1c, 0x1c, 0x1c}
)

func (c Color) hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// colors are the cell's foreground and background as drawn: defaults
// filled in, reverse video applied, dim halfway to the background.
func colors(st Style) (fg, bg Color) {
	fg, bg = st.FG, st.BG
	if !fg.Set {
		fg = defaultFG
	}
	if !bg.Set {
		bg = defaultBG
	}
	if st.Invert {
		fg, bg = bg, fg
	}
	if st.Dim {
		fg = Color{true, uint8((int(fg.R) + int(bg.R)) / 2), uint8((int(fg.G) + int(bg.G)) / 2), uint8((int(fg.B) + int(bg.B)) / 2)}
	}
	return fg, bg
}

// Render writes sc as an SVG picture: a background rectangle per run of
// cells with one background, then a text element per run of cells with
// one style, each stretched to its cells' width so the grid holds
// whatever monospace font the viewer has.
func Render(w io.Writer, sc Screen, title string) {
	width, height := pad*2+cellW*float64(sc.Cols), pad*2+cellH*float64(sc.Rows)
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s">`+"\n",
		n(width), n(height), n(width), n(height), escapeXML(title))
	fmt.Fprintf(w, "<title>%s</title>\n", escapeXML(title))
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" rx="6" fill="%s"/>`+"\n", defaultBG.hex())
	fmt.Fprintf(w, `<g font-family="'DejaVu Sans Mono','Menlo','Consolas',monospace" font-size="%s" xml:space="preserve">`+"\n", n(fontSize))
	for y, row := range sc.Cells {
		top := pad + cellH*float64(y)
		for x := 0; x < len(row); {
			_, bg := colors(row[x].Style)
			end := x + 1
			for end < len(row) {
				if _, b := colors(row[end].Style); b != bg {
					break
				}
				end++
			}
			if bg != defaultBG {
				fmt.Fprintf(w, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n",
					n(pad+cellW*float64(x)), n(top), n(cellW*float64(end-x)), n(cellH), bg.hex())
			}
			x = end
		}
		base := top + cellH*0.75
		for x := 0; x < len(row); {
			st := row[x].Style
			end := x + 1
			for end < len(row) && sameText(row[end].Style, st) {
				end++
			}
			var text strings.Builder
			for _, c := range row[x:end] {
				text.WriteString(c.Text)
			}
			if s := text.String(); strings.TrimSpace(s) != "" {
				writeText(w, pad+cellW*float64(x), base, cellW*float64(end-x), s, st)
			}
			x = end
		}
	}
	fmt.Fprintln(w, "</g>\n</svg>")
}

// sameText says two cells' text is drawn alike.
func sameText(a, b Style) bool {
	fa, _ := colors(a)
	fb, _ := colors(b)
	return fa == fb && a.Bold == b.Bold && a.Italic == b.Italic && a.Underline == b.Underline
}

func writeText(w io.Writer, x, y, width float64, s string, st Style) {
	fg, _ := colors(st)
	attrs := fmt.Sprintf(` fill="%s"`, fg.hex())
	if st.Bold {
		attrs += ` font-weight="bold"`
	}
	if st.Italic {
		attrs += ` font-style="italic"`
	}
	if st.Underline {
		attrs += ` text-decoration="underline"`
	}
	// Leading and trailing blanks are left to the position and the
	// stretch, so a run of words lands on its cells.
	lead := len(s) - len(strings.TrimLeft(s, " "))
	trimmed := strings.TrimRight(s[lead:], " ")
	cells := width/cellW - float64(lead) - float64(len(s)-lead-len(trimmed))
	fmt.Fprintf(w, `<text x="%s" y="%s" textLength="%s" lengthAdjust="spacingAndGlyphs"%s>%s</text>`+"\n",
		n(x+cellW*float64(lead)), n(y), n(cellW*cells), attrs, escapeXML(trimmed))
}

// n writes a coordinate to a hundredth of a pixel.
func n(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}

// escapeXML escapes text for an SVG document; control characters (none
// should reach a capture) are dropped, as XML cannot hold them.
func escapeXML(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r < 0x20 || r == 0x7f:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
