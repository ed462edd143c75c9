package app

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/font"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

func parseFont(t *testing.T, r fyne.Resource) *font.Face {
	t.Helper()
	f, err := font.ParseTTF(bytes.NewReader(r.Content()))
	require.NoError(t, err, r.Name())
	return f
}

// chineseTexts is every translated text the window can show (the Chinese
// and the English, whose signs such as ✓ need a glyph too), the presets'
// Chinese captions, the languages' names and every literal of app/ and
// widgets/ (the signs they draw themselves: ‖, ⇅, ┼, …).
func chineseTexts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, l := range i18n.Langs {
		for _, k := range i18n.Keys(l) {
			out[string(l)+".json "+k] = i18n.In(l, k)
		}
	}
	for _, name := range assets.PresetNames(sim.ModeNames()) {
		sc, err := Preset(name)
		require.NoError(t, err)
		for i, c := range sc.Captions {
			out[fmt.Sprintf("%s captions[%d].zh", name, i)] = c.Zh
		}
	}
	for _, l := range i18n.Langs {
		out["name of "+string(l)] = l.Name()
	}
	for _, dir := range []string{".", "../widgets"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		fset := token.NewFileSet()
		for _, p := range paths {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			require.NoError(t, err)
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && (lit.Kind == token.STRING || lit.Kind == token.CHAR) {
					v := lit.Value
					if lit.Kind == token.STRING {
						v, _ = strconv.Unquote(v)
					}
					out[fset.Position(lit.Pos()).String()] = strings.Trim(v, "'")
				}
				return true
			})
		}
	}
	return out
}

// The bundled font, with Fyne's own font behind it as the theme sets them
// up, has a glyph for every character of the Chinese the window shows, in
// both weights, so Chinese renders on a machine with no CJK font. When
// this fails, new Chinese text has a character the subset lacks: run
// `go generate ./assets`.
func TestBundledFontCoversTheChinese(t *testing.T) {
	th := &Theme{}
	for _, style := range []fyne.TextStyle{{}, {Bold: true}} {
		// Fyne's order: the theme's font, its own of the same style, then
		// its emoji and symbol fonts (never the system's: CI has none).
		chain := []*font.Face{parseFont(t, th.Font(style))}
		if style.Bold {
			chain = append(chain, parseFont(t, theme.DefaultTextBoldFont()))
		} else {
			chain = append(chain, parseFont(t, theme.DefaultTextFont()))
		}
		if emoji := theme.DefaultEmojiFont(); emoji != nil {
			chain = append(chain, parseFont(t, emoji))
		}
		chain = append(chain, parseFont(t, theme.DefaultSymbolFont()))
		missing := map[rune][]string{}
		for where, text := range chineseTexts(t) {
			for _, r := range text {
				if r == '\n' {
					continue
				}
				found := false
				for _, f := range chain {
					if _, ok := f.NominalGlyph(r); ok {
						found = true
						break
					}
				}
				if !found && len(missing[r]) < 3 {
					missing[r] = append(missing[r], where)
				}
			}
		}
		for r, where := range missing {
			t.Errorf("bold=%v: no glyph for %q (U+%04X), used in %s; run go generate ./assets",
				style.Bold, r, r, strings.Join(where, ", "))
		}
	}
}

