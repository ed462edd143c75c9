package widgets

import (
	"image"
	"image/color"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim/sweep"
)

var (
	_ fyne.Tappable     = (*Heatmap)(nil)
	_ desktop.Hoverable = (*Heatmap)(nil)
)

// HeatMetric is what a heatmap colours its cells by: a share of runs, or
// a price of safety (grants a second, the p99 wait) scaled to the grid's
// highest.
type HeatMetric int

const (
	// MetricUnsafe colours by the runs in which the storage took a stale
	// write: the damage a broken lock did.
	MetricUnsafe HeatMetric = iota
	// MetricViolations colours by the runs in which two clients were in
	// their critical section at once, whether or not a write went wrong.
	MetricViolations
	// MetricThroughput colours by the grants a second (sweep.Cell.Throughput).
	MetricThroughput
	// MetricWaitP99 colours by the p99 wait for the lock (sweep.Cell.WaitP99Ms).
	MetricWaitP99
)

// HeatMetrics are the metrics in the order the map offers them.
var HeatMetrics = []HeatMetric{MetricUnsafe, MetricViolations, MetricThroughput, MetricWaitP99}

// Value is the metric's value for a cell: a share of runs (0 to 1), grants
// a second or milliseconds.
func (m HeatMetric) Value(c sweep.Cell) float64 {
	switch m {
	case MetricViolations:
		return c.ViolationRate
	case MetricThroughput:
		return c.Throughput
	case MetricWaitP99:
		return c.WaitP99Ms
	}
	return c.UnsafeRate
}

// IsShare reports whether the metric is a share of runs, drawn from 0 to
// 100 %; the others run from 0 to the grid's highest value.
func (m HeatMetric) IsShare() bool { return m == MetricUnsafe || m == MetricViolations }

// Format writes a value of the metric as the legend and the read-out do.
func (m HeatMetric) Format(v float64) string {
	switch m {
	case MetricThroughput:
		return i18n.F("heat.perSecond", "n", strconv.FormatFloat(v, 'f', 2, 64))
	case MetricWaitP99:
		return FormatMs(v)
	}
	return FormatPercent(v)
}

// Key is the metric's name among the translations (tradeoff.colour.<key>).
func (m HeatMetric) Key() string {
	switch m {
	case MetricViolations:
		return "tradeoff.colour.violations"
	case MetricThroughput:
		return "tradeoff.colour.throughput"
	case MetricWaitP99:
		return "tradeoff.colour.waitP99"
	}
	return "tradeoff.colour.unsafe"
}

// LegendFor names the metric over the colour legend, for a map of runs
// that elect a leader or not (sim.Elects): runs with two leaders rather
// than two holders.
func (m HeatMetric) LegendFor(election bool) string {
	return i18n.T(LeaderWords(m.Key(), election && m == MetricViolations))
}

// HeatCell is one cell of a heatmap: a sweep's verdict at a grid point.
type HeatCell struct {
	sweep.Cell
	// Coarse marks a cell that still shows a quicker, coarser pass: its
	// numbers are those of the nearest point of that pass (Cell.X, Cell.Y)
	// over fewer runs.
	Coarse bool
	// NoRecovery, when set, says why the cell's recovery figures measure
	// nothing (the holder had lost the lock before it crashed).
	NoRecovery string
}

// Heatmap draws a sweep over two fields: one cell per grid point coloured
// by the share of its runs that went wrong, on the viridis ramp with its
// legend, axes in the fields' units, the point the main view's sliders
// stand at as a crosshair, and a hovered cell's numbers beside the mouse.
// It only draws the cells it is given.
type Heatmap struct {
	widget.BaseWidget

	// OnTapCell is called with the cell a tap lands on.
	OnTapCell func(c HeatCell)
	// Hint, when set, gives the read-out's last line: what a click on the
	// cell does.
	Hint func(c HeatCell) string

	x, y         sweep.Axis
	xName, yName string
	cells        []HeatCell
	metric       HeatMetric
	election     bool    // its runs elect a leader (SetElection)
	top          float64 // the value the top of the ramp stands for (rescale)
	cross        [2]float64
	crossOK      [2]bool
	message      string
	hover        int
	mouse        fyne.Position
	version      int
}

