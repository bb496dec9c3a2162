// Command hostile writes a Claude home whose content is hostile to
// memscope: terminal escapes, bidi controls, a huge line, deeply nested
// JSON, a million memory files, odd file names or symlinks out of the home.
//
//	go run ./scripts/memscope-hostile -out DIR -scenario NAME [-size 100M] [-n 1000000] [-depth 100000] [-outside DIR] [-kind fifo] [-place NAME]
//
// Scenarios: escapes, bidi, bigline, deepjson, manyfiles, newlinenames,
// symlinks-out, leftovers (what killed or failed memscope writes leave:
// copies of gone writers, empty trash and archive folders, a journal
// lock with no journal, a pending restore with its copy in a project
// tree at -outside); and the traps, whose homes hang or exhaust a careless
// reader: special (a named pipe, or a link to /dev/zero or /dev/urandom
// with -kind, at -place or at every place memscope reads a file) and
// linkloops (links out of the home, link loops, links inside it) and huge
// (sparse runs of -size NUL bytes, default 1G here, in every kind of file,
// and a frontmatter nested -depth deep) and tarbomb (the home, and beside
// it DIR.tar.gz with one more entry of -size NUL bytes, default 2G: a
// decompression bomb for --home). The home is a complete one (history.jsonl, a transcript,
// pastes, memory files, CLAUDE.md) carrying that content. What was written
// (counts, odd names, symlink targets and their sha256) is printed as JSON
// on stdout and saved beside the home as DIR.hostile.json, so the home
// itself holds nothing memscope would not find in a real one.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memscope/memscope/scripts/memscope-hostile/hostilehome"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("hostile", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("out", "", "folder to write the home into (must be empty or absent)")
	scenario := fl.String("scenario", "", fmt.Sprintf("one of %v", hostilehome.Scenarios))
	size := fl.String("size", "", "bigline (default 100M), huge (default 1G), tarbomb (default 2G): length of the line or entry in bytes (suffixes K, M, G: powers of 1024)")
	n := fl.Int("n", hostilehome.DefaultN, "manyfiles: number of memory files")
	depth := fl.Int("depth", 0, "deepjson (default 100000), huge (default 3000): nesting depth")
	outside := fl.String("outside", "", "symlinks-out, linkloops: folder for the link targets; leftovers: the project tree (default DIR-outside)")
	kind := fl.String("kind", hostilehome.KindFIFO, fmt.Sprintf("special: one of %v", hostilehome.SpecialKinds))
	place := fl.String("place", "", fmt.Sprintf("special: one of %v (default all)", hostilehome.SpecialPlaces()))
	if err := fl.Parse(args); err != nil {
		return 2
	}
	var bytes int64
	var err error
	if *size != "" {
		bytes, err = parseSize(*size)
	}
	if *out == "" || *scenario == "" || err != nil {
		fmt.Fprintf(stderr, "hostile: need -out DIR, -scenario NAME (%v, %v) and a valid -size (%v)\n", hostilehome.Scenarios, hostilehome.Traps, err)
		return 2
	}
	res, err := hostilehome.Write(*out, hostilehome.Scenario(*scenario), hostilehome.Options{Size: bytes, N: *n, Depth: *depth, Outside: *outside, Kind: *kind, Place: *place})
	if err != nil {
		fmt.Fprintf(stderr, "hostile: %v\n", err)
		return 1
	}
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "hostile: encode summary: %v\n", err)
		return 1
	}
	data = append(data, '\n')
	manifest := filepath.Clean(res.Home) + ".hostile.json"
	if err := os.WriteFile(manifest, data, 0o644); err != nil {
		fmt.Fprintf(stderr, "hostile: write %s: %v\n", manifest, err)
		return 1
	}
	if _, err := stdout.Write(data); err != nil {
		return 1
	}
	return 0
}

// parseSize reads a byte count with an optional K, M or G suffix (powers
// of 1024, so 100M is 100 MiB).
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = v, u.mult
			break
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return v * mult, nil
}
