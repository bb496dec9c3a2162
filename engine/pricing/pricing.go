// Package pricing turns API usage into US dollars, offline, from a price
// table embedded in memscope (prices.json, dated) or given by the user
// (--pricing FILE, merged over it).
//
// A response costs what the client recorded for it when it recorded a
// costUSD, else its tokens at the model's rates: input, output, cache
// writes at the 5-minute or the 1-hour rate (usage.cache_creation says
// which), cache reads; a request whose input (input + cache writes +
// cache reads) is above the long-context threshold is charged entirely at
// the model's long-context rates where the API has them; speed "fast"
// multiplies by the model's fast factor. A model the table does not know
// is not priced: its tokens are counted as unpriced, never as $0.
package pricing

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/memscope/memscope/model"
)

//go:embed prices.json
var embedded []byte

// Rates are prices in USD per million tokens.
type Rates struct {
	Input        float64 `json:"input"`
	Output       float64 `json:"output"`
	CacheWrite5m float64 `json:"cacheWrite5m"`
	CacheWrite1h float64 `json:"cacheWrite1h"`
	CacheRead    float64 `json:"cacheRead"`
}

// Model is one model's prices.
type Model struct {
	// ID is the model's name without a date or provider ("claude-opus-4-5");
	// it prices every name it is the longest match of (Lookup).
	ID string `json:"id"`
	Rates
	// LongContext are the rates of a request above the threshold; nil when
	// the API has none for the model.
	LongContext *Rates `json:"longContext,omitempty"`
	// Fast multiplies the cost of a response with usage.speed "fast" (0: 1).
	Fast float64 `json:"fast,omitempty"`
	Note string  `json:"note,omitempty"`
}

// Table is a dated price list.
type Table struct {
	Date   string `json:"date"`
	Source string `json:"source"`
	// LongContextThreshold is the request input above which long-context
	// rates apply (200 000 tokens).
	LongContextThreshold int64   `json:"longContextThreshold"`
	Models               []Model `json:"models"`
	// File is where the table was read from ("" for the embedded one); a
	// merged table names the user's file.
	File string `json:"file,omitempty"`
	// Base is the embedded table's date when File was merged over it.
	Base string `json:"base,omitempty"`
}

// Embedded is the table built into memscope (parsed once; each call
// returns its own copy of the model list).
func Embedded() Table {
	t := embeddedTable()
	t.Models = append([]Model(nil), t.Models...)
	return t
}

var embeddedTable = sync.OnceValue(func() Table {
	t, err := Parse(embedded, "")
	if err != nil {
		panic("pricing: the embedded prices.json is invalid: " + err.Error())
	}
	return t
})

// Parse reads a table in prices.json's format. Unknown fields, a model
// without an id, negative or missing rates are errors that name the file
// (name) and the line.
func Parse(data []byte, name string) (Table, error) {
	var t Table
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return Table{}, fmt.Errorf("%s: %w", where(name, data, dec.InputOffset(), err), err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Table{}, fmt.Errorf("%s: more than one JSON value", where(name, data, dec.InputOffset(), nil))
	}
	if t.LongContextThreshold == 0 {
		t.LongContextThreshold = 200_000
	}
	seen := map[string]bool{}
	for i, m := range t.Models {
		what := fmt.Sprintf("%s: models[%d]", orEmbedded(name), i)
		switch {
		case m.ID == "":
			return Table{}, fmt.Errorf("%s: no id", what)
		case seen[m.ID]:
			return Table{}, fmt.Errorf("%s: %q is listed twice", what, m.ID)
		case !m.Rates.valid() || m.LongContext != nil && !m.LongContext.valid() || m.Fast < 0:
			return Table{}, fmt.Errorf("%s (%s): a rate is negative", what, m.ID)
		case m.Input == 0 && m.Output == 0:
			return Table{}, fmt.Errorf("%s (%s): no input or output rate", what, m.ID)
		}
		seen[m.ID] = true
		t.Models[i].ID = strings.ToLower(m.ID)
	}
	t.File = name
	return t, nil
}

func (r Rates) valid() bool {
	return r.Input >= 0 && r.Output >= 0 && r.CacheWrite5m >= 0 && r.CacheWrite1h >= 0 && r.CacheRead >= 0
}

