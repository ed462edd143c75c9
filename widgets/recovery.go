package widgets

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim/sweep"
)

var _ desktop.Hoverable = (*RecoveryChart)(nil)

// RecoveryChart is the other side of the TTL trade-off: how long the lock
// stays out of reach after its holder crashes (the crash to the next
// grant), against the TTL. The line is the mean over a point's runs and
// the band reaches up to their 99th percentile.
type RecoveryChart struct {
	widget.BaseWidget

	x       sweep.Axis
	xName   string
	points  []sweep.Cell
	coarse  bool
	cursor  float64
	hasCur  bool
	message string
	note    string
	hover   int
	version int
}

// NewRecoveryChart returns an empty chart; SetSeries fills it.
func NewRecoveryChart() *RecoveryChart {
	c := &RecoveryChart{hover: -1}
	c.ExtendBaseWidget(c)
	return c
}

// SetSeries shows one point per value of x (a sweep's cells along it:
// Cell.X is the x value); coarse says they come from a quick first pass.
func (c *RecoveryChart) SetSeries(x sweep.Axis, xName string, points []sweep.Cell, coarse bool) {
	c.x, c.xName, c.points, c.coarse = x, xName, points, coarse
	if c.hover >= len(points) {
		c.hover = -1
	}
	c.version++
	c.Refresh()
}

// SetNote sets a line under the chart's legend: what the series leaves
// out and why.
func (c *RecoveryChart) SetNote(s string) {
	if c.note != s {
		c.note = s
		c.version++
		c.Refresh()
	}
}

// Points are the points on show.
func (c *RecoveryChart) Points() []sweep.Cell { return c.points }

// SetCursor marks the TTL the main view's slider stands at.
func (c *RecoveryChart) SetCursor(x float64, ok bool) {
	if c.cursor != x || c.hasCur != ok {
		c.cursor, c.hasCur = x, ok
		c.Refresh()
	}
}

// Cursor is the TTL marked by SetCursor.
func (c *RecoveryChart) Cursor() (float64, bool) { return c.cursor, c.hasCur }

// SetMessage sets the line shown over a chart with no points yet.
func (c *RecoveryChart) SetMessage(s string) {
	if c.message != s {
		c.message = s
		c.version++
		c.Refresh()
	}
}

// MeanAt is the mean recovery at x, interpolated between the points.
func (c *RecoveryChart) MeanAt(x float64) (float64, bool) {
	return interpolate(c.points, x, func(p sweep.Cell) float64 { return p.RecoveryMeanMs })
}

func interpolate(ps []sweep.Cell, x float64, val func(sweep.Cell) float64) (float64, bool) {
	if len(ps) == 0 || x < ps[0].X || x > ps[len(ps)-1].X {
		return 0, false
	}
	for i := 1; i < len(ps); i++ {
		if x <= ps[i].X {
			a, b := ps[i-1], ps[i]
			if b.X == a.X {
				return val(b), true
			}
			k := (x - a.X) / (b.X - a.X)
			return val(a) + k*(val(b)-val(a)), true
		}
	}
	return val(ps[0]), true
}

// Chart layout.
const (
	recLeft   = 50
	recTop    = 24
	recBottom = 42
	recRight  = 16
)

type recFrame struct {
	pos    fyne.Position
	size   fyne.Size
	xs, ys scale
	uy     PlotUnit
}

// recRange is the chart's model: the span of its axes, worked out from the
// points before any size is known.
type recRange struct {
	lo, hi float64 // the x axis
	top    float64 // the y axis, from 0
	uy     PlotUnit
}

// frame is where the plot lies in the chart's size and how values map
// onto it.
func (c *RecoveryChart) frame() recFrame { return c.rangeOf().frame(c.Size()) }