// NewHeatmap returns an empty heatmap; SetGrid fills it.
func NewHeatmap() *Heatmap {
	h := &Heatmap{hover: -1, top: 1}
	h.ExtendBaseWidget(h)
	return h
}

// SetGrid shows a sweep's cells: x and y are its axes (y with no Field for
// a single row), xName and yName their titles without units, and cells
// run along x first, from the lowest y up, as sweep.Sweep.Run returns them.
func (h *Heatmap) SetGrid(x, y sweep.Axis, xName, yName string, cells []HeatCell) {
	h.x, h.y, h.xName, h.yName = x, y, xName, yName
	h.cells = cells
	h.rescale()
	if h.hover >= len(cells) || !h.complete() {
		h.hover = -1
	}
	h.version++
	h.Refresh()
}

// Cells are the cells on show.
func (h *Heatmap) Cells() []HeatCell { return h.cells }

// SetElection says whether the map's runs elect a leader (sim.Elects),
// so that its words say leaders where a lock's say holders.
func (h *Heatmap) SetElection(on bool) {
	if h.election != on {
		h.election = on
		h.version++
		h.Refresh()
	}
}

// SetMetric chooses what the colour shows.
func (h *Heatmap) SetMetric(m HeatMetric) {
	if h.metric != m {
		h.metric = m
		h.rescale()
		h.version++
		h.Refresh()
	}
}

// Metric is what the colour shows.
func (h *Heatmap) Metric() HeatMetric { return h.metric }

// rescale sets the value the top of the ramp stands for: 1 (100 %) for a
// share of runs, the highest cell's value otherwise (1 when all are 0).
func (h *Heatmap) rescale() {
	h.top = 1
	if h.metric.IsShare() {
		return
	}
	top := 0.0
	for _, c := range h.cells {
		top = max(top, h.metric.Value(c.Cell))
	}
	if top > 0 {
		h.top = top
	}
}

// Top is the value the top of the colour ramp stands for.
func (h *Heatmap) Top() float64 { return h.top }

// Level is where a cell's value stands on the ramp, 0 to 1.
func (h *Heatmap) Level(c sweep.Cell) float64 {
	return min(1, max(0, h.metric.Value(c)/h.top))
}

// SetCrosshair marks the point the main view's sliders stand at, in the
// axes' units; a coordinate that is not ok (no such slider) is left out.
func (h *Heatmap) SetCrosshair(x float64, xok bool, y float64, yok bool) {
	if h.cross == [2]float64{x, y} && h.crossOK == [2]bool{xok, yok} {
		return
	}
	h.cross, h.crossOK = [2]float64{x, y}, [2]bool{xok, yok}
	h.Refresh()
}

// Crosshair is the point marked by SetCrosshair.
func (h *Heatmap) Crosshair() (x float64, xok bool, y float64, yok bool) {
	return h.cross[0], h.crossOK[0], h.cross[1], h.crossOK[1]
}

// SetMessage sets the line shown over a map with no cells yet.
func (h *Heatmap) SetMessage(s string) {
	if h.message != s {
		h.message = s
		h.version++
		h.Refresh()
	}
}

func (h *Heatmap) rows() int { return max(1, len(h.y.Values)) }

func (h *Heatmap) complete() bool {
	return len(h.x.Values) > 0 && len(h.cells) == len(h.x.Values)*h.rows()
}

// Heatmap layout: margins around the plot for the axes and the legend.
const (
	heatLeft   = 56
	heatTop    = 48 // two rows: the axis and legend titles, then the sliders' crosshair label
	heatCrossY = 22 // top of the crosshair label's row, under the titles' row
	heatBottom = 42
	heatRight  = 92
	heatBarW   = 14
	heatBarGap = 16
)

// heatFrame is where the plot lies and how values map onto it.
type heatFrame struct {
	pos    fyne.Position
	size   fyne.Size
	xs, ys scale
	xb, yb []float64
}

// heatBounds is the map's model: the cells' edges along each axis, worked
// out from the axes before any size is known.
type heatBounds struct{ xb, yb []float64 }

