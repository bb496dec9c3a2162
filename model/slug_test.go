package model

import (
	"strings"
	"testing"
	"testing/fstest"
)

// Expected long slugs were computed with node (the client's runtime):
// s.replace(/[^a-zA-Z0-9]/g, "-"), then slice(0, 200) + "-" +
// Math.abs(hashCode).toString(36) with hashCode = (31*h + charCode) | 0.
func TestSlug(t *testing.T) {
	long := "/home/me/" + strings.Repeat("a", 250)
	wide := "/home/me/" + strings.Repeat("é😀", 80) + strings.Repeat("x", 40)
	minInt := "/p/" + strings.Repeat("a", 3662) + "\u4e00\u82f2"
	tests := []struct {
		name, in, want string
	}{
		{"FORMATS example", "/home/me/my_app", "-home-me-my-app"},
		{"alnum kept", "abcXYZ019", "abcXYZ019"},
		{"dots and spaces", "/a b/c.d", "-a-b-c-d"},
		{"accented letter is one UTF-16 unit", "/é", "--"},
		{"emoji is two UTF-16 units", "/😀", "---"},
		{"CJK", "/项目", "---"},
		{"empty", "", ""},
		{"exactly 200 kept whole", "/" + strings.Repeat("b", 199), "-" + strings.Repeat("b", 199)},
		{"over 200 hashed", long, "-home-me-" + strings.Repeat("a", 191) + "-ff1n06"},
		{"over 200 with surrogates", wide, "-home-me-" + strings.Repeat("-", 191) + "-j1j5nu"},
		{"hashCode is MinInt32: abs stays positive", minInt, "-p-" + strings.Repeat("a", 197) + "-zik0zk"},
		{"invalid UTF-8 byte is one unit", "/a\xffb", "-a-b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Slug(tt.in); got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFindProjectDir(t *testing.T) {
	long := "/home/me/" + strings.Repeat("a", 250)
	prefix := "-home-me-" + strings.Repeat("a", 191)
	tests := []struct {
		name   string
		dirs   []string
		path   string
		want   string
		wantOK bool
	}{
		{"exact short", []string{"-home-me-app"}, "/home/me/app", "-home-me-app", true},
		{"short needs exact match", []string{"-home-me-app-x"}, "/home/me/app", "", false},
		{"long exact", []string{prefix + "-ff1n06"}, long, prefix + "-ff1n06", true},
		{"long by prefix (older hash)", []string{prefix + "-oldhash"}, long, prefix + "-oldhash", true},
		{"long, first of several by name", []string{prefix + "-zz", prefix + "-aa"}, long, prefix + "-aa", true},
		{"long, other prefix", []string{"-home-me-b"}, long, "", false},
		{"no projects folder", nil, "/x", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, d := range tt.dirs {
				fsys["projects/"+d+"/x.jsonl"] = &fstest.MapFile{}
			}
			got, ok := FindProjectDir(fsys, tt.path)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("FindProjectDir = %q, %v; want %q, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