func orEmbedded(name string) string {
	if name == "" {
		return "embedded prices.json"
	}
	return name
}

// where names the file and the line of offset (or of a syntax error).
func where(name string, data []byte, offset int64, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		offset = se.Offset
	case errors.As(err, &te):
		offset = te.Offset
	}
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	return fmt.Sprintf("%s:%d", orEmbedded(name), 1+bytes.Count(data[:offset], []byte("\n")))
}

// Merge returns base with over's models added, or replacing base's of the
// same id; the result carries over's date and file.
func Merge(base, over Table) Table {
	out := base
	out.Models = append([]Model(nil), base.Models...)
	for _, m := range over.Models {
		replaced := false
		for i := range out.Models {
			if out.Models[i].ID == m.ID {
				out.Models[i], replaced = m, true
			}
		}
		if !replaced {
			out.Models = append(out.Models, m)
		}
	}
	out.Base = base.Date
	out.Date, out.File = over.Date, over.File
	if over.Source != "" {
		out.Source = over.Source
	}
	if over.LongContextThreshold != 0 {
		out.LongContextThreshold = over.LongContextThreshold
	}
	return out
}

// providerPrefixes are stripped from a model name before matching.
var providerPrefixes = []string{"us.anthropic.", "eu.anthropic.", "apac.anthropic.", "global.anthropic.", "anthropic.", "anthropic/", "bedrock/", "vertex_ai/"}

// aliases are older spellings of model names.
var aliases = map[string]string{"claude-4-opus": "claude-opus-4", "claude-4-sonnet": "claude-sonnet-4"}

// Normalize is the name a model is looked up by: lower case, without a
// provider prefix, a Bedrock version suffix (-v1:0), or a date
// (-20250929, @20250929).
func Normalize(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, p := range providerPrefixes {
		n = strings.TrimPrefix(n, p)
	}
	if i := strings.LastIndex(n, "-v"); i >= 0 && strings.Contains(n[i:], ":") {
		n = n[:i]
	}
	if i := strings.LastIndexAny(n, "-@"); i >= 0 && isDate(n[i+1:]) {
		n = n[:i]
	}
	for old, nw := range aliases {
		if strings.HasPrefix(n, old) {
			n = nw + n[len(old):]
		}
	}
	return n
}