// frame lays the axes' span out in size.
func (g recRange) frame(size fyne.Size) recFrame {
	f := recFrame{pos: fyne.NewPos(recLeft, recTop),
		size: fyne.NewSize(max(size.Width-recLeft-recRight, 10), max(size.Height-recTop-recBottom, 10)), uy: g.uy}
	f.xs = scale{lo: g.lo, hi: g.hi, p0: f.pos.X, p1: f.pos.X + f.size.Width}
	f.ys = scale{lo: 0, hi: g.top, p0: f.pos.Y + f.size.Height, p1: f.pos.Y}
	return f
}

// rangeOf is the span of the axes for the points on show.
func (c *RecoveryChart) rangeOf() recRange {
	lo, hi := 0.0, 1.0
	if n := len(c.x.Values); n > 0 {
		lo, hi = c.x.Values[0], c.x.Values[n-1]
	} else if n := len(c.points); n > 0 {
		lo, hi = c.points[0].X, c.points[n-1].X
	}
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	top := 0.0
	for _, p := range c.points {
		top = math.Max(top, math.Max(p.RecoveryP99Ms, p.RecoveryMeanMs))
	}
	uy := PlotUnit{Div: 1, Unit: "ms"}
	if top >= 2000 {
		uy = PlotUnit{Div: 1000, Unit: "s"}
	}
	if top <= 0 {
		top = 1000
	}
	// Round the top up to the next tick, so the band never touches it.
	ticks := niceTicks(0, top*1.05/uy.Div, 5)
	if n := len(ticks); n > 0 {
		top = math.Max(top*1.02, ticks[n-1]*uy.Div)
	}
	return recRange{lo: lo, hi: hi, top: top, uy: uy}
}

// PointAt is the index of the point nearest to pos along x, if pos is
// over the plot.
func (c *RecoveryChart) PointAt(pos fyne.Position) (int, bool) {
	if len(c.points) == 0 {
		return 0, false
	}
	f := c.frame()
	if pos.X < f.pos.X-6 || pos.X > f.pos.X+f.size.Width+6 || pos.Y < f.pos.Y || pos.Y > f.pos.Y+f.size.Height {
		return 0, false
	}
	best, dist := 0, float32(math.MaxFloat32)
	for i, p := range c.points {
		if d := float32(math.Abs(float64(f.xs.at(p.X) - pos.X))); d < dist {
			best, dist = i, d
		}
	}
	return best, true
}

// Readout is what the chart says about a point on hover.
func (c *RecoveryChart) Readout(i int) string {
	p := c.points[i]
	return i18n.F("recovery.readout", "field", c.xName, "x", AxisUnit(c.x).Format(p.X),
		"mean", FormatMs(p.RecoveryMeanMs), "p99", FormatMs(p.RecoveryP99Ms), "runs", p.Runs)
}

// MouseIn implements desktop.Hoverable.
func (c *RecoveryChart) MouseIn(ev *desktop.MouseEvent) { c.MouseMoved(ev) }

// MouseMoved implements desktop.Hoverable: the nearest point reads out.
func (c *RecoveryChart) MouseMoved(ev *desktop.MouseEvent) {
	i, ok := c.PointAt(ev.Position)
	if !ok {
		i = -1
	}
	if i != c.hover {
		c.hover = i
		c.Refresh()
	}
}

// MouseOut implements desktop.Hoverable.
func (c *RecoveryChart) MouseOut() {
	if c.hover >= 0 {
		c.hover = -1
		c.Refresh()
	}
}

// CreateRenderer implements fyne.Widget.
func (c *RecoveryChart) CreateRenderer() fyne.WidgetRenderer {
	r := &recRenderer{c: c,
		lines:   NewLinePool(),
		series:  NewLinePool(),
		ticks:   NewTextPool(theme.CaptionTextSize(), false),
		titles:  NewTextPool(12, true),
		legend:  NewRectPool(),
		cursor:  &canvas.Line{},
		curBg:   &canvas.Rectangle{CornerRadius: 3},
		curText: NewText(11.5, true),
		guide:   &canvas.Line{},
		dot:     &canvas.Circle{},
		readBg:  &canvas.Rectangle{CornerRadius: 4, StrokeWidth: 1},
		read:    NewText(12, false),
	}
	r.raster = canvas.NewRaster(func(w, h int) image.Image { return paintFills(r.fills, c.Size(), w, h) })
	r.static = Pools{r.lines, r.series, r.legend, r.ticks, r.titles}
	r.Refresh()
	return r
}

