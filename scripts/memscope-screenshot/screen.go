package main

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Color is a cell colour: none (the terminal's default) or RGB.
type Color struct {
	Set     bool
	R, G, B uint8
}

// Style is what an SGR sequence sets on the cells after it.
type Style struct {
	FG, BG                               Color
	Bold, Dim, Italic, Underline, Invert bool
}

// Cell is one column of one row: its text (a rune and any combining
// marks; "" for the second column of a wide character) and style.
type Cell struct {
	Text  string
	Style Style
	// Wide says the text takes this column and the next.
	Wide bool
}

// Screen is a grid of cells.
type Screen struct {
	Cols, Rows int
	Cells      [][]Cell
}

// Parse reads a capture (lines of text with SGR sequences) into a
// cols×rows grid; what falls outside is dropped, other escape sequences
// are skipped.
func Parse(s string, cols, rows int) Screen {
	sc := Screen{Cols: cols, Rows: rows, Cells: make([][]Cell, rows)}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	var st Style
	for y := range rows {
		row := make([]Cell, cols)
		for x := range row {
			row[x] = Cell{Text: " "}
		}
		sc.Cells[y] = row
		if y >= len(lines) {
			continue
		}
		line, x := lines[y], 0
		for i := 0; i < len(line); {
			if line[i] == 0x1b {
				n, params, final := escape(line[i:])
				if final == 'm' {
					st = applySGR(st, params)
				}
				i += n
				continue
			}
			r, size := utf8.DecodeRuneInString(line[i:])
			i += size
			if r == '\r' {
				continue
			}
			w := ansi.StringWidth(string(r))
			if w == 0 {
				// A combining mark joins the cell before it.
				if x > 0 && x <= cols {
					c := &row[x-1]
					if c.Text == "" && x > 1 {
						c = &row[x-2]
					}
					c.Text += string(r)
				}
				continue
			}
			if x+w > cols {
				x += w
				continue
			}
			row[x] = Cell{Text: string(r), Style: st, Wide: w == 2}
			if w == 2 {
				row[x+1] = Cell{Text: "", Style: st}
			}
			x += w
		}
		// A style does not carry to the next line in a capture: tmux
		// starts each line afresh.
		st = Style{}
	}
	return sc
}

// escape measures the escape sequence at the start of s: its length, its
// parameters (for a CSI sequence) and its final byte (0 for others).
func escape(s string) (n int, params string, final byte) {
	if len(s) < 2 {
		return len(s), "", 0
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1, s[2:i], s[i]
			}
		}
		return len(s), "", 0
	case ']':
		// OSC: up to BEL or ST.
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1, "", 0
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2, "", 0
			}
		}
		return len(s), "", 0
	}
	return 2, "", 0
}

// applySGR applies one SGR parameter list to st.
func applySGR(st Style, params string) Style {
	if params == "" {
		return Style{}
	}
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	num := func(i int) int {
		if i >= len(ps) {
			return -1
		}
		n, err := strconv.Atoi(ps[i])
		if err != nil {
			return -1
		}
		return n
	}
	for i := 0; i < len(ps); i++ {
		switch p := num(i); {
		case p == 0:
			st = Style{}
		case p == 1:
			st.Bold = true
		case p == 2:
			st.Dim = true
		case p == 3:
			st.Italic = true
		case p == 4:
			st.Underline = true
		case p == 7:
			st.Invert = true
		case p == 22:
			st.Bold, st.Dim = false, false
		case p == 23:
			st.Italic = false
		case p == 24:
			st.Underline = false
		case p == 27:
			st.Invert = false
		case p >= 30 && p <= 37:
			st.FG = palette(p - 30)
		case p >= 90 && p <= 97:
			st.FG = palette(p - 90 + 8)
		case p == 39:
			st.FG = Color{}
		case p >= 40 && p <= 47:
			st.BG = palette(p - 40)
		case p >= 100 && p <= 107:
			st.BG = palette(p - 100 + 8)
		case p == 49:
			st.BG = Color{}
		case p == 38 || p == 48:
			var c Color
			switch num(i + 1) {
			case 5:
				c = palette(num(i + 2))
				i += 2
			case 2:
				c = Color{true, uint8(num(i + 2)), uint8(num(i + 3)), uint8(num(i + 4))}
				i += 4
			default:
				i = len(ps)
			}
			if p == 38 {
				st.FG = c
			} else {
				st.BG = c
			}
		}
	}
	return st
}

// ansi16 are the 16 basic colours (xterm's defaults).
var ansi16 = [16][3]uint8{
	{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

// palette is colour n of xterm's 256-colour palette.
func palette(n int) Color {
	switch {
	case n < 0 || n > 255:
		return Color{}
	case n < 16:
		c := ansi16[n]
		return Color{true, c[0], c[1], c[2]}
	case n < 232:
		n -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + 40*v)
		}
		return Color{true, level(n / 36), level(n / 6 % 6), level(n % 6)}
	}
	g := uint8(8 + 10*(n-232))
	return Color{true, g, g, g}
}
