package cli

import (
	"strings"
	"testing"
)

// The text report of extract echoes the user's words; a secret in them
// is redacted there (and in the blocked-write report), whether or not
// the write goes ahead.
func TestExtractTextRedactsSecrets(t *testing.T) {
	session := secretSession(t, "/srv/ledger")
	for _, args := range [][]string{
		{"extract", session, "--home", t.TempDir()},
		{"extract", session, "--home", t.TempDir(), "--write"},
	} {
		e, out, errb := testEnv(t)
		run(e, args)
		all := out.String() + errb.String()
		if strings.Contains(all, "A1b2C3d4E5f6G7h8") {
			t.Fatalf("%q shows the token:\n%s", args, all)
		}
		if !strings.Contains(all, "[redacted: ") || !strings.Contains(all, "when it pushes tags") {
			t.Fatalf("%q: no redaction, or the words around it are gone:\n%s", args, all)
		}
	}
}
