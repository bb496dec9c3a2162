package memindex

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/model"
)

// capIndexUnits is CapIndex as it was before the cut was made on the text:
// over UTF-16 units and back. The fuzz tests below hold the two equal.
func capIndexUnits(raw []byte) IndexCap {
	text := jsstr.DecodeLikeNode(raw)
	trimmed := jsstr.Trim(text)
	if trimmed == "" {
		return IndexCap{RoomLines: MaxLines, RoomChars: MaxChars, DroppedEntries: []DroppedEntry{}}
	}
	c := IndexCap{Lines: strings.Count(trimmed, "\n") + 1, Chars: jsstr.UTF16Len(trimmed), DroppedEntries: []DroppedEntry{}}
	c.RoomLines, c.RoomChars = MaxLines-c.Lines, MaxChars-c.Chars
	c.LinesOver, c.CharsOver = c.Lines > MaxLines, c.Chars > MaxChars
	if !c.LinesOver && !c.CharsOver {
		c.LoadedLines, c.LoadedChars, c.Content = c.Lines, c.Chars, trimmed
		return c
	}
	u := jsstr.Units(trimmed)
	lines := jsstr.SplitUnits(u)
	kept := u
	if c.LinesOver {
		n := MaxLines
		kept = u[:len(u)]
		for i, x := range u {
			if x == '\n' {
				if n--; n == 0 {
					kept = u[:i]
					break
				}
			}
		}
	}
	kept, hardCut := jsstr.CutAtLine(kept, MaxChars)
	c.Truncated = true
	c.LoadedChars = len(kept)
	c.LoadedLines = len(jsstr.SplitUnits(kept))
	c.CutLine = c.LoadedLines + 1
	what := ""
	if hardCut {
		c.CutLine = 1
		what = fmt.Sprintf("everything after the first %d characters of line 1 was cut off", len(kept))
	} else {
		what = fmt.Sprintf("%d of %d lines were cut off, starting at line %d", c.Lines-c.LoadedLines, c.Lines, c.CutLine)
		if q := jsstr.CutAtWord(jsstr.Trim(jsstr.FromUnits(lines[c.LoadedLines])), warningQuoteMax); q != "" {
			what += ` ("` + q + `")`
		}
	}
	c.Warning = "> WARNING: " + model.MemoryIndexName + " is " + CapReason(c) + ". Only part of it was loaded: " + what +
		". Keep index entries to one line under ~200 chars; move detail into topic files."
	c.Content = jsstr.FromUnits(kept) + "\n\n" + c.Warning
	lead := strings.Count(text[:len(text)-len(strings.TrimLeftFunc(text, jsstr.IsSpace))], "\n")
	c.CutFileLine = c.CutLine + lead
	c.DroppedEntries = droppedEntries(raw, c.CutFileLine, hardCut)
	return c
}

func checkSameAsUnits(t *testing.T, data []byte) {
	t.Helper()
	if got, want := CapIndex(data), capIndexUnits(data); !reflect.DeepEqual(got, want) {
		t.Fatalf("CapIndex differs from the units version on %q:\n got %+v\nwant %+v", trunc(data), got, want)
	}
}

func trunc(b []byte) []byte {
	if len(b) > 300 {
		return b[:300]
	}
	return b
}

// FuzzCapIndexSameAsUnits holds CapIndex equal to the UTF-16 round trip it
// replaced, on arbitrary bytes.
func FuzzCapIndexSameAsUnits(f *testing.F) {
	f.Add([]byte(memLines(5, "\n")))
	f.Add([]byte(strings.Repeat("😀", 12600)))
	f.Add([]byte("a\xed\xa0\x80b\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkSameAsUnits(t, data) })
}

// FuzzCapIndexScaledSameAsUnits does the same on large inputs that reach
// the caps (as FuzzIndexCapScaled builds them).
func FuzzCapIndexScaledSameAsUnits(f *testing.F) {
	f.Add("- [Memory](mem.md) — hook line", uint16(250), "\n", "")
	f.Add("项", uint16(25001), "", "")
	f.Add("😀", uint16(12500), "", "a")
	f.Add("a😀", uint16(8334), "", "")
	f.Add("😀", uint16(12501), "\n", "")
	f.Add("a", uint16(30000), "", "\n- [B](b.md) — b")
	f.Add(strings.Repeat("w ", 75), uint16(199), "\r\n", "\n\n  \n")
	f.Add(strings.Repeat("😀 ", 60), uint16(300), "\n", "")
	f.Add(strings.Repeat("😀", 100), uint16(300), "\n", "")
	f.Add("\u00a0x\u2028", uint16(9000), "\n", "\ufeff")
	f.Add("\xff\xfe", uint16(20000), "\n", "")
	f.Fuzz(func(t *testing.T, unit string, reps uint16, sep, tail string) {
		n := int(reps)
		if per := len(unit) + len(sep); per > 0 && per*n > 1<<20 {
			n = (1 << 20) / per
		}
		checkSameAsUnits(t, []byte(strings.Repeat(unit+sep, n)+tail))
	})
}

// overCapIndex is an index over both caps, as W's are: 400 entries with
// long hooks and some text outside the BMP.
func overCapIndex() []byte {
	var b strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "- [Memory %d](mem_%d.md) — a hook about 😀 things that goes on for a while, word %d %s\n", i, i, i, strings.Repeat("x", i%50))
	}
	return []byte(b.String())
}

// TestCapIndexCutAllocs: cutting an index over the caps makes the text's
// UTF-16 units no more: the bytes allocated stay within a few copies of
// the file (7 bytes per input byte, most of it droppedEntries' parse; the
// units version allocated 22: the runes, the units, the lines' slice
// headers and the text back).
func TestCapIndexCutAllocs(t *testing.T) {
	raw := overCapIndex()
	if c := CapIndex(raw); !c.LinesOver || !c.CharsOver {
		t.Fatalf("fixture not over both caps: %+v", c)
	}
	const runs = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < runs; i++ {
		CapIndex(raw)
	}
	runtime.ReadMemStats(&after)
	perByte := float64(after.TotalAlloc-before.TotalAlloc) / runs / float64(len(raw))
	t.Logf("%d bytes in, %.1f bytes allocated per input byte", len(raw), perByte)
	if perByte > 10 {
		t.Errorf("CapIndex allocates %.1f bytes per input byte, want <= 10", perByte)
	}
}

func BenchmarkCapIndexOver(b *testing.B) {
	raw := overCapIndex()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		CapIndex(raw)
	}
}

func BenchmarkCapIndexOverUnits(b *testing.B) {
	raw := overCapIndex()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		capIndexUnits(raw)
	}
}