type recRenderer struct {
	c *RecoveryChart

	raster        *canvas.Raster
	fills         []fill
	lines, series *Pool[*canvas.Line]
	ticks, titles *Pool[*canvas.Text]
	legend        *Pool[*canvas.Rectangle]
	static        Pools

	cursor     *canvas.Line
	curBg      *canvas.Rectangle
	curText    *canvas.Text
	guide      *canvas.Line
	dot        *canvas.Circle
	readBg     *canvas.Rectangle
	read       *canvas.Text
	objects    []fyne.CanvasObject
	drawn      int
	drawnSize  fyne.Size
	drawnTheme color.Color

	span recRange // the axes' span for the points on show, built by Refresh
	// The theme's colours and sizes, taken by Refresh.
	fg, muted, menu, shadow, bg color.Color
	caption, inset              float32 // the small print (ticks, legend, note); a read-out's inset in its box
	// builds counts the model's builds, so a test can tell a resize
	// builds none.
	builds int
}

func (r *recRenderer) Destroy() {}

func (r *recRenderer) MinSize() fyne.Size { return fyne.NewSize(240, 200) }

func (r *recRenderer) Objects() []fyne.CanvasObject { return r.objects }

// bandColor and lineColor draw the recovery: the blue of a key a server
// still holds for a client, which is what keeps the others out.
var (
	recLineColor = ColorOwned
	recBandColor = Fade(ColorOwned, 0.30)
)

// Refresh works out the axes' span of the points on show and takes the
// theme's colours and sizes, then lays the chart out.
func (r *recRenderer) Refresh() {
	c := r.c
	r.builds++
	r.span = c.rangeOf()
	th := c.Theme()
	r.fg, r.muted = ThemeColor(th, theme.ColorNameForeground), ThemeColor(th, theme.ColorNamePlaceHolder)
	r.menu, r.shadow = ThemeColor(th, theme.ColorNameMenuBackground), ThemeColor(th, theme.ColorNameShadow)
	r.bg = ThemeColor(th, theme.ColorNameBackground)
	r.caption, r.inset = th.Size(theme.SizeNameCaptionText), th.Size(theme.SizeNameInnerPadding)
	r.Layout(c.Size())
}

// Layout draws the axes, the band, the lines and the legend again when the
// points, the size or the theme changed since they were drawn, then places
// the cursor and the hovered point's read-out.
func (r *recRenderer) Layout(size fyne.Size) {
	c := r.c
	f := r.span.frame(size)
	if r.objects == nil || r.drawn != c.version || r.drawnSize != size || r.drawnTheme != r.fg {
		r.static.Reset()
		r.fills = r.fills[:0]
		r.draw(f)
		r.raster.Resize(size)
		r.raster.Refresh()
		if r.static.Finish() != nil || r.objects == nil {
			r.objects = append([]fyne.CanvasObject{r.raster}, r.static.All()...)
			r.objects = append(r.objects, r.cursor, r.guide, r.dot, r.curBg, r.curText, r.readBg, r.read)
			Repaint(c)
		}
		r.drawn, r.drawnSize, r.drawnTheme = c.version, size, r.fg
	}
	r.drawOverlay(f, size)
}

