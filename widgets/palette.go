package widgets

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/lockscope/lockscope/sim"
)

// The domain colours come from the Okabe–Ito palette, which stays
// distinguishable under the common colour-vision deficiencies; every state
// that a colour marks is also written out or drawn with a distinct shape.
var (
	// ColorHolding marks a client that believes it holds the lock.
	ColorHolding = color.NRGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}
	// ColorReading fills a read hold of a read–write lock, between two
	// edges of ColorHolding: the same hold, shared with other readers.
	ColorReading = color.NRGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0x60}
	// ColorWaiting marks a client asking for the lock.
	ColorWaiting = color.NRGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF}
	// ColorOwned marks a server holding the key for a client.
	ColorOwned = color.NRGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}
	// ColorDone marks a client that finished all its rounds.
	ColorDone = color.NRGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}
	// ColorViolation marks two holders at once and stale writes taken.
	ColorViolation = color.NRGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}
	// ColorCaution marks two holders at once that did no damage: the
	// overlapped-but-data-safe verdict: amber, lighter than ColorWaiting's
	// orange and drawn with dark text.
	ColorCaution = color.NRGBA{R: 0xF0, G: 0xC0, B: 0x20, A: 0xFF}
	// ColorFault marks injected faults: pauses, crashes, cuts.
	ColorFault = color.NRGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}
	// ColorIdle marks a client between rounds and greys paused nodes.
	ColorIdle = color.NRGBA{R: 0x88, G: 0x88, B: 0x88, A: 0xFF}
	// ColorReply is the colour of replies on the wire.
	ColorReply = color.NRGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}
	// ColorServerLink is the colour of server-to-server traffic.
	ColorServerLink = color.NRGBA{R: 0x8E, G: 0x6C, B: 0xC8, A: 0xFF}
)

// StateColor is the colour a client state is drawn in.
func StateColor(s sim.ClientState) color.NRGBA {
	switch s {
	case sim.StateHolding:
		return ColorHolding
	case sim.StateWaiting:
		return ColorWaiting
	case sim.StateDone:
		return ColorDone
	}
	return ColorIdle
}

// Fade returns c with its alpha scaled to a (0..1), for fills under text.
func Fade(c color.NRGBA, a float64) color.NRGBA {
	c.A = uint8(math.Round(float64(c.A) * a))
	return c
}

// ThemeColor looks a colour up in th for the current variant, so the
// widgets follow light and dark themes.
func ThemeColor(th fyne.Theme, n fyne.ThemeColorName) color.Color {
	v := theme.VariantLight
	if app := fyne.CurrentApp(); app != nil {
		v = app.Settings().ThemeVariant()
	}
	return th.Color(n, v)
}

// Readable makes a palette colour readable as text on the theme's
// background: darker on a light theme, lighter on a dark one.
func Readable(c color.NRGBA, th fyne.Theme) color.NRGBA {
	if isDark(th) {
		return mix(c, color.NRGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0xFF}, 0.45)
	}
	return mix(c, color.NRGBA{A: 0xFF}, 0.3)
}

// isDark reports whether the theme's background is dark.
func isDark(th fyne.Theme) bool {
	bg := toNRGBA(ThemeColor(th, theme.ColorNameBackground))
	return 0.299*float64(bg.R)+0.587*float64(bg.G)+0.114*float64(bg.B) < 128
}

// mix blends c towards d by f (0..1).
func mix(c, d color.NRGBA, f float64) color.NRGBA {
	m := func(a, b uint8) uint8 { return uint8(float64(a)*(1-f) + float64(b)*f) }
	return color.NRGBA{R: m(c.R, d.R), G: m(c.G, d.G), B: m(c.B, d.B), A: c.A}
}

func toNRGBA(c color.Color) color.NRGBA {
	return color.NRGBAModel.Convert(c).(color.NRGBA)
}
