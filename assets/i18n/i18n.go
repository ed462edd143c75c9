// Package i18n is the one lookup every word LockScope shows goes through:
// the window, the widgets and the command line's readable output. The words
// live in assets/translations/<lang>.json (Fyne's lang format: key → text,
// {{.name}} placeholders). Unlike fyne.io/fyne/v2/lang, whose language is
// fixed by the system locale when the program starts, the language here can
// be switched while the window is open; the package has no Fyne import, so
// the simulator's command line can use it too.
package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/text/language"

	"github.com/lockscope/lockscope/assets"
)

// Lang is a language the program speaks, named by its translation file.
type Lang string

// The languages with a translation file. English is the fallback for a key
// another language lacks (a test makes sure none does).
const (
	English Lang = "en"
	Chinese Lang = "zh"
)

// Langs lists the languages in the order the settings offer them.
var Langs = []Lang{English, Chinese}

// Name is the language's own name for itself, the same in every language,
// so a person who cannot read the current one still finds theirs.
func (l Lang) Name() string {
	switch l {
	case Chinese:
		return "简体中文"
	}
	return "English"
}

// Parse reads a language code as the settings store it or a person types
// it (--lang zh): "en", "zh", "zh-CN", "zh_CN.UTF-8". ok is false for
// anything else.
func Parse(s string) (l Lang, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return English, false
	}
	tag, err := parseLocale(s)
	if err != nil {
		return English, false
	}
	base, _ := tag.Base()
	switch base.String() {
	case "zh":
		return Chinese, true
	case "en":
		return English, true
	}
	return English, false
}

// FromLocale picks the language for a system locale: Chinese for any zh-*
// locale, English for everything else, including locales that do not
// parse at all ("C", "POSIX", ""), without complaint: that is what a
// minimal system or a CI box reports.
func FromLocale(locale string) Lang {
	if tag, err := parseLocale(locale); err == nil {
		if base, _ := tag.Base(); base.String() == "zh" {
			return Chinese
		}
	}
	return English
}

// parseLocale reads a POSIX locale (zh_CN.UTF-8@pinyin) or a BCP 47 tag.
func parseLocale(s string) (language.Tag, error) {
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	s = strings.ReplaceAll(s, "_", "-")
	if s == "" || s == "C" || s == "POSIX" {
		return language.Und, fmt.Errorf("locale %q names no language", s)
	}
	return language.Parse(s)
}

var current atomic.Value // Lang

// Current is the language words are looked up in.
func Current() Lang {
	if l, ok := current.Load().(Lang); ok {
		return l
	}
	return English
}

// Set makes l the language of every later lookup and reports whether that
// changed anything. Whoever shows words must then redraw them.
func Set(l Lang) bool {
	if _, ok := tables()[l]; !ok {
		l = English
	}
	return current.Swap(l) != l
}

// T is the text of key in the current language.
func T(key string) string { return In(Current(), key) }

// F is the text of key in the current language with its {{.name}}
// placeholders filled from args, given as name, value pairs:
//
//	i18n.F("status.cursor", "at", "1.5 s", "end", "30 s")
func F(key string, args ...any) string { return Fin(Current(), key, args...) }

// In is the text of key in language l. A key l lacks falls back to
// English, and a key no language has comes back as itself, so a missing
// word shows as its key rather than as nothing; tests keep both from
// happening.
func In(l Lang, key string) string {
	t := tables()
	if m, ok := t[l][key]; ok {
		return m.text
	}
	if m, ok := t[English][key]; ok {
		return m.text
	}
	return key
}

// Fin is F in language l.
func Fin(l Lang, key string, args ...any) string {
	t := tables()
	m, ok := t[l][key]
	if !ok {
		if m, ok = t[English][key]; !ok {
			return key
		}
	}
	if len(m.parts) == 0 {
		return m.text
	}
	var b strings.Builder
	for _, p := range m.parts {
		if !p.hole {
			b.WriteString(p.s)
			continue
		}
		b.WriteString(arg(args, p.s))
	}
	return b.String()
}