// draw places the axes, the band, the lines and the legend in frame f.
func (r *recRenderer) draw(f recFrame) {
	c := r.c
	fg, muted, caption := r.fg, r.muted, r.caption
	defer func() {
		for _, t := range r.ticks.Used() {
			ResizeText(t, caption)
		}
	}()
	x0, y0 := f.pos.X, f.pos.Y
	x1, y1 := x0+f.size.Width, y0+f.size.Height

	// Horizontal grid lines at the y ticks, with their labels.
	for _, v := range niceTicks(0, f.ys.hi/f.uy.Div, max(2, int(f.size.Height/45))) {
		py := f.ys.at(v * f.uy.Div)
		PlaceLine(r.lines.Next(), fyne.NewPos(x0, py), fyne.NewPos(x1, py), Fade(ColorIdle, 0.25), 1)
		label := f.uy.Number(v * f.uy.Div)
		PlaceText(r.ticks.Next(), label, fyne.NewPos(x0-6-TextWidth(label, caption, false), py-8), muted)
	}
	PlaceLine(r.lines.Next(), fyne.NewPos(x0, y1), fyne.NewPos(x1, y1), Fade(ColorIdle, 0.6), 1)
	PlaceLine(r.lines.Next(), fyne.NewPos(x0, y0), fyne.NewPos(x0, y1), Fade(ColorIdle, 0.6), 1)
	PlaceText(r.titles.Next(), f.uy.Title(i18n.T("recovery.axis")), fyne.NewPos(0, 2), fg)

	if len(c.points) == 0 {
		if c.message != "" {
			t := r.titles.Next()
			PlaceText(t, c.message, fyne.NewPos(0, 0), muted)
			sz := t.MinSize()
			t.Move(fyne.NewPos(x0+(f.size.Width-sz.Width)/2, y0+(f.size.Height-sz.Height)/2))
		}
		return
	}

	// x ticks and title.
	drawXAxis(r.lines, r.ticks, r.titles, f.xs, c.x, c.xName, x0, f.size.Width, y1, 60, caption, muted, fg)

	// The band from the mean up to the p99, a column of pixels at a time.
	mean := func(p sweep.Cell) float64 { return p.RecoveryMeanMs }
	p99 := func(p sweep.Cell) float64 { return p.RecoveryP99Ms }
	left, right := f.xs.at(c.points[0].X), f.xs.at(c.points[len(c.points)-1].X)
	for px := left; px < right; px++ {
		v := f.xs.lo + float64(px+0.5-f.xs.p0)/float64(f.xs.p1-f.xs.p0)*(f.xs.hi-f.xs.lo)
		m, ok1 := interpolate(c.points, v, mean)
		q, ok2 := interpolate(c.points, v, p99)
		if !ok1 || !ok2 || q <= m {
			continue
		}
		top, bot := f.ys.at(q), f.ys.at(m)
		r.fills = append(r.fills, fill{x: px, y: top, w: 1, h: bot - top, c: recBandColor})
	}
	// The p99 edge thin, the mean thick.
	for i := 1; i < len(c.points); i++ {
		a, b := c.points[i-1], c.points[i]
		PlaceLine(r.series.Next(), fyne.NewPos(f.xs.at(a.X), f.ys.at(a.RecoveryP99Ms)),
			fyne.NewPos(f.xs.at(b.X), f.ys.at(b.RecoveryP99Ms)), Fade(recLineColor, 0.7), 1)
	}
	for i := 1; i < len(c.points); i++ {
		a, b := c.points[i-1], c.points[i]
		PlaceLine(r.series.Next(), fyne.NewPos(f.xs.at(a.X), f.ys.at(a.RecoveryMeanMs)),
			fyne.NewPos(f.xs.at(b.X), f.ys.at(b.RecoveryMeanMs)), recLineColor, 2.5)
	}
	if len(c.points) == 1 {
		p := c.points[0]
		px := f.xs.at(p.X)
		PlaceLine(r.series.Next(), fyne.NewPos(px-4, f.ys.at(p.RecoveryMeanMs)), fyne.NewPos(px+4, f.ys.at(p.RecoveryMeanMs)), recLineColor, 2.5)
	}

	// Legend in the top row: a swatch and a word for each.
	lx := x1
	for _, item := range []struct {
		label string
		c     color.NRGBA
		h     float32
	}{{i18n.T("recovery.band"), recBandColor, 10}, {i18n.T("recovery.mean"), recLineColor, 3}} {
		w := TextWidth(item.label, caption, false)
		lx -= w
		PlaceText(r.ticks.Next(), item.label, fyne.NewPos(lx, 3), muted)
		lx -= 22
		PlaceRect(r.legend.Next(), fyne.NewPos(lx, 11-item.h/2), fyne.NewSize(16, item.h), item.c)
		lx -= 12
	}
	// "coarse pass" only where it leaves the y axis' title whole: a narrow
	// chart drops it (the map's status line says the pass too).
	yTitleEnd := TextWidth(f.uy.Title(i18n.T("recovery.axis")), 12, true) + 10
	if label := i18n.T("recovery.coarse"); c.coarse && lx-TextWidth(label, caption, false) >= yTitleEnd {
		lx -= TextWidth(label, caption, false)
		PlaceText(r.ticks.Next(), label, fyne.NewPos(lx, 3), muted)
	}
	if c.note != "" {
		for i, line := range WrapWords(c.note, caption, f.size.Width*0.55) {
			PlaceText(r.ticks.Next(), line, fyne.NewPos(x0+8, y0+26+float32(i)*15), muted)
		}
	}
}