// boundsOf is the cells' edges of the axes on show.
func (h *Heatmap) boundsOf() heatBounds {
	b := heatBounds{xb: cellBounds(h.x.Values), yb: []float64{0, 1}}
	if len(h.y.Values) > 0 {
		b.yb = cellBounds(h.y.Values)
	}
	return b
}

// frame is where the plot lies in the map's size.
func (h *Heatmap) frame() heatFrame { return h.boundsOf().frame(h.Size()) }

// frame lays the cells' edges out in size.
func (b heatBounds) frame(size fyne.Size) heatFrame {
	f := heatFrame{pos: fyne.NewPos(heatLeft, heatTop),
		size: fyne.NewSize(max(size.Width-heatLeft-heatRight, 10), max(size.Height-heatTop-heatBottom, 10)),
		xb:   b.xb, yb: b.yb}
	f.xs = scale{lo: f.xb[0], hi: f.xb[len(f.xb)-1], p0: f.pos.X, p1: f.pos.X + f.size.Width}
	f.ys = scale{lo: f.yb[0], hi: f.yb[len(f.yb)-1], p0: f.pos.Y + f.size.Height, p1: f.pos.Y}
	return f
}

// CellRect is where cell i is drawn, relative to the widget.
func (h *Heatmap) CellRect(i int) (fyne.Position, fyne.Size) { return h.frame().cellRect(i) }

// cellRect is where cell i is drawn in the frame.
func (f heatFrame) cellRect(i int) (fyne.Position, fyne.Size) {
	nx := max(1, len(f.xb)-1)
	col, row := i%nx, i/nx
	x0, x1 := f.xs.at(f.xb[col]), f.xs.at(f.xb[col+1])
	y0, y1 := f.ys.at(f.yb[row+1]), f.ys.at(f.yb[row])
	return fyne.NewPos(x0, y0), fyne.NewSize(x1-x0, y1-y0)
}

// CellAt is the index of the cell drawn at pos, if any.
func (h *Heatmap) CellAt(pos fyne.Position) (int, bool) {
	if !h.complete() {
		return 0, false
	}
	f := h.frame()
	if pos.X < f.pos.X || pos.Y < f.pos.Y || pos.X >= f.pos.X+f.size.Width || pos.Y >= f.pos.Y+f.size.Height {
		return 0, false
	}
	col, row := -1, -1
	for i := 0; i+1 < len(f.xb); i++ {
		if pos.X >= f.xs.at(f.xb[i]) && pos.X < f.xs.at(f.xb[i+1]) {
			col = i
		}
	}
	for i := 0; i+1 < len(f.yb); i++ {
		if pos.Y <= f.ys.at(f.yb[i]) && pos.Y > f.ys.at(f.yb[i+1]) {
			row = i
		}
	}
	if col < 0 || row < 0 {
		return 0, false
	}
	return row*len(h.x.Values) + col, true
}

// Hovered is the cell under the mouse.
func (h *Heatmap) Hovered() (HeatCell, bool) {
	if h.hover < 0 || h.hover >= len(h.cells) {
		return HeatCell{}, false
	}
	return h.cells[h.hover], true
}

// Readout is what the map says about a cell on hover: where it is, its
// rates, the recovery and acquire times, and what a click does.
func (h *Heatmap) Readout(c HeatCell) []string {
	ux, uy := AxisUnit(h.x), AxisUnit(h.y)
	where := h.xName + " " + ux.Format(c.X)
	if h.y.Field != "" {
		where += " · " + h.yName + " " + uy.Format(c.Y)
	}
	unsafe := int(math.Round(c.UnsafeRate * float64(c.Runs)))
	lines := []string{where,
		i18n.F("heat.unsafe", "share", FormatPercent(c.UnsafeRate), "n", unsafe, "runs", c.Runs),
		i18n.F(LeaderWords("heat.violations", h.election), "share", FormatPercent(c.ViolationRate)),
		i18n.F("heat.recovery", "mean", FormatMs(c.RecoveryMeanMs), "p99", FormatMs(c.RecoveryP99Ms)),
		i18n.F("heat.latency", "mean", FormatMs(c.AcquireMeanMs), "p99", FormatMs(c.WaitP99Ms)),
		i18n.F("heat.throughput", "rate", strconv.FormatFloat(c.Throughput, 'f', 2, 64)),
	}
	if c.NoRecovery != "" {
		lines[3] = i18n.F("heat.noRecovery", "why", c.NoRecovery)
	}
	if c.Coarse {
		lines = append(lines, i18n.T("heat.coarse"))
	}
	if h.Hint != nil {
		if s := h.Hint(c); s != "" {
			lines = append(lines, s)
		}
	}
	return lines
}

