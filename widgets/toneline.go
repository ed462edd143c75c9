package widgets

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
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

// The lengths of a ToneLine, in points at BaseTextSize (times a picture's
// scale k).
const (
	ToneTextSize = 12.5 // its words
	ToneRowH     = 19   // its row of words
	ToneBarH     = 8    // its bar, under the row
	ToneBarGap   = 5    // under the bar
)

// Height is l's height at scale k: its row, and its bar with the gap
// under it.
func (l ToneLine) Height(k float32) float32 {
	h := ToneRowH * k
	if l.Bar >= 0 {
		h += ToneBarH*k + ToneBarGap*k
	}
	return h
}

// PlaceToneRow places l at pos, w wide, at scale k: its words
// (PlaceToneLine) and, when it has one, its bar under them, the track
// muted and what is still to run in its tone.
func PlaceToneRow(texts, bold *Pool[*canvas.Text], rects *Pool[*canvas.Rectangle], l ToneLine, k float32, pos fyne.Position, w float32, c Tones) {
	PlaceToneLine(texts, bold, l, ToneTextSize*k, pos, w, c)
	if l.Bar >= 0 {
		y := pos.Y + ToneRowH*k
		PlaceRect(rects.Next(), fyne.NewPos(pos.X, y), fyne.NewSize(w, ToneBarH*k), c[ToneMuted])
		PlaceRect(rects.Next(), fyne.NewPos(pos.X, y), fyne.NewSize(w*l.Bar, ToneBarH*k), c[l.Tone])
	}
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

// WholeLines is how many of a column's lines a box shows, in whole groups
// (each client's lines, owner[i] naming line i's group, the groups one
// after another): all when the tops plus heights fit above bottom, else
// the most groups whose lines fit with one more line (of moreH) under
// them to say how many groups were left out (more), at moreY. A picture
// of a crowd so names the clients it leaves out, rather than cutting one
// in two or dropping them unsaid.
func WholeLines(tops, heights []float32, owner []int, bottom, moreH float32) (shown, more int, moreY float32) {
	n := len(tops)
	if n == 0 || tops[n-1]+heights[n-1] <= bottom {
		return n, 0, 0
	}
	groups := 0
	for i := range owner {
		if i == 0 || owner[i] != owner[i-1] {
			groups++
		}
	}
	// Try cutting before each group's first line, from the last group back.
	for cut := n - 1; cut >= 0; cut-- {
		if cut > 0 && owner[cut] == owner[cut-1] {
			continue
		}
		if tops[cut]+moreH <= bottom {
			kept := 0
			for i := 0; i < cut; i++ {
				if i == 0 || owner[i] != owner[i-1] {
					kept++
				}
			}
			return cut, groups - kept, tops[cut]
		}
	}
	return 0, groups, tops[0]
}

// Ranked is xs in the order a picture of a crowd lists them: by rank (the
// lowest first: those holding the lock), those of rank waiting by how
// soon they take over (left; nil when no rank is ordered so), the rest
// in their own order. WholeLines then keeps the first and counts the rest.
func Ranked[T any](xs []T, rank func(T) int, waiting int, left func(T) time.Duration) []T {
	out := slices.Clone(xs)
	slices.SortStableFunc(out, func(a, b T) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 || left == nil || rank(a) != waiting {
			return c
		}
		return cmp.Compare(left(a), left(b))
	})
	return out
}