func isDate(s string) bool {
	if len(s) != 8 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Lookup finds the prices of a model name as a transcript writes it: the
// model whose id is the name (normalized), else the longest id the name
// starts with followed by "-" ("claude-opus-4-5-thinking" is
// claude-opus-4-5, but "claude-opus-4" never prices "claude-opus-45").
func (t Table) Lookup(name string) (Model, bool) {
	n := Normalize(name)
	best := -1
	for i, m := range t.Models {
		if m.ID == n {
			return m, true
		}
		if strings.HasPrefix(n, m.ID+"-") && (best < 0 || len(m.ID) > len(t.Models[best].ID)) {
			best = i
		}
	}
	if best < 0 {
		return Model{}, false
	}
	return t.Models[best], true
}

// Response is one API response's usage as a transcript line records it.
type Response struct {
	Model string
	Usage model.Usage
	// CacheWrite1h is the part of Usage.CacheCreationInputTokens written
	// to the 1-hour cache (usage.cache_creation.ephemeral_1h_input_tokens).
	CacheWrite1h int64
	// Fast says usage.speed was "fast".
	Fast bool
	// Recorded is the line's costUSD, when it has one.
	Recorded    float64
	HasRecorded bool
}

// ResponseOf is the response a decoded assistant message records (a
// message without usage is an empty response of its model). The sessions
// scan builds the same from its own field spans.
func ResponseOf(m *model.Message) Response {
	r := Response{Model: m.Model, CacheWrite1h: m.CacheWrite1h, Fast: m.Fast}
	if m.Usage != nil {
		r.Usage = *m.Usage
	}
	return r
}

// Cost is what a response costs, and whether it could be priced.
func (t Table) Cost(r Response) (usd float64, priced bool) {
	if r.HasRecorded {
		return r.Recorded, true
	}
	m, ok := t.Lookup(r.Model)
	return t.costAt(m, ok, r)
}

// costAt is Cost for a response of the model m (ok false: the table has
// no price for it), looked up once for many responses.
func (t *Table) costAt(m Model, ok bool, r Response) (usd float64, priced bool) {
	if r.HasRecorded {
		return r.Recorded, true
	}
	if !ok {
		return 0, false
	}
	u := r.Usage
	rates := m.Rates
	if m.LongContext != nil && u.ContextTokens() > t.LongContextThreshold {
		rates = *m.LongContext
	}
	w1h := min(max(r.CacheWrite1h, 0), u.CacheCreationInputTokens)
	w5m := u.CacheCreationInputTokens - w1h
	usd = (float64(u.InputTokens)*rates.Input +
		float64(u.OutputTokens)*rates.Output +
		float64(w5m)*rates.CacheWrite5m +
		float64(w1h)*rates.CacheWrite1h +
		float64(u.CacheReadInputTokens)*rates.CacheRead) / 1e6
	if r.Fast && m.Fast > 0 {
		usd *= m.Fast
	}
	return usd, true
}

// ModelCost is the usage and cost of one model in a session or a home.
type ModelCost struct {
	Model     string      `json:"model"`
	Usage     model.Usage `json:"usage"`
	Responses int         `json:"responses"`
	// CostUSD is the priced responses' cost; Priced is false when no
	// response of the model could be priced (its tokens are unpriced).
	CostUSD float64 `json:"costUSD"`
	Priced  bool    `json:"priced"`
	// rates are the prices of the model named ratesOf in the table of
	// the Sum's Add (found false: it has none), looked up once.
	rates         Model
	ratesOf       string
	found, looked bool
}

// Sum gathers responses' costs per model.
type Sum struct {
	byModel map[string]*ModelCost
}

// Add counts one response priced by t.
func (s *Sum) Add(t *Table, r Response) {
	if s.byModel == nil {
		s.byModel = map[string]*ModelCost{}
	}
	name := r.Model
	if name == "" {
		name = "(no model)"
	}
	mc := s.byModel[name]
	if mc == nil {
		mc = &ModelCost{Model: name}
		s.byModel[name] = mc
	}
	mc.Usage = mc.Usage.Add(r.Usage)
	mc.Responses++
	if !r.HasRecorded && (!mc.looked || mc.ratesOf != r.Model) {
		mc.rates, mc.found = t.Lookup(r.Model)
		mc.ratesOf, mc.looked = r.Model, true
	}
	if usd, ok := t.costAt(mc.rates, mc.found, r); ok {
		mc.CostUSD += usd
		mc.Priced = true
	}
}

// Merge adds another sum's models to s.
func (s *Sum) Merge(o Sum) {
	if s.byModel == nil {
		s.byModel = map[string]*ModelCost{}
	}
	for name, m := range o.byModel {
		mc := s.byModel[name]
		if mc == nil {
			cp := *m
			s.byModel[name] = &cp
			continue
		}
		mc.Usage = mc.Usage.Add(m.Usage)
		mc.Responses += m.Responses
		mc.CostUSD += m.CostUSD
		mc.Priced = mc.Priced || m.Priced
	}
}

// Models lists the models, most expensive first (then by name).
func (s Sum) Models() []ModelCost {
	out := make([]ModelCost, 0, len(s.byModel))
	for _, m := range s.byModel {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CostUSD != out[j].CostUSD {
			return out[i].CostUSD > out[j].CostUSD
		}
		return out[i].Model < out[j].Model
	})
	return out
}

// Total is the cost of every priced response, and the tokens of the
// models that could not be priced (zero-token models such as the
// client's "<synthetic>" are not counted as unpriced).
func (s Sum) Total() (usd float64, unpriced model.Usage, unpricedModels []string) {
	for _, m := range s.Models() {
		usd += m.CostUSD
		if !m.Priced && m.Usage != (model.Usage{}) {
			unpriced = unpriced.Add(m.Usage)
			unpricedModels = append(unpricedModels, m.Model)
		}
	}
	sort.Strings(unpricedModels)
	return usd, unpriced, unpricedModels
}
