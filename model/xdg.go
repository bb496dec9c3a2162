package model

import (
	"fmt"
	"path/filepath"
)

// The XDG base folders memscope keeps its own files under, each with its
// variable and its default below the user's home.
var (
	XDGCache  = XDGBase{Var: "XDG_CACHE_HOME", Default: ".cache"}
	XDGConfig = XDGBase{Var: "XDG_CONFIG_HOME", Default: ".config"}
	XDGData   = XDGBase{Var: "XDG_DATA_HOME", Default: filepath.Join(".local", "share")}
	XDGState  = XDGBase{Var: "XDG_STATE_HOME", Default: filepath.Join(".local", "state")}
)

// XDGBase is one XDG base folder.
type XDGBase struct {
	// Var is its environment variable; Default its folder below the
	// user's home when Var is unset or not absolute.
	Var, Default string
}

// Memscope is memscope's folder in b: $Var/memscope when $Var is an
// absolute path (the XDG rule), else ~/<Default>/memscope. A user home
// that is not absolute is an error, not a folder relative to wherever
// memscope runs.
func (b XDGBase) Memscope(getenv func(string) string, userHome func() (string, error)) (string, error) {
	if x := getenv(b.Var); filepath.IsAbs(x) {
		return filepath.Join(x, "memscope"), nil
	}
	h, err := userHome()
	if err != nil {
		return "", fmt.Errorf("find $%s: %w", b.Var, err)
	}
	if !filepath.IsAbs(h) {
		return "", fmt.Errorf("find $%s: the user's home %q is not an absolute path", b.Var, h)
	}
	return filepath.Join(h, b.Default, "memscope"), nil
}
