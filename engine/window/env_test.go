package window

import "testing"

func TestWithEnv(t *testing.T) {
	tests := []struct {
		env  string
		want Tokens // autocompact threshold of the 200k window
	}{
		{"", 167000},
		{"50", 90000}, // effective 180000 × 50 %
		{" 80 ", 144000},
		{"95", 167000}, // 171000 is above the default: the override only lowers
		{"0", 167000},
		{"100", 167000},
		{"abc", 167000},
		{"50.5", 167000},
	}
	for _, tt := range tests {
		w := Size200k().WithEnv(func(k string) string {
			if k == EnvAutocompactPct {
				return tt.env
			}
			return "x"
		})
		if got := w.AutocompactAt(); got != tt.want {
			t.Errorf("%s=%q: autocompact at %d, want %d", EnvAutocompactPct, tt.env, got, tt.want)
		}
	}
	if w := Size1M().WithEnv(nil); w != Size1M() {
		t.Errorf("nil getenv changed the window: %+v", w)
	}
}
