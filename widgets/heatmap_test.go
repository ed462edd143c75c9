package widgets

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

func TestViridisIsOrderedAndClamped(t *testing.T) {
	assert.Equal(t, viridisStops[0], Viridis(0))
	assert.Equal(t, viridisStops[10], Viridis(1))
	assert.Equal(t, Viridis(0), Viridis(-3), "below 0 clamps")
	assert.Equal(t, Viridis(1), Viridis(7), "above 1 clamps")
	prev := -1.0
	for i := 0; i <= 100; i++ {
		l := Luminance(Viridis(float64(i) / 100))
		assert.Greater(t, l, prev, "lightness rises at %d %%, so a darker cell is a lower rate", i)
		prev = l
	}
}

func TestPlotHelpers(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0.5, 30.5, 6, []float64{5, 10, 15, 20, 25, 30}},
		{-0.5, 20.5, 11, []float64{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20}},
		{0, 1, 4, []float64{0, 0.5, 1}},
	} {
		assert.Equal(t, tc.want, niceTicks(tc.lo, tc.hi, tc.n), "%v..%v", tc.lo, tc.hi)
	}
	assert.Equal(t, []float64{0.5, 1.5, 2.5, 3.5}, cellBounds([]float64{1, 2, 3}))

	ttl, err := sweep.ParseAxis("ttl=1s:30s:30")
	require.NoError(t, err)
	lat, err := sweep.ParseAxis("latency=0ms:200ms:21")
	require.NoError(t, err)
	clients, err := sweep.ParseAxis("clients=1:12:12")
	require.NoError(t, err)
	for _, tc := range []struct {
		a     sweep.Axis
		v     float64
		want  string
		title string
	}{
		{ttl, 12000, "12 s", "TTL (s)"},
		{ttl, 1500, "1.5 s", "TTL (s)"},
		{ttl, -0.0001, "0 s", "TTL (s)"},
		{lat, 150, "150 ms", "TTL (ms)"},
		{clients, 3, "3", "TTL"},
	} {
		u := AxisUnit(tc.a)
		assert.Equal(t, tc.want, u.Format(tc.v))
		assert.Equal(t, tc.title, u.Title("TTL"))
	}
	assert.Equal(t, "12 %", FormatPercent(0.12))
	assert.Equal(t, "33.3 %", FormatPercent(1.0/3))
	assert.Equal(t, "7.56 s", FormatMs(7556))
	assert.Equal(t, "985 ms", FormatMs(985))
}

// heatGrid is a 3 × 2 ttl × pause map with a cell at each level of the
// ramp, the middle one of the top row still coarse.
func heatGrid(t *testing.T) (sweep.Axis, sweep.Axis, []HeatCell) {
	t.Helper()
	x, err := sweep.ParseAxis("ttl=2s:6s:3")
	require.NoError(t, err)
	y, err := sweep.ParseAxis("pause=0s:4s:2")
	require.NoError(t, err)
	cell := func(x, y, unsafe, violations float64, coarse bool) HeatCell {
		return HeatCell{Cell: sweep.Cell{X: x, Y: y, Runs: 4, UnsafeRate: unsafe, ViolationRate: violations,
			RecoveryMeanMs: x - 1000, RecoveryP99Ms: x - 900, AcquireMeanMs: 2.5, UnsafeSeed: 3}, Coarse: coarse}
	}
	return x, y, []HeatCell{
		cell(2000, 0, 0.5, 0.75, false), cell(4000, 0, 0, 0, false), cell(6000, 0, 0, 0.25, false),
		cell(2000, 4000, 1, 1, false), cell(4000, 4000, 0.25, 0.5, true), cell(6000, 4000, 0, 0, false),
	}
}

func newTestHeatmap(t *testing.T) (*Heatmap, *heatRenderer) {
	t.Helper()
	test.NewTempApp(t)
	h := NewHeatmap()
	w := test.NewTempWindow(t, h)
	w.Resize(fyne.NewSize(640, 420))
	x, y, cells := heatGrid(t)
	h.SetGrid(x, y, "TTL", "pause of the holder", cells)
	return h, test.TempWidgetRenderer(t, h).(*heatRenderer)
}

