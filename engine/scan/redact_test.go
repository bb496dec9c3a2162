package scan

import (
	"strings"
	"testing"
)

func TestRedactSecrets(t *testing.T) {
	// Built at run time so the repository holds no key-shaped string.
	key := "ghp_" + fakeToken(3, alnum, 36)
	aws := "AKIA" + fakeToken(1, base32U, 16)
	for _, tt := range []struct {
		name, in string
		gone     []string
		kept     []string
	}{
		{"none", "Remember that deploys go out on Tuesdays.", nil, []string{"deploys go out on Tuesdays"}},
		{"github token", "Remember my token is " + key + " for the CI.", []string{key}, []string{"Remember my token is ", " for the CI.", "[redacted: "}},
		{"two secrets", "keys: " + key + " and " + aws + " end", []string{key, aws}, []string{"keys: ", " and ", " end"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := RedactSecrets(tt.in)
			for _, s := range tt.gone {
				if strings.Contains(out, s) {
					t.Errorf("secret %q still in %q", s, out)
				}
			}
			for _, s := range tt.kept {
				if !strings.Contains(out, s) {
					t.Errorf("%q lost from %q", s, out)
				}
			}
			if len(tt.gone) == 0 && out != tt.in {
				t.Errorf("text without secrets changed: %q", out)
			}
		})
	}
}

// Past the scan's per-rule cap the text is cut, never shown unchecked.
func TestRedactSecretsPastTheCap(t *testing.T) {
	var b strings.Builder
	var keys []string
	for i := range maxFindingsPerRule + 50 {
		k := "ghp_" + fakeToken(uint64(100+i), alnum, 36)
		keys = append(keys, k)
		b.WriteString("token " + k + "\n")
	}
	out := RedactSecrets(b.String())
	for _, k := range keys {
		if strings.Contains(out, k) {
			t.Fatalf("secret %s shown", k)
		}
	}
	if !strings.Contains(out, "cut: more secrets") || strings.Count(out, "[redacted: ") != maxFindingsPerRule {
		t.Fatalf("%d redactions, cut marker %v", strings.Count(out, "[redacted: "), strings.Contains(out, "cut: more secrets"))
	}
}
