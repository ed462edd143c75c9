package widgets

import (
	"fmt"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// Tone is the colour a line of a state picture's words takes: the
// theme's text or muted colour, or the holding, waiting or violation
// colour the timeline uses for the same things.
type Tone uint8

// The tones, in their Tones order.
const (
	ToneText Tone = iota
	ToneMuted
	ToneHolding
	ToneWaiting
	ToneDanger
	tones
)

// Tones are the colours of the tones in one theme.
type Tones [tones]color.Color

// TonesOf takes the tones' colours from a theme.
func TonesOf(th fyne.Theme) Tones {
	return Tones{ThemeColor(th, theme.ColorNameForeground), ThemeColor(th, theme.ColorNamePlaceHolder),
		ColorHolding, ColorWaiting, ColorViolation}
}

// ToneLine is one line of words of a state picture that lists what each
// client sees on its own clock (DynamoDB's item, the Kubernetes Lease),
// with a bar under it when Bar ≥ 0: the fraction of a lease still to run.
type ToneLine struct {
	Text string
	Tone Tone
	Bold bool
	Bar  float32
}

// PlaceToneLine places l's words, from texts or (bold) from bold, at pos
// in text size size, cut to width w with an ellipsis, in its tone.
func PlaceToneLine(texts, bold *Pool[*canvas.Text], l ToneLine, size float32, pos fyne.Position, w float32, c Tones) {
	pool := texts
	if l.Bold {
		pool = bold
	}
	t := pool.Next()
	ResizeText(t, size)
	PlaceText(t, FitText(l.Text, size, l.Bold, w), pos, c[l.Tone])
}

// LeaseFraction is the part of whole that left still is, within 0 and 1.
func LeaseFraction(left, whole time.Duration) float32 {
	if whole <= 0 || left <= 0 {
		return 0
	}
	return float32(min(float64(left)/float64(whole), 1))
}

// ClockRate is a clock's rate error as a signed percentage: "+40 %".
func ClockRate(r float64) string { return fmt.Sprintf("%+.0f %%", r*100) }