// Tapped implements fyne.Tappable: a tap on a cell hands it to OnTapCell.
func (h *Heatmap) Tapped(ev *fyne.PointEvent) {
	if i, ok := h.CellAt(ev.Position); ok && h.OnTapCell != nil {
		h.OnTapCell(h.cells[i])
	}
}

// MouseIn implements desktop.Hoverable.
func (h *Heatmap) MouseIn(ev *desktop.MouseEvent) { h.MouseMoved(ev) }

// MouseMoved implements desktop.Hoverable: the cell under the mouse reads
// out its numbers.
func (h *Heatmap) MouseMoved(ev *desktop.MouseEvent) {
	i, ok := h.CellAt(ev.Position)
	if !ok {
		i = -1
	}
	if i == h.hover && (i < 0 || h.mouse == ev.Position) {
		return
	}
	h.hover, h.mouse = i, ev.Position
	h.Refresh()
}

// MouseOut implements desktop.Hoverable.
func (h *Heatmap) MouseOut() {
	if h.hover >= 0 {
		h.hover = -1
		h.Refresh()
	}
}

// CreateRenderer implements fyne.Widget.
func (h *Heatmap) CreateRenderer() fyne.WidgetRenderer {
	r := &heatRenderer{h: h,
		lines:     NewLinePool(),
		ticks:     NewTextPool(theme.CaptionTextSize(), false),
		titles:    NewTextPool(12, true),
		crossBack: [2]*canvas.Line{{}, {}},
		crossLine: [2]*canvas.Line{{}, {}},
		ring:      &canvas.Circle{},
		crossBg:   &canvas.Rectangle{CornerRadius: 3},
		crossText: NewText(11.5, true),
		hoverBox:  &canvas.Rectangle{},
		markLine:  &canvas.Line{},
		markBg:    &canvas.Rectangle{CornerRadius: 3},
		markText:  NewText(theme.CaptionTextSize(), true),
		readBg:    &canvas.Rectangle{CornerRadius: 4, StrokeWidth: 1},
		readout:   NewTextPool(12, false),
	}
	r.raster = canvas.NewRaster(func(w, hh int) image.Image { return paintFills(r.fills, h.Size(), w, hh) })
	r.static = Pools{r.lines, r.ticks, r.titles}
	r.Refresh()
	return r
}

type heatRenderer struct {
	h *Heatmap

	raster        *canvas.Raster
	fills         []fill
	lines         *Pool[*canvas.Line]
	ticks, titles *Pool[*canvas.Text]
	static        Pools

	crossBack, crossLine [2]*canvas.Line
	ring                 *canvas.Circle
	crossBg              *canvas.Rectangle
	crossText            *canvas.Text
	hoverBox             *canvas.Rectangle
	markLine             *canvas.Line
	markBg               *canvas.Rectangle
	markText             *canvas.Text
	readBg               *canvas.Rectangle
	readout              *Pool[*canvas.Text]

	objects      []fyne.CanvasObject
	drawnVersion int
	drawnSize    fyne.Size
	drawnTheme   color.Color

	bounds heatBounds // the cells' edges of the axes on show, built by Refresh
	// The theme's colours and sizes, taken by Refresh.
	fg, muted, menu, shadow color.Color
	caption, inset          float32 // the small print (ticks, the legend's mark); a read-out's inset in its box
	// builds counts the model's builds, so a test can tell a resize
	// builds none.
	builds int
}

func (r *heatRenderer) Destroy() {}

func (r *heatRenderer) MinSize() fyne.Size { return fyne.NewSize(360, 220) }

