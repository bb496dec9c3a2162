package scan

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/jsonscan"
)

// newSecrets are the rules issue 19 added, each with a value it must find.
func newSecrets() []struct {
	rule   RuleID
	secret string // what the rule reports
	text   string // how it appears
} {
	azureKey := fakeToken(60, alnum+"+/", 86) + "=="
	sas := fakeToken(61, alnum+"+/", 43) + "="
	adSecret := "abc8Q~" + fakeToken(62, alnum+"_~.-", 34)
	twilio := "SK" + fakeToken(63, "0123456789abcdef", 32)
	sendgrid := "SG." + fakeToken(64, keyish, 22) + "." + fakeToken(65, keyish, 43)
	gocspx := "GOCSPX-" + fakeToken(66, keyish, 28)
	ya29 := "ya29." + fakeToken(67, keyish, 60)
	pw := fakeToken(68, alnum, 16)
	env := fakeToken(69, alnum, 24)
	return []struct {
		rule   RuleID
		secret string
		text   string
	}{
		{"azure-storage-account-key", azureKey, "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + azureKey + ";EndpointSuffix=core.windows.net"},
		{"azure-shared-access-key", sas, "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=" + sas},
		{"azure-ad-client-secret", adSecret, "client_secret: " + adSecret},
		{"twilio-api-key", twilio, "twilio key " + twilio},
		{"sendgrid-api-token", sendgrid, "SENDGRID " + sendgrid + " ok"},
		{"google-oauth-client-secret", gocspx, "secret " + gocspx},
		{"google-oauth-access-token", ya29, "Authorization: Bearer " + ya29},
		{"database-url-password", pw, "DATABASE_URL=postgres://app:" + pw + "@db.internal:5432/app"},
		{"database-url-password", pw, "mongodb+srv://svc:" + pw + "@cluster0.example.net/db"},
		{"database-url-password", pw, "REDIS_URL=redis://:" + pw + "@cache:6379/0"},
		{"dotenv-secret", env, "STRIPE_SECRET=" + env},
		{"dotenv-secret", env, "export GITHUB_TOKEN=\"" + env + "\""},
		{"dotenv-secret", env, "     3→DB_PASSWORD=" + env},
		{"dotenv-secret", env, "OPENAI_API_KEY=" + env},
	}
}

func TestNewSecretRules(t *testing.T) {
	for _, tc := range newSecrets() {
		t.Run(string(tc.rule)+"/"+tc.text[:12], func(t *testing.T) {
			text := "notes\n" + tc.text + "\nend\n"
			fs := Scan("m.md", text)
			if len(fs) != 1 || fs[0].Rule != tc.rule {
				t.Fatalf("Scan found %v, want one %s", fs, tc.rule)
			}
			a := SecretAnchors()
			spans := a.ScanText([]byte(text), a.Find([]byte(text), nil))
			if len(spans) != 1 || spans[0].Rule != tc.rule || spans[0].Secret != tc.secret {
				t.Fatalf("ScanText found %+v, want %s %q", spans, tc.rule, tc.secret)
			}
			if text[spans[0].Start:spans[0].End] != tc.secret {
				t.Errorf("span %d..%d is %q", spans[0].Start, spans[0].End, text[spans[0].Start:spans[0].End])
			}
		})
	}
}

func TestNewSecretLookalikes(t *testing.T) {
	for _, text := range []string{
		"DATABASE_URL=postgres://app:password@localhost/app",
		"redis://:changeme@cache:6379",
		"postgres://${DB_USER}:${DB_PASSWORD}@db/app",
		"mysql://root:%s@%s/%s",
		"TOKEN_URL=https://auth.example.com/oauth/token",
		"GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
		"API_KEY=$API_KEY",
		"MAX_TOKENS=4096",
		"TOKEN_LIMIT = 1000000",
		"SECRET_NAME=prod-database-credentials",
		"OPENAI_API_KEY=your-api-key-here",
		"if TOKEN == expected_value_here:",
		"API_KEY = os.environ['API_KEY']",
		"PASSWORD=[REDACTED:dotenv-secret]",
		"postgres://app:[REDACTED:database-url-password]@db/app",
		"The TASK list is in DISK order",
		"SK" + strings.Repeat("0", 32),
	} {
		if fs := Scan("x.md", text); len(fs) != 0 {
			t.Errorf("Scan(%q) = %v, want none", text, fs)
		}
	}
}

// record is a transcript line holding text in a tool result, as the
// client writes it (JSON.stringify escapes only quotes, backslashes and
// control characters).
func record(text string) []byte {
	type block struct {
		Type    string `json:"type"`
		ID      string `json:"tool_use_id"`
		Content string `json:"content"`
	}
	rec := map[string]any{
		"type": "user",
		"uuid": "u1",
		"message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": "look"},
			block{Type: "tool_result", ID: "t1", Content: text},
		}},
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(rec)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func TestScanJSONLocatesAndScrubs(t *testing.T) {
	ghp := "ghp_" + fakeToken(70, alnum, 36)
	env := fakeToken(71, alnum, 24)
	pw := "p\u00e4ss" + fakeToken(72, alnum, 10) // a non-ASCII password: escaped by some writers
	text := "$ cat .env\n\tAPI_KEY=" + env + "\n\"quoted\" ghp: " + ghp + "\nDB=mysql://u:" + pw + "@h/d\n"
	line := record(text)
	// The same line with every non-ASCII character as a \u escape.
	var esc bytes.Buffer
	for _, r := range string(line) {
		if r > 127 {
			esc.WriteString(`\u00` + strings.ToLower(string("0123456789ABCDEF"[r>>4])+string("0123456789ABCDEF"[r&15])))
			continue
		}
		esc.WriteRune(r)
	}
	a := SecretAnchors()
	var sc jsonscan.Scanner
	for _, l := range [][]byte{line, esc.Bytes()} {
		spans, typ, err := a.ScanJSON(&sc, l, a.Find(l, nil))
		if err != nil {
			t.Fatal(err)
		}
		if typ != "user" {
			t.Errorf("record type %q", typ)
		}
		got := []string{}
		for _, s := range spans {
			got = append(got, string(s.Rule)+"@"+s.Path+"="+s.Secret)
		}
		want := []string{
			"dotenv-secret@message.content[1].content=" + env,
			"github-pat@message.content[1].content=" + ghp,
			"database-url-password@message.content[1].content=" + pw,
		}
		if !slices.Equal(got, want) {
			t.Fatalf("found %q\nwant %q", got, want)
		}
		// Replacing the raw spans by markers keeps the line valid, the
		// structure the same and the text the same but for the secrets.
		scrubbed := slices.Clone(l)
		for i := len(spans) - 1; i >= 0; i-- {
			s := spans[i]
			scrubbed = slices.Concat(scrubbed[:s.Start], []byte(Marker(s.Rule)), scrubbed[s.End:])
		}
		if !json.Valid(scrubbed) {
			t.Fatalf("scrubbed line is not JSON: %s", scrubbed)
		}
		var rec struct {
			Message struct {
				Content []struct {
					Content string `json:"content"`
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(scrubbed, &rec); err != nil {
			t.Fatal(err)
		}
		wantText := strings.NewReplacer(env, Marker("dotenv-secret"), ghp, Marker("github-pat"), pw, Marker("database-url-password")).Replace(text)
		if rec.Message.Content[1].Content != wantText {
			t.Errorf("scrubbed text %q\nwant %q", rec.Message.Content[1].Content, wantText)
		}
		// A scrubbed line has nothing left to find.
		if again, _, _ := a.ScanJSON(&sc, scrubbed, a.Find(scrubbed, nil)); len(again) != 0 {
			t.Errorf("after the scrub: %+v", again)
		}
	}
}

func TestScanJSONPaths(t *testing.T) {
	tok := "glpat-" + fakeToken(73, alnum, 20)
	line := []byte(`{"type":"assistant","a":[1,{"we ird":["x","` + tok + `"]}],"b":{"c":"` + tok + `"}}`)
	a := SecretAnchors()
	var sc jsonscan.Scanner
	spans, _, err := a.ScanJSON(&sc, line, a.Find(line, nil))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, s := range spans {
		paths = append(paths, s.Path)
	}
	if want := []string{`a[1]["we ird"][1]`, "b.c"}; !slices.Equal(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
	if _, _, err := a.ScanJSON(&sc, []byte(`{"a":"`+tok+`"`), a.Find([]byte(tok), nil)); err == nil {
		t.Error("a broken line must be an error (the caller scans it as text)")
	}
}

// ScanText and Scan agree on secrets: the same rules, windows and
// allowlists, on every corpus file.
func TestScanTextAgreesWithScan(t *testing.T) {
	paths, _ := globCorpus()
	a := SecretAnchors()
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkAtRestAgrees(t, a, string(data))
	}
}

func checkAtRestAgrees(t *testing.T, a *Anchors, text string) {
	t.Helper()
	var want []string
	for _, f := range Scan("f", text) {
		if f.Category == CategorySecret && !strings.Contains(f.Message, "not listed") {
			want = append(want, string(f.Rule)+" "+f.Excerpt)
		}
	}
	var got []string
	for _, s := range a.ScanText([]byte(text), a.Find([]byte(text), nil)) {
		got = append(got, string(s.Rule)+" "+s.Excerpt)
	}
	if len(want) < maxFindingsPerRule && !slices.Equal(got, want) {
		t.Fatalf("ScanText %q\nScan     %q", got, want)
	}
}

func FuzzScanJSON(f *testing.F) {
	f.Add(string(record("API_KEY=" + fakeToken(80, alnum, 20) + "\nghp_" + fakeToken(81, alnum, 36))))
	f.Add(`{"a":"\u0041KIA` + fakeToken(82, base32U, 16) + `","b":"AKIA` + fakeToken(83, base32U, 16) + `\n"}`)
	f.Add(`["x\"SG.` + fakeToken(84, keyish, 22) + "." + fakeToken(85, keyish, 43) + `"]`)
	f.Fuzz(func(t *testing.T, line string) {
		a := SecretAnchors()
		var sc jsonscan.Scanner
		b := []byte(line)
		hits := a.Find(b, nil)
		if len(hits) == 0 {
			return // not even parsed: nothing can match
		}
		spans, _, err := a.ScanJSON(&sc, b, hits)
		if (err == nil) != json.Valid(b) {
			t.Fatalf("ScanJSON err %v, json.Valid %v", err, json.Valid(b))
		}
		if err != nil {
			return
		}
		at := 0
		for _, s := range spans {
			if s.Start < at || s.End <= s.Start || s.End > len(b) {
				t.Fatalf("span %d..%d out of order or range", s.Start, s.End)
			}
			at = s.End
		}
		scrubbed := slices.Clone(b)
		for i := len(spans) - 1; i >= 0; i-- {
			s := spans[i]
			scrubbed = slices.Concat(scrubbed[:s.Start], []byte(Marker(s.Rule)), scrubbed[s.End:])
		}
		if !json.Valid(scrubbed) {
			t.Fatalf("scrubbed %q is not JSON", scrubbed)
		}
	})
}

func globCorpus() ([]string, error) {
	return filepath.Glob("testdata/scan/*/*")
}

// BenchmarkSecretsAtRest is the whole-home scan's inner loop on the real
// transcripts in model/testdata (prose replaced, structure and sizes as
// the client wrote them), one line at a time: find the anchors, and
// decode and match the lines that have one.
func BenchmarkSecretsAtRest(b *testing.B) {
	var data []byte
	for _, name := range []string{"transcript-interactive-pastes.jsonl", "transcript-partial-compactions.jsonl"} {
		d, err := os.ReadFile(filepath.Join("..", "..", "model", "testdata", "transcripts", name))
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d...)
	}
	// One planted secret per 64 KiB, in a tool result.
	planted := record("API_KEY=" + fakeToken(90, alnum, 24))
	var lines [][]byte
	n := 0
	for l := range bytes.Lines(data) {
		lines = append(lines, bytes.TrimSuffix(l, []byte("\n")))
		n += len(l)
		if n > 64<<10 {
			lines, n = append(lines, planted), 0
		}
	}
	total := 0
	for _, l := range lines {
		total += len(l) + 1
	}
	a := SecretAnchors()
	var sc jsonscan.Scanner
	var hits []AnchorHit
	b.SetBytes(int64(total))
	found := 0
	for b.Loop() {
		found = 0
		for _, l := range lines {
			hits = a.Find(l, hits[:0])
			if len(hits) == 0 {
				continue
			}
			spans, _, err := a.ScanJSON(&sc, l, hits)
			if err != nil {
				b.Fatal(err)
			}
			found += len(spans)
		}
	}
	if found == 0 {
		b.Fatal("the planted secrets were not found")
	}
}

// The base64 bytes of an image block are not scanned: random letters
// hold anchors by chance, never a secret a pattern can see. A secret in
// the text beside the image is found.
func TestScanJSONSkipsMediaData(t *testing.T) {
	img := strings.Repeat("eyJhbGciOiJIUzI1NiJ9SK0123456789abcdef0123456789abcdef", 2000)
	tok := "ghp_" + fakeToken(91, alnum, 36)
	line := []byte(`{"type":"user","message":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + img + `"}},{"type":"text","text":"` + tok + `"}]}}`)
	a := SecretAnchors()
	var sc jsonscan.Scanner
	spans, _, err := a.ScanJSON(&sc, line, a.Find(line, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) != 1 || spans[0].Secret != tok || spans[0].Path != "message.content[1].text" {
		t.Fatalf("spans %+v", spans)
	}
}