// arg finds the value of a placeholder among name, value pairs; a missing
// one shows as its placeholder, so the slip is visible.
func arg(args []any, name string) string {
	for i := 0; i+1 < len(args); i += 2 {
		if n, ok := args[i].(string); ok && n == name {
			switch v := args[i+1].(type) {
			case string:
				return v
			case fmt.Stringer:
				return v.String()
			default:
				return fmt.Sprint(v)
			}
		}
	}
	return "{{." + name + "}}"
}

// Term translates a word the simulator hands out as data (a server's role
// such as "leader", a fault's kind): the text of "term.<word>", or the word
// itself when no language has that key.
func Term(word string) string { return TermIn(Current(), word) }

// TermIn is Term in language l.
func TermIn(l Lang, word string) string {
	if word == "" || !Has(English, "term."+word) {
		return word
	}
	return In(l, "term."+word)
}

// Has reports whether language l has its own text for key.
func Has(l Lang, key string) bool {
	_, ok := tables()[l][key]
	return ok
}

// Keys lists the keys of language l, sorted.
func Keys(l Lang) []string {
	var out []string
	for k := range tables()[l] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Placeholders lists the {{.name}} placeholders of key in language l in
// the order they appear.
func Placeholders(l Lang, key string) []string {
	var out []string
	for _, p := range tables()[l][key].parts {
		if p.hole {
			out = append(out, p.s)
		}
	}
	return out
}

// message is one translated text, split at its placeholders.
type message struct {
	text  string
	parts []part // nil when the text has no placeholder
}

type part struct {
	s    string // literal text, or the placeholder's name
	hole bool
}

var (
	loadOnce sync.Once
	loaded   map[Lang]map[string]message
	loadErr  error
)

// tables parses the translation files once.
func tables() map[Lang]map[string]message {
	loadOnce.Do(func() { loaded, loadErr = Load(assets.Translations, assets.TranslationsDir) })
	return loaded
}

// LoadError is what went wrong reading the bundled translations, nil when
// nothing did. A test checks it; at run time a broken file only makes its
// words fall back to English or to their keys.
func LoadError() error {
	tables()
	return loadErr
}

// Load reads every <lang>.json under dir of fsys. It keeps what parses
// and returns the first error, naming the file and key.
func Load(fsys fs.FS, dir string) (map[Lang]map[string]message, error) {
	out := map[Lang]map[string]message{}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return out, err
	}
	var first error
	keep := func(err error) {
		if first == nil {
			first = err
		}
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		l := Lang(strings.TrimSuffix(name, ".json"))
		b, err := fs.ReadFile(fsys, dir+"/"+name)
		if err != nil {
			keep(err)
			continue
		}
		var raw map[string]string
		if err := json.Unmarshal(b, &raw); err != nil {
			keep(fmt.Errorf("%s: %w", name, err))
			continue
		}
		table := map[string]message{}
		for k, v := range raw {
			parts, err := split(v)
			if err != nil {
				keep(fmt.Errorf("%s: %q: %w", name, k, err))
			}
			table[k] = message{text: v, parts: parts}
		}
		out[l] = table
	}
	return out, first
}

// split cuts a text at its {{.name}} placeholders; nil for a text without
// any. Anything else between {{ and }} is an error: the files stay plain
// enough for Fyne's lang and go-i18n to read the same way.
func split(s string) ([]part, error) {
	if !strings.Contains(s, "{{") {
		return nil, nil
	}
	var out []part
	for s != "" {
		i := strings.Index(s, "{{")
		if i < 0 {
			out = append(out, part{s: s})
			break
		}
		if i > 0 {
			out = append(out, part{s: s[:i]})
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return nil, fmt.Errorf("unclosed {{ at byte %d", i)
		}
		name := strings.TrimSpace(s[i+2 : i+j])
		if !strings.HasPrefix(name, ".") || len(name) < 2 || strings.ContainsAny(name[1:], " .|()") {
			return nil, fmt.Errorf("placeholder {{%s}}: want {{.name}}", name)
		}
		out = append(out, part{s: name[1:], hole: true})
		s = s[i+j+2:]
	}
	return out, nil
}