func visibleTexts(objs []fyne.CanvasObject) []string {
	var out []string
	for _, o := range objs {
		if tx, ok := o.(*canvas.Text); ok && tx.Visible() {
			out = append(out, tx.Text)
		}
	}
	return out
}

func cellCenter(pos fyne.Position, size fyne.Size) fyne.Position {
	return pos.AddXY(size.Width/2, size.Height/2)
}

func TestHeatmapRendersCellsLegendAndAxes(t *testing.T) {
	h, r := newTestHeatmap(t)
	size := h.Size()
	img := r.raster.Generator(int(size.Width), int(size.Height))
	at := func(p fyne.Position) color.NRGBA {
		return color.NRGBAModel.Convert(img.At(int(p.X), int(p.Y))).(color.NRGBA)
	}
	for i, c := range h.Cells() {
		pos, sz := h.CellRect(i)
		if c.Coarse {
			continue
		}
		assert.Equal(t, Viridis(c.UnsafeRate), at(cellCenter(pos, sz)), "cell %d is coloured by its unsafe rate", i)
	}
	// Cells sit in rows from the lowest pause up, ttl growing rightwards.
	p0, _ := h.CellRect(0)
	p1, _ := h.CellRect(1)
	p3, _ := h.CellRect(3)
	assert.Greater(t, p1.X, p0.X)
	assert.Less(t, p3.Y, p0.Y, "the higher pause is drawn above")

	// The coarse cell alone is hatched.
	hatched := 0
	for _, f := range r.fills {
		if f.hatch {
			hatched++
			pos, _ := h.CellRect(4)
			assert.Equal(t, pos.X, f.x)
		}
	}
	assert.Equal(t, 1, hatched)

	// The legend's ramp runs from violet at 0 % up to yellow at 100 %.
	f := h.frame()
	lx := int(f.pos.X + f.size.Width + heatBarGap + heatBarW/2)
	bottom := color.NRGBAModel.Convert(img.At(lx, int(f.pos.Y+f.size.Height-2))).(color.NRGBA)
	top := color.NRGBAModel.Convert(img.At(lx, int(f.pos.Y+2))).(color.NRGBA)
	assert.Less(t, Luminance(bottom), 0.1)
	assert.Greater(t, Luminance(top), 0.6)

	shown := visibleTexts(r.Objects())
	for _, s := range []string{"unsafe runs", "0 %", "50 %", "100 %", "TTL (s)", "pause of the holder (s)", "2", "4", "6", "0"} {
		assert.Contains(t, shown, s)
	}

	h.SetMetric(MetricViolations)
	img = r.raster.Generator(int(size.Width), int(size.Height))
	pos, sz := h.CellRect(0)
	assert.Equal(t, Viridis(0.75), color.NRGBAModel.Convert(img.At(int(cellCenter(pos, sz).X), int(cellCenter(pos, sz).Y))).(color.NRGBA))
	assert.Contains(t, visibleTexts(r.Objects()), "runs with 2 holders")
}

// The price of safety is scaled to the grid's highest value: the cell
// with the most grants a second (or the longest p99 wait) is the ramp's
// top, and the legend says the figures, not shares.
func TestHeatmapColoursThePrice(t *testing.T) {
	h, r := newTestHeatmap(t)
	cells := h.Cells()
	for i := range cells {
		cells[i].Throughput = float64(i+1) / 8 // 0.125 to 0.75 grants a second
		cells[i].WaitP99Ms = 1000 * float64(6-i)
	}
	x, y, _ := heatGrid(t)
	h.SetGrid(x, y, "TTL", "pause of the holder", cells)
	size := h.Size()
	colourAt := func(i int) color.NRGBA {
		img := r.raster.Generator(int(size.Width), int(size.Height))
		pos, sz := h.CellRect(i)
		c := cellCenter(pos, sz)
		return color.NRGBAModel.Convert(img.At(int(c.X), int(c.Y))).(color.NRGBA)
	}

	h.SetMetric(MetricThroughput)
	assert.Equal(t, 0.75, h.Top())
	assert.Equal(t, Viridis(1), colourAt(5), "the highest throughput is the ramp's top")
	assert.Equal(t, Viridis(0.5), colourAt(2))
	shown := visibleTexts(r.Objects())
	for _, s := range []string{"throughput", "0.00/s", "0.38/s", "0.75/s"} {
		assert.Contains(t, shown, s)
	}

	h.SetMetric(MetricWaitP99)
	assert.Equal(t, 6000.0, h.Top())
	assert.Equal(t, Viridis(1), colourAt(0), "the longest wait is the ramp's top")
	assert.Equal(t, Viridis(0.5), colourAt(3))
	shown = visibleTexts(r.Objects())
	for _, s := range []string{"p99 wait", "0 ms", "3.00 s", "6.00 s"} {
		assert.Contains(t, shown, s)
	}

	// All at 0: the ramp still spans something, the cells at its foot.
	for i := range cells {
		cells[i].Throughput = 0
	}
	h.SetMetric(MetricThroughput)
	h.SetGrid(x, y, "TTL", "pause of the holder", cells)
	assert.Equal(t, 1.0, h.Top())
	assert.Zero(t, h.Level(cells[0].Cell))

	h.SetMetric(MetricUnsafe)
	assert.Equal(t, 1.0, h.Top(), "a share runs to 100 %")
}

