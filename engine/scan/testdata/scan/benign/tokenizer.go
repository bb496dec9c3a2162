package lexer

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Token is one lexical token.
type Token struct {
	Kind TokenKind
	Text string
	Line int
	Col  int
}

// TokenKind classifies tokens.
type TokenKind int

const (
	TokenEOF TokenKind = iota
	TokenIdent
	TokenString
	TokenSecret // a value marked secret: redacted in logs
)

var errUnterminated = errors.New("unterminated string")

// Config holds the lexer settings. APIKey is read from the environment, so
// a test can set MYAPP_API_KEY="test-key" without touching disk.
type Config struct {
	APIKey   string
	Password string `json:"password,omitempty"`
}

func loadConfig() (Config, error) {
	key := os.Getenv("MYAPP_API_KEY")
	if key == "" {
		return Config{}, fmt.Errorf("MYAPP_API_KEY is not set")
	}
	return Config{APIKey: key, Password: os.Getenv("MYAPP_PASSWORD")}, nil
}

func (l *Lexer) next() (Token, error) {
	for l.pos < len(l.src) && strings.ContainsRune(" \t\r\n", rune(l.src[l.pos])) {
		l.pos++
	}
	if l.pos >= len(l.src) {
		return Token{Kind: TokenEOF}, nil
	}
	if l.src[l.pos] == '"' {
		end := strings.IndexByte(l.src[l.pos+1:], '"')
		if end < 0 {
			return Token{}, errUnterminated
		}
		text := l.src[l.pos+1 : l.pos+1+end]
		l.pos += end + 2
		return Token{Kind: TokenString, Text: text}, nil
	}
	return l.ident(), nil
}

// Lexer splits source text into tokens.
type Lexer struct {
	src string
	pos int
}

func (l *Lexer) ident() Token {
	start := l.pos
	for l.pos < len(l.src) && l.src[l.pos] != ' ' {
		l.pos++
	}
	return Token{Kind: TokenIdent, Text: l.src[start:l.pos]}
}
