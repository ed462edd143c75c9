package widgettest

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// ScaledTextTheme is the default theme with its text and caption sizes
// times Factor: a picture whose lengths follow the theme's text draws
// larger in it.
type ScaledTextTheme struct {
	fyne.Theme
	Factor float32
}

// LargeText is the default theme with text and captions twice their size.
func LargeText() ScaledTextTheme { return ScaledTextTheme{Theme: theme.DefaultTheme(), Factor: 2} }

// Size implements fyne.Theme.
func (t ScaledTextTheme) Size(n fyne.ThemeSizeName) float32 {
	s := t.Theme.Size(n)
	if n == theme.SizeNameText || n == theme.SizeNameCaptionText {
		return s * t.Factor
	}
	return s
}