func TestHeatmapCrosshair(t *testing.T) {
	h, r := newTestHeatmap(t)
	assert.False(t, r.crossLine[0].Visible(), "no slider values yet")

	h.SetCrosshair(4000, true, 4000, true)
	pos, sz := h.CellRect(4)
	c := cellCenter(pos, sz)
	require.True(t, r.crossLine[0].Visible())
	require.True(t, r.crossLine[1].Visible())
	assert.InDelta(t, c.X, r.crossLine[0].Position1.X, 0.5, "the vertical line stands at TTL 4 s")
	assert.InDelta(t, c.Y, r.crossLine[1].Position1.Y, 0.5, "the horizontal line at the 4 s pause")
	assert.True(t, r.ring.Visible())
	assert.Equal(t, "┼ sliders: TTL 4 s · pause of the holder 4 s", r.crossText.Text)

	// A scenario with no pause has no horizontal line; a TTL past the
	// grid says so instead of drawing one.
	h.SetCrosshair(45000, true, 0, false)
	assert.False(t, r.crossLine[0].Visible())
	assert.False(t, r.crossLine[1].Visible())
	assert.False(t, r.ring.Visible())
	assert.Equal(t, "┼ sliders: TTL 45 s (off the map)", r.crossText.Text)
}

func TestHeatmapHoverReadsOutACell(t *testing.T) {
	h, r := newTestHeatmap(t)
	h.Hint = func(c HeatCell) string { return "click: watch seed 3, an unsafe run" }
	pos, sz := h.CellRect(0)
	h.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: cellCenter(pos, sz)}})
	c, ok := h.Hovered()
	require.True(t, ok)
	assert.Equal(t, h.Cells()[0], c)
	shown := visibleTexts(r.Objects())
	for _, s := range []string{"TTL 2 s · pause of the holder 0 s",
		"unsafe: 50 % — 2 of 4 runs took a stale write",
		"two holders at once: 75 % of runs",
		"recovery after a crash: mean 1.00 s · p99 1.10 s",
		"acquire latency: mean 2.5 ms · p99 0 ms",
		"throughput: 0.00 grants/s (paused runs, until settled)",
		"click: watch seed 3, an unsafe run"} {
		assert.Contains(t, shown, s)
	}
	assert.Equal(t, "50 %", r.markText.Text, "the legend marks the value in figures")
	assert.True(t, r.hoverBox.Visible())
	assert.True(t, r.readBg.Visible())
	assert.Equal(t, pos.X-1, r.hoverBox.Position().X)

	// A coarse cell says so; one without a recovery to measure says why.
	p4, s4 := h.CellRect(4)
	h.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: cellCenter(p4, s4)}})
	assert.Contains(t, visibleTexts(r.Objects()), "from a quicker pass over fewer runs, still being refined")
	cells := h.Cells()
	cells[4].NoRecovery = "the lease ran out before the crash"
	assert.Contains(t, h.Readout(cells[4]), "recovery after a crash: none to measure — the lease ran out before the crash")

	h.MouseOut()
	assert.False(t, r.readBg.Visible())
	assert.False(t, r.hoverBox.Visible())
	assert.NotContains(t, visibleTexts(r.Objects()), "from a quicker pass over fewer runs, still being refined")
}

