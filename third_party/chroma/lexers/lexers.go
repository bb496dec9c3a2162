package lexers

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded
var embedded embed.FS

// GlobalLexerRegistry is the global LexerRegistry of Lexers.
//
// memscope patch: the ~250 embedded XML lexers are parsed on first use
// (any of the functions below) instead of at program start, which cost
// every memscope command about 5 ms. Lexers registered before that (the
// Go-defined ones, at package init) are held back and registered after
// the XML ones, so a later registration still replaces an earlier one
// of the same name, as upstream. Code that reads GlobalLexerRegistry
// directly before any of these functions ran sees an empty registry.
var GlobalLexerRegistry = chroma.NewLexerRegistry()

var (
	loadMu  sync.Mutex
	loaded  bool
	pending []chroma.Lexer
	after   []func()
)

// afterLoad runs f once every lexer is registered (upstream's init
// functions that look a lexer up and attach an analyser).
func afterLoad(f func()) { after = append(after, f) }

// registry returns GlobalLexerRegistry with every lexer in it.
func registry() *chroma.LexerRegistry {
	loadMu.Lock()
	defer loadMu.Unlock()
	if !loaded {
		paths, err := fs.Glob(embedded, "embedded/*.xml")
		if err != nil {
			panic(err)
		}
		for _, path := range paths {
			GlobalLexerRegistry.Register(chroma.MustNewXMLLexer(embedded, path))
		}
		for _, lexer := range pending {
			GlobalLexerRegistry.Register(lexer)
		}
		pending = nil
		for _, f := range after {
			f()
		}
		after = nil
		loaded = true
	}
	return GlobalLexerRegistry
}

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	return registry().Names(withAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	return registry().Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	return registry().MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	return registry().Match(filename)
}

// Register a Lexer with the global registry.
func Register(lexer chroma.Lexer) chroma.Lexer {
	loadMu.Lock()
	if !loaded {
		// Delegating lexers look others up through their registry.
		lexer.SetRegistry(GlobalLexerRegistry)
		pending = append(pending, lexer)
		loadMu.Unlock()
		return lexer
	}
	loadMu.Unlock()
	return GlobalLexerRegistry.Register(lexer)
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	return registry().Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{`.+`, chroma.Text, nil},
			{`\n`, chroma.Text, nil},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
