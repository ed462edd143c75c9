// Package widgets holds the custom Fyne widgets that draw simulator
// snapshots every design shares — the cluster, the timeline, the metrics
// strip, the trade-off map — and the drawing helpers every picture uses,
// once: object pools, text measuring and fitting, placing, the palette,
// time formatting. A design's own state picture and tab live in its folder
// below (widgets/<design>/, listed in package designs). They only
// draw: every value comes from a sim.Snapshot or sim.Timeline handed to
// them, and they never change the simulation.
package widgets

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// The domain colours come from the Okabe–Ito palette, which stays
// distinguishable under the common colour-vision deficiencies; every state
// that a colour marks is also written out or drawn with a distinct shape.
var (
	// ColorHolding marks a client that believes it holds the lock.
	ColorHolding = color.NRGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}
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

// ShortTime writes a round duration without trailing zeros ("10 s",
// "100 ms") and any other as FormatTime does: a setting's length (a
// TTL, a session timeout, a retry delay), where FormatTime's digits would
// read as a measurement.
func ShortTime(d time.Duration) string {
	switch {
	case d >= time.Second && d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + " s"
	case d < time.Second && d%time.Millisecond == 0:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return FormatTime(d)
}

// FormatTime writes a true-time instant or a length the way every widget
// shows it: milliseconds under a second, seconds with millisecond precision
// up to ten minutes; beyond, hours and minutes in the reader's language
// ("3 h 14 min", "3 小时 14 分钟") with the seconds left over, a part that
// is zero left out, so a long run's end never reads "194 min 0.000 s".
func FormatTime(d time.Duration) string {
	neg := ""
	if d < 0 {
		neg, d = "−", -d
	}
	switch {
	case d == 0:
		return "0 s"
	case d < time.Second:
		return fmt.Sprintf("%s%.3g ms", neg, sim.Ms(d))
	case d < 10*time.Minute:
		return fmt.Sprintf("%s%.3f s", neg, d.Seconds())
	}
	var parts []string
	if h := d / time.Hour; h > 0 {
		parts = append(parts, i18n.F("time.hours", "n", int64(h)))
	}
	if m := d % time.Hour / time.Minute; m > 0 {
		parts = append(parts, i18n.F("time.minutes", "n", int64(m)))
	}
	switch s := d % time.Minute; {
	case s%time.Second == 0 && s > 0:
		parts = append(parts, fmt.Sprintf("%d s", s/time.Second))
	case s > 0:
		parts = append(parts, fmt.Sprintf("%.3f s", s.Seconds()))
	}
	return neg + strings.Join(parts, " ")
}

// FormatSkew writes a clock offset with its sign, for node clocks.
func FormatSkew(d time.Duration) string {
	if d >= 0 {
		return "+" + FormatTime(d)
	}
	return FormatTime(d)
}

// NewText makes a canvas.Text with the given size and style.
func NewText(size float32, bold bool) *canvas.Text {
	t := canvas.NewText("", color.Black)
	t.TextSize = size
	t.TextStyle = fyne.TextStyle{Bold: bold}
	return t
}

// PlaceText sets a text's content and puts its top-left corner at pos.
// Like the other place helpers it refreshes the object only when what it
// draws changed: a GL text refresh re-rasterises the glyphs, and most
// texts stay the same from one frame to the next.
func PlaceText(t *canvas.Text, s string, pos fyne.Position, c color.Color) {
	changed := t.Text != s || t.Color != c || t.Hidden || t.Alignment != fyne.TextAlignLeading
	t.Text, t.Color, t.Hidden = s, c, false
	t.Alignment = fyne.TextAlignLeading
	if changed {
		t.Resize(t.MinSize())
		t.Refresh()
	}
	t.Move(pos)
}

// PlaceLine sets a line's end points, colour and width and shows it.
func PlaceLine(l *canvas.Line, a, b fyne.Position, c color.Color, w float32) {
	if !l.Hidden && l.Position1 == a && l.Position2 == b && l.StrokeColor == c && l.StrokeWidth == w {
		return
	}
	l.Position1, l.Position2 = a, b
	l.StrokeColor, l.StrokeWidth, l.Hidden = c, w, false
	l.Refresh()
}

// PlaceRect sets a rectangle's bounds and fill and shows it.
func PlaceRect(r *canvas.Rectangle, pos fyne.Position, size fyne.Size, fill color.Color) {
	changed := r.FillColor != fill || r.Hidden
	r.FillColor, r.Hidden = fill, false
	r.Move(pos)
	r.Resize(size)
	if changed {
		r.Refresh()
	}
}

// PlaceBox is placeRect for a rectangle with a border.
func PlaceBox(r *canvas.Rectangle, pos fyne.Position, size fyne.Size, fill, stroke color.Color, width float32) {
	changed := r.FillColor != fill || r.StrokeColor != stroke || r.StrokeWidth != width || r.Hidden
	r.FillColor, r.StrokeColor, r.StrokeWidth, r.Hidden = fill, stroke, width, false
	r.Move(pos)
	r.Resize(size)
	if changed {
		r.Refresh()
	}
}

// Repaint marks a widget's canvas for repainting after its renderer made
// new objects: the canvas does not know them yet, so refreshing them alone
// would not reach it. It re-rasterises the widget's texts, so renderers
// call it only when a pool grew.
func Repaint(w fyne.Widget) {
	if fyne.CurrentApp() != nil && fyne.CurrentApp().Driver().CanvasForObject(w) != nil {
		canvas.Refresh(w)
	}
}

// TextWidth measures s at the given size and style.
func TextWidth(s string, size float32, bold bool) float32 {
	return fyne.MeasureText(s, size, fyne.TextStyle{Bold: bold}).Width
}

// Pool hands out groups of canvas objects of one kind, growing as needed
// and hiding what a frame did not use, so a renderer never rebuilds its
// tree per frame.
type Pool[T any] struct {
	items []T
	used  int
	make  func() T
	parts func(T) []fyne.CanvasObject
	grew  bool
}

// NewPool is a pool that makes an item with make and lists its objects
// with parts.
func NewPool[T any](make func() T, parts func(T) []fyne.CanvasObject) *Pool[T] {
	return &Pool[T]{make: make, parts: parts}
}

// Reset starts a frame: every item is free to hand out again.
func (p *Pool[T]) Reset() { p.used = 0 }

// Used lists the items handed out since the last Reset, in order: what
// the frame drew.
func (p *Pool[T]) Used() []T { return p.items[:p.used] }

// Next hands out the next free item, making one when all are used.
func (p *Pool[T]) Next() T {
	if p.used == len(p.items) {
		p.items = append(p.items, p.make())
		p.grew = true
	}
	it := p.items[p.used]
	p.used++
	return it
}

// hideRest hides the objects not handed out since the last reset.
func (p *Pool[T]) hideRest() {
	for _, it := range p.items[p.used:] {
		for _, o := range p.parts(it) {
			if o.Visible() {
				o.Hide()
			}
		}
	}
}

// objects lists every object of the pool in drawing order.
func (p *Pool[T]) objects() []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, it := range p.items {
		out = append(out, p.parts(it)...)
	}
	return out
}

