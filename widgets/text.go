package widgets

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"github.com/lockscope/lockscope/assets/i18n"
)

// WrapText breaks s at spaces into at most maxLines lines no wider than
// width; the last line ends in "…" when s does not fit.
func WrapText(s string, width, size float32, bold bool, maxLines int) []string {
	var out []string
	line := ""
	words := strings.Fields(s)
	for i, w := range words {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if line == "" || TextWidth(try, size, bold) <= width {
			line = try
			continue
		}
		if len(out) == maxLines-1 {
			rest := line + " " + strings.Join(words[i:], " ")
			for len(rest) > 1 && TextWidth(rest+"…", size, bold) > width {
				_, n := lastRune(rest)
				rest = rest[:len(rest)-n]
			}
			return append(out, rest+"…")
		}
		out = append(out, line)
		line = w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// LastRune is the last rune of s and its length in bytes.
func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if utf8.RuneStart(s[i]) {
			r, n := utf8.DecodeRuneInString(s[i:])
			return r, n
		}
	}
	return utf8.RuneError, 1
}

// FitWords is the translation of key no wider than w: in full where it
// fits, else in its short form ("<key>.short") where the key has one, then
// shortened by FitText if even that is too wide. A panel title or a cell
// of a narrow column so reads whole in a narrow window rather than cut to
// "n…".
func FitWords(key string, size float32, bold bool, w float32) string {
	s := i18n.T(key)
	if w > 0 && TextWidth(s, size, bold) > w && i18n.Has(i18n.Current(), key+".short") {
		s = i18n.T(key + ".short")
	}
	return FitText(s, size, bold, w)
}

// FitText shortens s with an ellipsis until it is no wider than w: the
// longest start of s that fits with "…" after it, or "…" alone when none
// does; s itself when it fits or w is not positive. It measures about
// log2(len(s)) prefixes, not every one.
func FitText(s string, size float32, bold bool, w float32) string {
	if w <= 0 || TextWidth(s, size, bold) <= w {
		return s
	}
	rs := []rune(s)
	lo, hi := 0, len(rs)-1 // the longest prefix that fits with "…" is in [lo, hi]
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if TextWidth(string(rs[:mid])+"…", size, bold) <= w {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(rs[:lo]) + "…"
}

// TextWidth measures s at the given size and style.
func TextWidth(s string, size float32, bold bool) float32 {
	return fyne.MeasureText(s, size, fyne.TextStyle{Bold: bold}).Width
}
