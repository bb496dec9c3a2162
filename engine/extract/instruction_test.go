package extract

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// instructionCorpus is every sentence of the ledger's labelled set and of
// this package's written session, plus sentences each rule matches.
func instructionCorpus(t *testing.T) []string {
	t.Helper()
	var texts []string
	f, err := os.Open("../ledger/testdata/instructions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct{ Text string }
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, l.Text)
	}
	raw, err := os.ReadFile("testdata/extract/refactor_session.json")
	if err != nil {
		t.Fatal(err)
	}
	var session struct{ Messages []string }
	if err := json.Unmarshal(raw, &session); err != nil {
		t.Fatal(err)
	}
	texts = append(texts, session.Messages...)
	texts = append(texts,
		"Could you please stop adding emojis?", "Go with sqlc instead of gorm.", "Instead of mocks, use the test server.",
		"Actually, we use make for builds.", "Keep it simple, that was the right approach.", "Spot on, do it this way every time.",
		"I'd rather have one file per handler.", "I can't stand long functions.", "Bear in mind the API is public.",
		"For future reference, the staging box is slow.", "In general, log at debug level.", "By default, return errors up.",
		"Under no circumstances print the token.", "You mustn't log secrets.", "We don't vendor dependencies here.")
	var out []string
	for _, text := range texts {
		if strings.Contains(text, "pasted_content") {
			text = inPasteTag.ReplaceAllString(text, "\n")
		}
		out = append(out, exSentences(exCleanMessage(text))...)
	}
	return out
}

// TestInstructionWordsCoverRules: no rule classifies a sentence as an
// instruction unless it holds one of inWords, so the word check in front
// of the rules never hides one.
func TestInstructionWordsCoverRules(t *testing.T) {
	n := 0
	for _, s := range instructionCorpus(t) {
		if _, ok := classifyInstruction(s, ""); ok {
			n++
			if !hasInstructionWord(s) {
				t.Errorf("instruction %q holds none of inWords", s)
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d instructions in the corpus: the check proves little", n)
	}
}

// TestInstructionPatternWords: every match of a pattern inNeeds lists
// holds one of its words (inFold), on the corpus, its sentences in upper
// case, and sentences written to match each pattern (some with ſ and the
// Kelvin sign, which case-insensitive patterns read as s and k); so the
// word check skips no match. It fails when a pattern gains a word.
func TestInstructionPatternWords(t *testing.T) {
	extra := []string{
		"Never mind, that was fine.", "NO WORRIES about it.", "It always fails on Mondays.", "I did never get it to build.",
		"Use pnpm, not npm.", "Call the helper rather than the raw query.", "Prefer errors.Is over string compares.",
		"From now on, run gofmt.", "Going forward keep it short.", "You muſt ask first.", "Do not push to main.",
		"AS A RULE, small commits.", "Under no circumstances touch prod.", "Whenever you edit, test.", "\u212aeep it short: never guess.",
		"Don’t mock the db.", "it alwaYs breaks", "uſe tabs, not spaces",
		"The cache is per user, remember that.", "Tabs everywhere; please \u212aeep in mind this.", "no mocks - NOTE THAT!",
	}
	sentences := append(instructionCorpus(t), extra...)
	for _, s := range instructionCorpus(t) {
		sentences = append(sentences, strings.ToUpper(s))
	}
	n := 0
	for re, words := range inNeeds {
		for _, s := range sentences {
			s = exStraightQuotes(s)
			if !re.MatchString(s) {
				continue
			}
			n++
			if !inMatch(re, s, inFold(s)) {
				t.Errorf("%q matches the pattern of %q but holds none of them", s, words)
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d matches: the check proves little", n)
	}
}

// TestInstructions: pasted rules count, questions and narrative do not,
// and each instruction keeps its sentence.
func TestInstructions(t *testing.T) {
	got := Instructions("Here is the guide:\n<pasted_content id=\"a\">Always run the linter.</pasted_content id=\"a\">\nWhy is CI red? It always fails on Mondays. Never mind.")
	if len(got) != 1 || got[0].Sentence != "Always run the linter." {
		t.Errorf("Instructions = %+v", got)
	}
}
