package widgets

import (
	"sort"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// Say is a sentence the simulator stated as data, in the reader's
// language. The simulator cannot use the lookup, so it hands over the key
// and figures beside its own English; english is shown when the words
// have no key (a snapshot built by hand, a sentence not yet keyed).
func Say(w sim.Words, english string) string { return SayIn(i18n.Current(), w, english) }

// SayIn is Say in language l, for text kept in both languages at once
// (the captions of a found fault schedule).
func SayIn(l i18n.Lang, w sim.Words, english string) string {
	if w.Key == "" {
		return english
	}
	args := make([]any, 0, 2*(len(w.Args)+len(w.Terms)+len(w.Parts)))
	for _, name := range sortedNames(w.Args) {
		args = append(args, name, w.Args[name])
	}
	for _, name := range sortedNames(w.Terms) {
		args = append(args, name, i18n.TermIn(l, w.Terms[name]))
	}
	for _, name := range sortedNames(w.Parts) {
		args = append(args, name, SayIn(l, w.Parts[name], ""))
	}
	return i18n.Fin(l, w.Key, args...)
}

// SayBoth is the words in English and in Chinese, for text a file keeps
// in both languages (a caption).
func SayBoth(w sim.Words) (en, zh string) {
	return SayIn(i18n.English, w, ""), SayIn(i18n.Chinese, w, "")
}

// sortedNames are a map's keys in order, so the same words always make
// the same argument list.
func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
