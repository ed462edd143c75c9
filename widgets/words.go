package widgets

import (
	"errors"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// LeaderWords is the key of key's words for a run whose clients elect a
// leader (sim.Elects: the snapshot's Candidate, the summary's and the
// timeline's Election): key + ".election", which says leader where key
// says holder; key itself otherwise.
func LeaderWords(key string, election bool) string {
	if election {
		return key + ".election"
	}
	return key
}

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

// WrapWords breaks text into lines no wider than width at the given size,
// as Chinese is set: between any two Chinese characters and at spaces, but
// never inside a Latin word or number ("Redis", "10 s" stay whole), and
// never with a closing mark (，。）) at a line's start. Fyne's labels wrap
// at spaces only, or anywhere ("Red" / "is").
func WrapWords(text string, size, width float32) []string {
	return WrapWordsStyled(text, size, width, false)
}

// WrapWordsStyled is WrapWords for regular or bold type.
func WrapWordsStyled(text string, size, width float32, bold bool) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, tok := range wordTokens(para) {
			try := tok.text
			if line != "" {
				try = line + tok.gap + tok.text
			}
			if line != "" && TextWidth(try, size, bold) > width {
				out = append(out, line)
				try = tok.text
			}
			line = try
		}
		out = append(out, line)
	}
	return out
}

// wordToken is a piece of text a line may not break inside, and what
// stands between it and the piece before it ("" or a space).
type wordToken struct{ text, gap string }

// wordTokens cuts a paragraph into the pieces WrapWords keeps whole: each
// Chinese character (with the closing marks after it and the opening marks
// before it) and each run of other characters between spaces.
func wordTokens(para string) []wordToken {
	var toks []wordToken
	gap := ""
	open := "" // opening marks waiting for the character they belong to
	for _, r := range para {
		switch {
		case unicode.IsSpace(r):
			if len(toks) > 0 {
				gap = " "
			}
		case strings.ContainsRune("，。；：？、）》…", r) && len(toks) > 0:
			toks[len(toks)-1].text += string(r)
		case strings.ContainsRune("（《", r):
			open += string(r)
		case isWide(r):
			toks = append(toks, wordToken{text: open + string(r), gap: gap})
			open, gap = "", ""
		default:
			last := len(toks) - 1
			if last >= 0 && gap == "" && open == "" && !isWide(lastRuneIn(toks[last].text)) {
				toks[last].text += string(r) // the Latin word goes on
				continue
			}
			toks = append(toks, wordToken{text: open + string(r), gap: gap})
			open, gap = "", ""
		}
	}
	if open != "" {
		toks = append(toks, wordToken{text: open, gap: gap})
	}
	return toks
}

// lastRuneIn is the last rune of s (utf8.RuneError for "", which is not
// wide).
func lastRuneIn(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// isWide reports whether r is a Chinese character or a full-width mark,
// between which a line may break.
func isWide(r rune) bool {
	return unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}

// ErrorText is an error as a person reads it: in the current language for
// a scenario field's problem (the field keeps its JSON name, the wrapping
// its file name), as the simulator wrote it (English) for the rest.
func ErrorText(err error) string {
	text := err.Error()
	var fe *sim.FieldError
	if !errors.As(err, &fe) {
		return text
	}
	english := fe.Error()
	if !strings.HasSuffix(text, english) {
		return text
	}
	said := Say(fe.Words, fe.English)
	if fe.Field != "" {
		said = fe.Field + ": " + said
	}
	return strings.TrimSuffix(text, english) + said
}
