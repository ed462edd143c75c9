package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/lockscope/lockscope/assets"
)

// ThemeChoice is the look the user picked: the system's, or light or dark
// whatever the system says.
type ThemeChoice string

// The theme settings, in the order the settings offer them.
const (
	ThemeSystem ThemeChoice = "system"
	ThemeLight  ThemeChoice = "light"
	ThemeDark   ThemeChoice = "dark"
)

// ThemeChoices lists the theme settings in menu order.
var ThemeChoices = []ThemeChoice{ThemeSystem, ThemeLight, ThemeDark}

// parseThemeChoice reads a stored theme setting; anything unknown is the
// system's.
func parseThemeChoice(s string) ThemeChoice {
	for _, c := range ThemeChoices {
		if string(c) == s {
			return c
		}
	}
	return ThemeSystem
}

// Fonts of the bundled Chinese subset, as Fyne resources.
var (
	cjkRegular = fyne.NewStaticResource("NotoSansCJKsc-Regular-subset.otf", assets.CJKFont())
	cjkBold    = fyne.NewStaticResource("NotoSansCJKsc-Bold-subset.otf", assets.CJKFontBold())
)

// Theme is LockScope's look: Fyne's own colours, sizes and icons, held to
// light or dark when the user chose one, with the bundled Chinese font put
// in front of Fyne's text font. That font has only the characters Fyne's
// lacks, so Fyne draws every Latin letter, digit and space (line heights
// and English text look exactly as in any Fyne program) and the Chinese
// one draws the rest: Chinese renders on a machine without CJK fonts.
type Theme struct {
	Choice ThemeChoice
}

var _ fyne.Theme = (*Theme)(nil)

// Variant is the variant the theme draws in for the system's variant v.
func (t *Theme) Variant(v fyne.ThemeVariant) fyne.ThemeVariant {
	switch t.Choice {
	case ThemeLight:
		return theme.VariantLight
	case ThemeDark:
		return theme.VariantDark
	}
	return v
}

// Color implements fyne.Theme.
func (t *Theme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return theme.DefaultTheme().Color(n, t.Variant(v))
}

// Font implements fyne.Theme: the Chinese subset first for text, Fyne's
// own for monospace and symbols. Fyne falls back to its default font of
// the same style for every character the subset lacks.
func (t *Theme) Font(s fyne.TextStyle) fyne.Resource {
	switch {
	case s.Monospace, s.Symbol:
		return theme.DefaultTheme().Font(s)
	case s.Bold:
		return cjkBold
	}
	return cjkRegular
}

// Icon implements fyne.Theme.
func (t *Theme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }

// Size implements fyne.Theme.
func (t *Theme) Size(n fyne.ThemeSizeName) float32 { return theme.DefaultTheme().Size(n) }
