package lint

import "github.com/memscope/memscope/engine/internal/jsstr"

// DupeMaxBytes is how much of a memory's text near-duplicate detection
// compares. Shingling keeps a few words' worth of strings per word, so a
// 100 MB body cost gigabytes and minutes; the client recalls only the
// first RecallMaxBytes of a file, and 64 KiB is far beyond what two
// duplicate memories need to show it.
const DupeMaxBytes = 64 << 10

// dupeText is text cut to DupeMaxBytes at a character boundary.
func dupeText(text string) string { return jsstr.TruncateUTF8(text, DupeMaxBytes) }