// The subset draws no ASCII but the space: Fyne's font draws every Latin
// letter, so English looks as in any Fyne program. The space is there
// because the shaper keeps a space in the run of the character before it
// (a Chinese one), and it has Fyne's width and line metrics, so a line is
// as tall whatever its language.
func TestBundledFontLeavesLatinToFyne(t *testing.T) {
	fyneFace := parseFont(t, theme.DefaultTextFont())
	want, ok := fyneFace.FontHExtents()
	require.True(t, ok)
	fyneSpace, _ := fyneFace.NominalGlyph(' ')
	for _, r := range []fyne.Resource{cjkRegular, cjkBold} {
		f := parseFont(t, r)
		for c := rune(0x21); c < 0x7f; c++ {
			_, ok := f.NominalGlyph(c)
			assert.False(t, ok, "%s has %q", r.Name(), c)
		}
		_, ok := f.NominalGlyph('锁')
		assert.True(t, ok, "%s draws 锁", r.Name())
		space, ok := f.NominalGlyph(' ')
		require.True(t, ok, "%s has a space", r.Name())
		assert.Equal(t, fyneFace.HorizontalAdvance(fyneSpace)/float32(fyneFace.Upem()),
			f.HorizontalAdvance(space)/float32(f.Upem()), "%s: the space is as wide as Fyne's", r.Name())
		got, ok := f.FontHExtents()
		require.True(t, ok)
		k := float32(f.Upem()) / float32(fyneFace.Upem())
		assert.Equal(t, want.Ascender*k, got.Ascender, "%s ascender", r.Name())
		assert.Equal(t, want.Descender*k, got.Descender, "%s descender", r.Name())
		assert.Equal(t, want.LineGap*k, got.LineGap, "%s line gap", r.Name())
	}
}

func TestThemeHoldsTheChosenVariant(t *testing.T) {
	for _, tc := range []struct {
		choice     ThemeChoice
		system     fyne.ThemeVariant
		wantVarint fyne.ThemeVariant
	}{
		{ThemeSystem, theme.VariantDark, theme.VariantDark},
		{ThemeSystem, theme.VariantLight, theme.VariantLight},
		{ThemeLight, theme.VariantDark, theme.VariantLight},
		{ThemeDark, theme.VariantLight, theme.VariantDark},
	} {
		th := &Theme{Choice: tc.choice}
		assert.Equal(t, tc.wantVarint, th.Variant(tc.system))
		assert.Equal(t, theme.DefaultTheme().Color(theme.ColorNameBackground, tc.wantVarint),
			th.Color(theme.ColorNameBackground, tc.system), "%s on a %v system", tc.choice, tc.system)
	}
	assert.Equal(t, ThemeSystem, parseThemeChoice("purple"))
	assert.Equal(t, ThemeDark, parseThemeChoice("dark"))
	th := &Theme{}
	assert.Equal(t, theme.DefaultTheme().Font(fyne.TextStyle{Monospace: true}), th.Font(fyne.TextStyle{Monospace: true}))
	assert.Equal(t, cjkBold, th.Font(fyne.TextStyle{Bold: true}))
}

// A sign is drawn from the first font of Fyne's chain that has it, and the
// space after it stays in that font's run; a font without a space draws
// "�" there (Fyne's symbol font: "↑ Sentinel promotes" came out
// "↑� Sentinel promotes" in English pictures). So every sign the window
// or a picture writes must come from a font that has a space, in both
// weights and with the picture's theme as with the window's.
func TestEverySignComesFromAFontWithASpace(t *testing.T) {
	for _, tc := range []struct {
		name string
		th   fyne.Theme
	}{{"window", &Theme{}}, {"picture", PictureTheme()}} {
		for _, style := range []fyne.TextStyle{{}, {Bold: true}} {
			fallback := theme.DefaultTextFont()
			if style.Bold {
				fallback = theme.DefaultTextBoldFont()
			}
			// Fyne's order (internal/painter/font.go, CachedFontFace).
			chain := []fyne.Resource{tc.th.Font(style), fallback}
			if emoji := theme.DefaultEmojiFont(); emoji != nil {
				chain = append(chain, emoji)
			}
			chain = append(chain, theme.DefaultSymbolFont())
			faces := make([]*font.Face, len(chain))
			for i, r := range chain {
				faces[i] = parseFont(t, r)
			}
			bad := map[rune]string{}
			for where, text := range chineseTexts(t) {
				for _, r := range text {
					if r < 0x80 {
						continue
					}
					for i, f := range faces {
						if _, ok := f.NominalGlyph(r); !ok {
							continue
						}
						if _, ok := f.NominalGlyph(' '); !ok {
							bad[r] = chain[i].Name() + " (" + where + ")"
						}
						break
					}
				}
			}
			for r, where := range bad {
				t.Errorf("%s, bold=%v: %q (U+%04X) comes from %s, which has no space", tc.name, style.Bold, r, r, where)
			}
		}
	}
}