// drawOverlay places the slider's TTL with the recovery it buys, and the
// hovered point's read-out, in frame f of a chart of that size.
func (r *recRenderer) drawOverlay(f recFrame, size fyne.Size) {
	c := r.c
	fg := r.fg
	white := color.NRGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0xFF}
	y0, y1 := f.pos.Y, f.pos.Y+f.size.Height
	if c.hasCur && len(c.points) > 0 && f.xs.inside(c.cursor) {
		px := f.xs.at(c.cursor)
		PlaceLine(r.cursor, fyne.NewPos(px, y0), fyne.NewPos(px, y1), fg, 1.5)
		label := "┼ " + AxisUnit(c.x).Format(c.cursor)
		if m, ok := c.MeanAt(c.cursor); ok {
			label += ": " + FormatMs(m)
		}
		w := TextWidth(label, 11.5, true) + 10
		lx := min(max(px-w/2, f.pos.X), f.pos.X+f.size.Width-w)
		PlaceRect(r.curBg, fyne.NewPos(lx, y0+4), fyne.NewSize(w, 18), fg)
		PlaceText(r.curText, label, fyne.NewPos(lx+5, y0+5), r.bg)
	} else {
		r.cursor.Hide()
		r.curBg.Hide()
		r.curText.Hide()
	}
	if c.hover < 0 || c.hover >= len(c.points) {
		r.guide.Hide()
		r.dot.Hide()
		r.readBg.Hide()
		r.read.Hide()
		return
	}
	p := c.points[c.hover]
	px, py := f.xs.at(p.X), f.ys.at(p.RecoveryMeanMs)
	PlaceLine(r.guide, fyne.NewPos(px, y0), fyne.NewPos(px, y1), Fade(ColorIdle, 0.8), 1)
	r.dot.FillColor, r.dot.StrokeColor, r.dot.StrokeWidth = recLineColor, white, 1.5
	r.dot.Move(fyne.NewPos(px-5, py-5))
	r.dot.Resize(fyne.NewSize(10, 10))
	r.dot.Show()
	r.dot.Refresh()
	text := c.Readout(c.hover)
	w := TextWidth(text, 12, false) + 2*r.inset
	bx := min(max(px-w/2, 2), size.Width-w-2)
	by := y1 - 30
	PlaceBox(r.readBg, fyne.NewPos(bx, by), fyne.NewSize(w, 24), r.menu, r.shadow, 1)
	PlaceText(r.read, text, fyne.NewPos(bx+r.inset, by+3), fg)
}
