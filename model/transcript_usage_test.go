package model

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// usageAgrees checks plainUsage against json.Unmarshal on the valid
// object v: when it reads v, json.Unmarshal reads it without error and to
// the same values; it reports whether plainUsage read it.
func usageAgrees(t *testing.T, v string) bool {
	t.Helper()
	got, ok := plainUsage([]byte(v))
	if !ok {
		return false
	}
	want := new(usageJSON)
	if err := json.Unmarshal([]byte(v), want); err != nil {
		t.Errorf("plainUsage read %s, which json.Unmarshal refuses: %v", v, err)
	} else if *got != *want {
		t.Errorf("plainUsage(%s) = %+v, json.Unmarshal %+v", v, *got, *want)
	}
	return true
}

// TestPlainUsageIsUnmarshal: on 20 000 usage objects built from a fixed
// seed (the keys as written, in other cases, with ſ and the Kelvin sign,
// unknown ones, repeated; integers, negative, too large, floats,
// exponents, null, strings, objects), what plainUsage reads is what
// json.Unmarshal reads, and it leaves to json.Unmarshal every object that
// is an error there (those give the reader's field problem). Both kinds
// must come up often, or the test proves little.
func TestPlainUsageIsUnmarshal(t *testing.T) {
	keys := []string{"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "speed", "cache_creation",
		"Input_Tokens", "ſpeed", "cache_read_input_to\u212aens", "service_tier", "server_tool_use", "OUTPUT_TOKENS"}
	vals := []string{"0", "12", "-3", "9223372036854775807", "9223372036854775808", "1.5", "1e3", "null", `"fast"`, `"standard"`, "true", "[]",
		`{"ephemeral_1h_input_tokens":7}`, `{"ephemeral_5m_input_tokens":1,"ephemeral_1h_input_tokens":null}`, `{"Ephemeral_1h_input_tokens":2}`, `{"ephemeral_1h_input_tokens":2.5}`}
	rng := rand.New(rand.NewPCG(3, 4))
	read, left := 0, 0
	for range 20000 {
		var parts []string
		for range rng.IntN(6) {
			k, _ := json.Marshal(keys[rng.IntN(len(keys))])
			parts = append(parts, string(k)+":"+vals[rng.IntN(len(vals))])
		}
		v := "{" + strings.Join(parts, ",") + "}"
		if usageAgrees(t, v) {
			read++
		} else {
			left++
		}
	}
	if read < 1000 || left < 1000 {
		t.Errorf("read %d, left %d: the mix proves little", read, left)
	}
}

// FuzzPlainUsage holds plainUsage to json.Unmarshal on any valid object.
func FuzzPlainUsage(f *testing.F) {
	f.Add(`{"input_tokens":3,"output_tokens":5,"cache_creation":{"ephemeral_1h_input_tokens":2},"speed":"fast"}`)
	f.Add(`{"Input_Tokens":3}`)
	f.Add(`{"input_tokens":1.0}`)
	f.Fuzz(func(t *testing.T, v string) {
		if !json.Valid([]byte(v)) || !strings.HasPrefix(v, "{") {
			return
		}
		usageAgrees(t, v)
	})
}
