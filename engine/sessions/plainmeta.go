package sessions

import (
	"encoding/json"
	"strconv"

	"github.com/memscope/memscope/model"
)

// A compaction boundary's metadata must decode for the line to be the
// scanner's (record): json.Unmarshal into model.CompactMetadata or
// model.MicrocompactMetadata only to learn that it does. plainMeta
// answers the common case without building the value: an object, no
// white space, every key one of a short list written exactly as the
// struct's tag (or a key the struct does not have and no tag folds to)
// with a value of the simple kind the field takes. Whatever it does not
// accept goes to json.Unmarshal as before, so it only ever says yes where
// Unmarshal succeeds (FuzzPlainMeta holds the two to that).

// compactMetaDecodes says b decodes into model.CompactMetadata.
func compactMetaDecodes(b []byte) bool {
	return plainMeta(b, compactMetaKind) || json.Unmarshal(b, new(model.CompactMetadata)) == nil
}

// microcompactMetaDecodes says b decodes into model.MicrocompactMetadata.
func microcompactMetaDecodes(b []byte) bool {
	return plainMeta(b, microcompactMetaKind) || json.Unmarshal(b, new(model.MicrocompactMetadata)) == nil
}

// metaKind is the kind of value plainMeta accepts for a key (0: none, the
// key goes to json.Unmarshal).
type metaKind uint8

const (
	metaString  metaKind = iota + 1 // a string without escapes, or null
	metaInt                         // an integer of at most 18 digits, or null
	metaBool                        // true, false or null
	metaStrings                     // an array of strings without escapes, or null
)

// compactMetaKind is the kind of each key plainMeta accepts in
// model.CompactMetadata; preCompactOrganizationsCoverStart is a key the
// struct does not have (its value is skipped).
func compactMetaKind(key string) metaKind {
	switch key {
	case "trigger":
		return metaString
	case "preTokens", "postTokens", "durationMs", "cumulativeDroppedTokens", "messagesSummarized":
		return metaInt
	case "preCompactOrganizationsCoverStart":
		return metaBool
	}
	return 0
}

// microcompactMetaKind is compactMetaKind for model.MicrocompactMetadata;
// clearedAttachmentUUIDs is a key the struct does not have.
func microcompactMetaKind(key string) metaKind {
	switch key {
	case "trigger":
		return metaString
	case "preTokens", "tokensSaved":
		return metaInt
	case "compactedToolIds", "clearedAttachmentUUIDs":
		return metaStrings
	}
	return 0
}

// plainMeta says b is an object json.Unmarshal decodes without error
// into the struct whose keys kindOf names; false says nothing (ask
// json.Unmarshal).
func plainMeta(b []byte, kindOf func(string) metaKind) bool {
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	i := 1
	if b[i] == '}' {
		return i+1 == len(b)
	}
	for {
		n := plainString(b[i:])
		if n < 0 || i+n >= len(b) || b[i+n] != ':' {
			return false
		}
		kind := kindOf(string(b[i+1 : i+n-1]))
		i += n + 1
		if kind == 0 || i >= len(b) {
			return false
		}
		switch {
		case hasLiteral(b[i:], "null"):
			n = 4
		case kind == metaString:
			n = plainString(b[i:])
		case kind == metaInt:
			n = plainInt(b[i:])
		case kind == metaBool && hasLiteral(b[i:], "true"):
			n = 4
		case kind == metaBool && hasLiteral(b[i:], "false"):
			n = 5
		case kind == metaStrings:
			n = plainStrings(b[i:])
		default:
			return false
		}
		if n <= 0 || i+n >= len(b) {
			return false
		}
		i += n
		switch b[i] {
		case ',':
			i++
		case '}':
			return i+1 == len(b)
		default:
			return false
		}
	}
}

// hasLiteral says b starts with lit.
func hasLiteral(b []byte, lit string) bool {
	return len(b) >= len(lit) && string(b[:len(lit)]) == lit
}

// plainString is the length of the string b starts with, quotes
// included, when it has no escape and no control byte; -1 otherwise.
func plainString(b []byte) int {
	if len(b) == 0 || b[0] != '"' {
		return -1
	}
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c == '\\' || c < 0x20:
			return -1
		}
	}
	return -1
}

// maxIntDigits is the most digits plainInt takes: any number of that
// many fits the metadata's int fields (18 for a 64-bit int, 9 for a
// 32-bit one, where Unmarshal refuses a larger number).
const maxIntDigits = 9 + 9*(strconv.IntSize/64)

// plainInt is the length of the integer b starts with (an optional
// minus, then 0 or at most maxIntDigits digits not starting with 0: it
// fits an int); -1 otherwise. The caller checks the byte after it ends the
// value (a fraction or exponent does not).
func plainInt(b []byte) int {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		return i + 1
	}
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == start || i-start > maxIntDigits {
		return -1
	}
	return i
}

// plainStrings is the length of the array of plain strings b starts
// with (plainString, no white space); -1 otherwise.
func plainStrings(b []byte) int {
	if len(b) < 2 || b[0] != '[' {
		return -1
	}
	i := 1
	if b[i] == ']' {
		return 2
	}
	for {
		n := plainString(b[i:])
		if n < 0 || i+n >= len(b) {
			return -1
		}
		i += n
		switch b[i] {
		case ',':
			i++
		case ']':
			return i + 1
		default:
			return -1
		}
	}
}