func (r *heatRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Refresh works out the cells' edges of the axes on show and takes the
// theme's colours and sizes, then lays the map out.
func (r *heatRenderer) Refresh() {
	h := r.h
	r.builds++
	r.bounds = h.boundsOf()
	th := h.Theme()
	r.fg, r.muted = ThemeColor(th, theme.ColorNameForeground), ThemeColor(th, theme.ColorNamePlaceHolder)
	r.menu, r.shadow = ThemeColor(th, theme.ColorNameMenuBackground), ThemeColor(th, theme.ColorNameShadow)
	r.caption, r.inset = th.Size(theme.SizeNameCaptionText), th.Size(theme.SizeNameInnerPadding)
	r.Layout(h.Size())
}

// Layout paints the cells, axes and legend again only when the grid, the
// size or the theme changed since they were painted; hover and crosshair
// only move the overlay.
func (r *heatRenderer) Layout(size fyne.Size) {
	h := r.h
	f := r.bounds.frame(size)
	grew := false
	if r.objects == nil || r.drawnVersion != h.version || r.drawnSize != size || r.drawnTheme != r.fg {
		r.static.Reset()
		r.fills = r.fills[:0]
		r.draw(f, size)
		r.raster.Resize(size)
		r.raster.Refresh()
		grew = r.static.Finish() != nil || r.objects == nil
		r.drawnVersion, r.drawnSize, r.drawnTheme = h.version, size, r.fg
	}
	r.readout.Reset()
	r.drawOverlay(f, size)
	r.readout.hideRest()
	if r.readout.takeGrowth() || grew {
		r.objects = append([]fyne.CanvasObject{r.raster}, r.static.All()...)
		r.objects = append(r.objects, r.crossBack[0], r.crossBack[1], r.crossLine[0], r.crossLine[1], r.ring,
			r.hoverBox, r.crossBg, r.crossText, r.markLine, r.markBg, r.markText, r.readBg)
		r.objects = append(r.objects, r.readout.objects()...)
		Repaint(h)
	}
}

// draw paints the cells and places the axes and the legend in frame f of
// a map of that size.
func (r *heatRenderer) draw(f heatFrame, size fyne.Size) {
	h := r.h
	fg, muted, caption := r.fg, r.muted, r.caption
	grid := Fade(ColorIdle, 0.6)
	defer func() {
		for _, t := range r.ticks.Used() {
			ResizeText(t, caption)
		}
	}()

	// Cells; a coarse one is hatched in the ramp's contrasting tone.
	if h.complete() {
		for i, c := range h.cells {
			pos, sz := f.cellRect(i)
			col := Viridis(h.Level(c.Cell))
			r.fills = append(r.fills, fill{x: pos.X, y: pos.Y, w: sz.Width, h: sz.Height, c: col})
			if c.Coarse {
				hatch := color.NRGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0x50}
				if Luminance(col) > 0.35 {
					hatch = color.NRGBA{A: 0x50}
				}
				r.fills = append(r.fills, fill{x: pos.X, y: pos.Y, w: sz.Width, h: sz.Height, c: hatch, hatch: true})
			}
		}
	} else {
		r.fills = append(r.fills, fill{x: f.pos.X, y: f.pos.Y, w: f.size.Width, h: f.size.Height, c: Fade(ColorIdle, 0.12)})
		if h.message != "" {
			t := r.titles.Next()
			PlaceText(t, h.message, fyne.NewPos(0, 0), muted)
			sz := t.MinSize()
			t.Move(fyne.NewPos(f.pos.X+(f.size.Width-sz.Width)/2, f.pos.Y+(f.size.Height-sz.Height)/2))
		}
	}

	// Frame of the plot.
	x0, y0 := f.pos.X, f.pos.Y
	x1, y1 := x0+f.size.Width, y0+f.size.Height
	for _, seg := range [][2]fyne.Position{{{X: x0, Y: y0}, {X: x1, Y: y0}}, {{X: x1, Y: y0}, {X: x1, Y: y1}},
		{{X: x0, Y: y1}, {X: x1, Y: y1}}, {{X: x0, Y: y0}, {X: x0, Y: y1}}} {
		PlaceLine(r.lines.Next(), seg[0], seg[1], grid, 1)
	}
	if len(h.x.Values) == 0 {
		return
	}

	// x axis: ticks in the axis' unit, a title under them.
	drawXAxis(r.lines, r.ticks, r.titles, f.xs, h.x, h.xName, x0, f.size.Width, y1, 70, caption, muted, fg)

	// y axis, when there is one.
	if h.y.Field != "" && len(h.y.Values) > 0 {
		uy := AxisUnit(h.y)
		lastTop := float32(1e9)
		for _, v := range niceTicks(f.ys.lo/uy.Div, f.ys.hi/uy.Div, max(2, int(f.size.Height/40))) {
			py := f.ys.at(v * uy.Div)
			PlaceLine(r.lines.Next(), fyne.NewPos(x0-5, py), fyne.NewPos(x0, py), muted, 1)
			if py+7 < lastTop-2 {
				label := uy.Number(v * uy.Div)
				PlaceText(r.ticks.Next(), label, fyne.NewPos(x0-8-TextWidth(label, caption, false), py-8), muted)
				lastTop = py - 8
			}
		}
		PlaceText(r.titles.Next(), uy.Title(h.yName), fyne.NewPos(0, 2), fg)
	}

	// Legend: the ramp from 0 at the bottom to 100 % (the grid's highest
	// value, for a price) at the top.
	lx := x1 + heatBarGap
	const slices = 64
	for i := 0; i < slices; i++ {
		top := y0 + f.size.Height*float32(slices-1-i)/slices
		r.fills = append(r.fills, fill{x: lx, y: top, w: heatBarW, h: f.size.Height/slices + 0.5, c: Viridis((float64(i) + 0.5) / slices)})
	}
	for _, p := range []float64{0, 0.25, 0.5, 0.75, 1} {
		py := y1 - f.size.Height*float32(p)
		PlaceLine(r.lines.Next(), fyne.NewPos(lx+heatBarW, py), fyne.NewPos(lx+heatBarW+4, py), muted, 1)
		PlaceText(r.ticks.Next(), h.metric.Format(p*h.top), fyne.NewPos(lx+heatBarW+7, py-8), muted)
	}
	legend := h.metric.LegendFor(h.election)
	PlaceText(r.titles.Next(), legend, fyne.NewPos(size.Width-TextWidth(legend, 12, true), 2), fg)
}

