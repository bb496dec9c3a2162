package config

import (
	"encoding/json"

	"github.com/memscope/memscope/config/theme"
	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/keymap"
)

// Schema is the JSON Schema (draft 2020-12) of the settings file, built
// from the same lists the reader checks against (key binding names, colour
// roles, memory types); config/schema.json is this, committed, and
// TestSchemaIsCommitted keeps the two equal.
func Schema() []byte {
	obj := func(props map[string]any) map[string]any {
		return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	}
	keyList := map[string]any{"oneOf": []any{
		map[string]any{"type": "string", "minLength": 1},
		map[string]any{"type": "array", "minItems": 1, "items": map[string]any{"type": "string", "minLength": 1}},
	}}
	keys := map[string]any{}
	for _, n := range keymap.Names() {
		keys[n] = keyList
	}
	colour := map[string]any{"type": "string", "pattern": colourRE.String()}
	roles := map[string]any{}
	for _, r := range theme.RoleNames() {
		roles[r] = colour
	}
	days := map[string]any{"type": "integer", "minimum": 0, "maximum": 36500}
	stale := map[string]any{}
	for _, t := range StalenessTypes {
		stale[t] = obj(map[string]any{"aging_days": days, "stale_days": days})
	}
	decision := map[string]any{"enum": []string{string(gate.Allow), string(gate.Ask), string(gate.Deny)}}
	gateRules := map[string]any{}
	for _, r := range gate.Rules() {
		gateRules[string(r)] = decision
	}
	pct := map[string]any{"type": "number", "minimum": 0, "maximum": 100}
	s := obj(map[string]any{
		"home":       map[string]any{"type": "string"},
		"export_dir": map[string]any{"type": "string"},
		"mouse":      map[string]any{"type": "boolean"},
		"keys":       obj(keys),
		"theme":      obj(map[string]any{"light": obj(roles), "dark": obj(roles)}),
		"staleness":  obj(stale),
		"live":       obj(map[string]any{"warn_percent": pct, "alert_percent": pct}),
		"gate":       obj(gateRules),
	})
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	s["$id"] = "https://github.com/memscope/memscope/config/schema.json"
	s["title"] = "memscope settings (config.yaml)"
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}
