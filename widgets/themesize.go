package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// BaseTextSize is the default theme's text size (theme.SizeNameText): the
// size at which a design picture states its own lengths in points.
const BaseTextSize = 14

// TextScale is how large a design picture's own lengths are in th: th's
// text size over BaseTextSize, exactly 1 in the default theme. A picture
// states in points at BaseTextSize what no theme size names (a row's
// height, a box's width, a heading's text size) and multiplies it by
// TextScale, so each is a fixed multiple of the theme's text size and the
// picture grows with it, as Fyne's own widgets take their sizes from the
// theme (the slider's track is twice the input border, its thumb the
// inline icon: widget/slider.go); what a theme size does name (a gap of
// its padding, small print at its caption size) it takes from th itself.
func TextScale(th fyne.Theme) float32 {
	return th.Size(theme.SizeNameText) / BaseTextSize
}

// ResizeTextsTo gives each of texts the one size: a picture's small print
// at its theme's caption size (times its GrowScale), beside its own words
// that ResizeTexts sizes in units of TextScale.
func ResizeTextsTo(size float32, texts ...*canvas.Text) {
	for _, t := range texts {
		ResizeText(t, size)
	}
}
