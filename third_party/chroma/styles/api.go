package styles

import (
	"embed"
	"io/fs"
	"sort"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed *.xml
var embedded embed.FS

// Registry of Styles.
//
// memscope patch: the ~70 embedded XML styles are parsed on first use
// (Get of a name not yet registered, Names) instead of at program start,
// which cost every memscope command about 7 ms. Only the fallback style
// is parsed at start. Code that reads Registry directly sees the styles
// registered so far; Register and Get work as upstream.
var Registry = map[string]*chroma.Style{}

var (
	loadMu sync.Mutex
	loaded bool
)

// Fallback style. Reassign to change the default fallback style.
var Fallback = func() *chroma.Style {
	style := parse("swapoff.xml")
	Registry[style.Name] = style
	return style
}()

func parse(name string) *chroma.Style {
	r, err := embedded.Open(name)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	style, err := chroma.NewXMLStyle(r)
	if err != nil {
		panic(err)
	}
	return style
}

// loadAll registers every embedded style not registered yet.
func loadAll() {
	loadMu.Lock()
	defer loadMu.Unlock()
	if loaded {
		return
	}
	files, err := fs.ReadDir(embedded, ".")
	if err != nil {
		panic(err)
	}
	for _, file := range files {
		if file.IsDir() {
			continue
		}
		style := parse(file.Name())
		if _, ok := Registry[style.Name]; !ok {
			Registry[style.Name] = style
		}
	}
	loaded = true
}

// Register a chroma.Style.
func Register(style *chroma.Style) *chroma.Style {
	Registry[style.Name] = style
	return style
}

// Names of all available styles.
func Names() []string {
	loadAll()
	out := []string{}
	for name := range Registry {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Get named style, or Fallback.
func Get(name string) *chroma.Style {
	if style, ok := Registry[name]; ok {
		return style
	}
	loadAll()
	if style, ok := Registry[name]; ok {
		return style
	}
	return Fallback
}