func TestHeatmapTapHandsTheCellOver(t *testing.T) {
	h, _ := newTestHeatmap(t)
	var got []HeatCell
	h.OnTapCell = func(c HeatCell) { got = append(got, c) }
	p4, s4 := h.CellRect(4)
	h.Tapped(&fyne.PointEvent{Position: cellCenter(p4, s4)})
	pos, sz := h.CellRect(3)
	h.Tapped(&fyne.PointEvent{Position: pos.AddXY(1, sz.Height-1)}) // inside, by its corner
	h.Tapped(&fyne.PointEvent{Position: fyne.NewPos(2, 2)})         // the margin
	require.Len(t, got, 2)
	assert.Equal(t, h.Cells()[4], got[0])
	assert.Equal(t, h.Cells()[3], got[1])
}

func TestHeatmapEmptyShowsItsMessage(t *testing.T) {
	test.NewTempApp(t)
	h := NewHeatmap()
	w := test.NewTempWindow(t, h)
	w.Resize(fyne.NewSize(500, 300))
	h.SetMessage("computing…")
	r := test.TempWidgetRenderer(t, h).(*heatRenderer)
	assert.Contains(t, visibleTexts(r.Objects()), "computing…")
	_, ok := h.CellAt(fyne.NewPos(250, 150))
	assert.False(t, ok)
	h.Tapped(&fyne.PointEvent{Position: fyne.NewPos(250, 150)}) // no cells: nothing to hand over
}

func TestPaintFillsHatchStaysInside(t *testing.T) {
	red := color.NRGBA{R: 0xFF, A: 0xFF}
	img := paintFills([]fill{{x: 12.5, y: 0, w: 12.5, h: 10, c: red, hatch: true}}, fyne.NewSize(25, 10), 25, 10)
	var stray []image.Point
	for y := 0; y < 10; y++ {
		for x := 0; x < 13; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0 {
				stray = append(stray, image.Pt(x, y))
			}
		}
	}
	assert.Empty(t, stray, "no stripe leaks left of the fill")
	lit := 0
	for x := 13; x < 25; x++ {
		if _, _, _, a := img.At(x, 0).RGBA(); a != 0 {
			lit++
		}
	}
	assert.Equal(t, 2, lit, "one stripe in six pixels")
}

// The crosshair's label is on a row of its own: it covers no other text of
// the map (the colour bar's title, the axis titles, the ticks), wide or narrow.
func TestHeatmapCrosshairLabelCoversNoText(t *testing.T) {
	h, r := newTestHeatmap(t)
	h.SetMetric(MetricViolations)
	h.SetCrosshair(4000, true, 4000, true)
	for _, width := range []float32{380, 640, 1200} {
		h.Resize(fyne.NewSize(width, 420))
		r.Refresh()
		require.True(t, r.crossBg.Visible())
		box := [4]float32{r.crossBg.Position().X, r.crossBg.Position().Y,
			r.crossBg.Position().X + r.crossBg.Size().Width, r.crossBg.Position().Y + r.crossBg.Size().Height}
		for _, o := range r.Objects() {
			tx, ok := o.(*canvas.Text)
			if !ok || !tx.Visible() || tx == r.crossText || tx.Text == "" {
				continue
			}
			p, s := tx.Position(), tx.MinSize()
			apart := p.X >= box[2] || p.X+s.Width <= box[0] || p.Y >= box[3] || p.Y+s.Height <= box[1]
			assert.True(t, apart, "width %v: the crosshair label %v covers %q at %v %v", width, box, tx.Text, p, s)
		}
	}
}

// The map follows Fyne's idiom: Refresh works out the cells' edges of the
// axes and takes the theme; a resize only paints and places again, the
// cells where the new size puts them.
func TestHeatmapResizeLaysOutWithoutRebuilding(t *testing.T) {
	h, r := newTestHeatmap(t)
	h.SetCrosshair(3000, true, 2000, true)
	widgettest.AssertResizeOnlyLaysOut(t, h, func() int { return r.builds }, fyne.NewSize(900, 560))
	pos, size := h.CellRect(5)
	assert.Equal(t, fyne.NewPos(heatLeft, heatTop).Add(fyne.NewPos(900-heatLeft-heatRight, 0)), pos.Add(fyne.NewPos(size.Width, 0)),
		"the top right cell reaches the new size's plot corner")
}