// drawOverlay places the crosshair, the hovered cell's frame, its mark on
// the legend and its read-out, in frame f of a map of that size.
func (r *heatRenderer) drawOverlay(f heatFrame, size fyne.Size) {
	h := r.h
	white := color.NRGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0xFF}
	shadow := color.NRGBA{A: 0xB0}
	x0, y0 := f.pos.X, f.pos.Y
	x1, y1 := x0+f.size.Width, y0+f.size.Height

	// Crosshair at the sliders' values: a white line on a dark one, seen
	// on both ends of the ramp.
	ready := len(h.x.Values) > 0
	showX := ready && h.crossOK[0] && f.xs.inside(h.cross[0])
	showY := ready && h.crossOK[1] && h.y.Field != "" && f.ys.inside(h.cross[1])
	cx, cy := f.xs.at(h.cross[0]), f.ys.at(h.cross[1])
	if showX {
		PlaceLine(r.crossBack[0], fyne.NewPos(cx, y0), fyne.NewPos(cx, y1), shadow, 4)
		PlaceLine(r.crossLine[0], fyne.NewPos(cx, y0), fyne.NewPos(cx, y1), white, 1.5)
	} else {
		r.crossBack[0].Hide()
		r.crossLine[0].Hide()
	}
	if showY {
		PlaceLine(r.crossBack[1], fyne.NewPos(x0, cy), fyne.NewPos(x1, cy), shadow, 4)
		PlaceLine(r.crossLine[1], fyne.NewPos(x0, cy), fyne.NewPos(x1, cy), white, 1.5)
	} else {
		r.crossBack[1].Hide()
		r.crossLine[1].Hide()
	}
	if showX && showY {
		r.ring.StrokeColor, r.ring.StrokeWidth, r.ring.FillColor = white, 2, color.Transparent
		r.ring.Move(fyne.NewPos(cx-7, cy-7))
		r.ring.Resize(fyne.NewSize(14, 14))
		r.ring.Show()
		r.ring.Refresh()
	} else {
		r.ring.Hide()
	}
	if label := r.crossLabel(f); label != "" && ready {
		// On its own row under the titles, right-aligned to the plot, so it
		// never covers the colour bar's title or the y axis' title.
		w := TextWidth(label, 11.5, true)
		lx := max(x1-w-10, 0)
		PlaceRect(r.crossBg, fyne.NewPos(lx, heatCrossY-1), fyne.NewSize(w+10, 19), Fade(color.NRGBA{A: 0xFF}, 0.55))
		PlaceText(r.crossText, label, fyne.NewPos(lx+5, heatCrossY), white)
	} else {
		r.crossBg.Hide()
		r.crossText.Hide()
	}

	c, ok := h.Hovered()
	if !ok {
		r.hoverBox.Hide()
		r.markLine.Hide()
		r.markBg.Hide()
		r.markText.Hide()
		r.readBg.Hide()
		return
	}
	pos, sz := f.cellRect(h.hover)
	PlaceBox(r.hoverBox, pos.SubtractXY(1, 1), sz.AddWidthHeight(2, 2), color.Transparent, white, 2)

	// The cell's value on the legend, in figures.
	lx := x1 + heatBarGap
	my := y1 - f.size.Height*float32(h.Level(c.Cell))
	PlaceLine(r.markLine, fyne.NewPos(lx-5, my), fyne.NewPos(lx+heatBarW+5, my), white, 2.5)
	txt := h.metric.Format(h.metric.Value(c.Cell))
	ResizeText(r.markText, r.caption)
	tw := TextWidth(txt, r.caption, true)
	ty := min(max(my-9, y0), y1-17)
	PlaceRect(r.markBg, fyne.NewPos(lx+heatBarW+5, ty), fyne.NewSize(tw+8, 17), r.menu)
	PlaceText(r.markText, txt, fyne.NewPos(lx+heatBarW+9, ty), r.fg)

	// The read-out beside the mouse, kept inside the widget.
	lines := h.Readout(c)
	lw, lh := float32(0), float32(17)
	for _, s := range lines {
		lw = max(lw, TextWidth(s, 12, false))
	}
	bw, bh := lw+2*r.inset, float32(len(lines))*lh+10
	p := h.mouse.AddXY(18, 18)
	if p.X+bw > size.Width-2 {
		p.X = h.mouse.X - bw - 12
	}
	if p.Y+bh > size.Height-2 {
		p.Y = h.mouse.Y - bh - 12
	}
	p.X, p.Y = max(p.X, 2), max(p.Y, 2)
	PlaceBox(r.readBg, p, fyne.NewSize(bw, bh), r.menu, r.shadow, 1)
	for i, s := range lines {
		t := r.readout.Next()
		t.TextStyle.Bold = i == 0
		PlaceText(t, s, p.AddXY(r.inset, 5+float32(i)*lh), r.fg)
	}
}

// crossLabel says where the sliders stand, off the map (frame f) or not.
func (r *heatRenderer) crossLabel(f heatFrame) string {
	h := r.h
	part := func(name string, a sweep.Axis, v float64, ok bool, s scale) string {
		if !ok {
			return ""
		}
		out := name + " " + AxisUnit(a).Format(v)
		if !s.inside(v) {
			out += i18n.T("heat.offMap")
		}
		return out
	}
	xs := part(h.xName, h.x, h.cross[0], h.crossOK[0], f.xs)
	ys := ""
	if h.y.Field != "" {
		ys = part(h.yName, h.y, h.cross[1], h.crossOK[1], f.ys)
	}
	switch {
	case xs != "" && ys != "":
		return i18n.F("heat.sliders", "where", xs+" · "+ys)
	case xs != "":
		return i18n.F("heat.sliders", "where", xs)
	case ys != "":
		return i18n.F("heat.sliders", "where", ys)
	}
	return ""
}