// takeGrowth reports whether the pool grew since the last call.
func (p *Pool[T]) takeGrowth() bool {
	g := p.grew
	p.grew = false
	return g
}

func one[T fyne.CanvasObject](o T) []fyne.CanvasObject { return []fyne.CanvasObject{o} }

// NewLinePool is a pool of lines.
func NewLinePool() *Pool[*canvas.Line] {
	return NewPool(func() *canvas.Line { return &canvas.Line{} }, one[*canvas.Line])
}

// NewRectPool is a pool of rectangles.
func NewRectPool() *Pool[*canvas.Rectangle] {
	return NewPool(func() *canvas.Rectangle { return &canvas.Rectangle{} }, one[*canvas.Rectangle])
}

// NewTextPool is a pool of texts of one size and weight.
func NewTextPool(size float32, bold bool) *Pool[*canvas.Text] {
	return NewPool(func() *canvas.Text { return NewText(size, bold) }, one[*canvas.Text])
}

// Pools is a renderer's pools in drawing order.
type Pools []interface {
	Reset()
	hideRest()
	objects() []fyne.CanvasObject
	takeGrowth() bool
}

// Reset starts a frame in every pool.
func (ps Pools) Reset() {
	for _, p := range ps {
		p.Reset()
	}
}

// Finish hides what the frame did not use and, when a pool grew, returns
// the new object list (nil when the old one still holds).
func (ps Pools) Finish() []fyne.CanvasObject {
	grew := false
	for _, p := range ps {
		p.hideRest()
		if p.takeGrowth() {
			grew = true
		}
	}
	if !grew {
		return nil
	}
	return ps.All()
}

// all lists every object of every pool in drawing order.
func (ps Pools) All() []fyne.CanvasObject {
	out := []fyne.CanvasObject{}
	for _, p := range ps {
		out = append(out, p.objects()...)
	}
	return out
}
