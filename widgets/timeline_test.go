package widgets

import (
	"image/color"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

const sec = time.Second

// gcPauseTimeline is the GC-pause run laid out by hand.
func gcPauseTimeline() sim.Timeline {
	return sim.Timeline{
		End:      30 * sec,
		Clients:  []string{"client-1", "client-2"},
		Waiting:  [][]sim.Interval{nil, {{From: 0, To: 10 * sec}}},
		Holding:  [][]sim.Interval{{{From: 0, To: 20 * sec}}, {{From: 10 * sec, To: 15 * sec}}},
		Owned:    [][]sim.Interval{{{From: 0, To: 10 * sec}}, {{From: 10 * sec, To: 15 * sec}}},
		Overlaps: []sim.Interval{{From: 10 * sec, To: 15 * sec}},
		Faults:   []sim.FaultMark{{At: sec, Kind: sim.FaultPause, Target: "client-1", Note: "15s"}},
		Grants:   []sim.Grant{{At: 0, Client: 0, Token: 1}, {At: 10 * sec, Client: 1, Token: 2}},
		Writes: []sim.WriteRecord{
			{At: 15 * sec, Client: 1, Token: 2, Accepted: true},
			{At: 20 * sec, Client: 0, Token: 1, Stale: true, Accepted: true},
		},
	}
}

func newTestTimeline(t *testing.T) (*Timeline, *timelineRenderer) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	w.Resize(fyne.NewSize(1000, 300))
	tl.SetTimeline(gcPauseTimeline())
	return tl, test.TempWidgetRenderer(t, tl).(*timelineRenderer)
}

func TestTimelineMapsTimeAndX(t *testing.T) {
	tl, _ := newTestTimeline(t)
	x0, x1 := tl.frame().plotSpan()
	assert.Equal(t, x0, tl.XAt(0))
	assert.Equal(t, x1, tl.XAt(30*sec))
	for _, at := range []time.Duration{0, 1 * sec, 12 * sec, 29500 * time.Millisecond, 30 * sec} {
		assert.InDelta(t, float64(at), float64(tl.TimeAt(tl.XAt(at))), float64(time.Millisecond), "%v", at)
	}
	assert.Equal(t, time.Duration(0), tl.TimeAt(0), "left of the lanes is the start")
	assert.Equal(t, 30*sec, tl.TimeAt(5000), "right of the lanes is the end")
}

func TestTimelineTapAndDragSeek(t *testing.T) {
	tl, _ := newTestTimeline(t)
	var got []time.Duration
	tl.OnSeek = func(at time.Duration) { got = append(got, at) }
	test.TapAt(tl, fyne.NewPos(tl.XAt(12*sec), 100))
	// A drag event carries where the mouse is now: at 20 s, having come
	// from 16 s.
	d := fyne.CurrentApp().Driver()
	at := d.AbsolutePositionForObject(tl).Add(fyne.NewPos(tl.XAt(20*sec), 100))
	test.Drag(d.CanvasForObject(tl), at, tl.XAt(20*sec)-tl.XAt(16*sec), 0)
	require.Len(t, got, 2)
	assert.InDelta(t, float64(12*sec), float64(got[0]), float64(time.Millisecond))
	assert.InDelta(t, float64(20*sec), float64(got[1]), float64(time.Millisecond))
}

func TestTimelineDrawsTheRun(t *testing.T) {
	tl, r := newTestTimeline(t)
	tl.SetCursor(30 * sec)
	shown := widgettest.Texts(r.Objects())
	for _, s := range []string{"client-1", "client-2", "key on server", "‖ client-1 15s", "paused",
		"2 holders · 5.000 s", "✓ write", "✓ write · stale", "#1", "#2", "0 s", "30 s",
		"waiting", "believes it holds", "server holds its key", "two holders", "fault"} {
		assert.Contains(t, shown, s)
	}

	// The overlap is hatched across every lane (in the raster, under the
	// future's dimming before the cursor reaches it).
	lanes := tl.frame().lanes()
	top, bottom := lanes[0].top, tl.frame().lanesBottom()
	a, b := tl.XAt(10*sec), tl.XAt(15*sec)
	var hatch, band *paintOp
	for i, op := range r.ops {
		if op.hatch {
			hatch = &r.ops[i]
		}
		if op.c == Fade(ColorViolation, 0.20) {
			band = &r.ops[i]
		}
	}
	require.NotNil(t, hatch, "the overlap is hatched")
	require.NotNil(t, band, "the overlap band is drawn")
	for _, op := range []*paintOp{hatch, band} {
		assert.InDelta(t, a, op.x, 0.01)
		assert.InDelta(t, b-a, op.w, 0.01)
		assert.InDelta(t, top, op.y, 0.01)
		assert.InDelta(t, bottom-top, op.h, 0.01, "the overlap spans every lane")
	}
}

func TestTimelinePaintsItsBars(t *testing.T) {
	tl, r := newTestTimeline(t)
	const scale = 2 // a HiDPI screen: the raster is drawn at pixel size
	size := tl.Size()
	img := r.paintBars(int(size.Width*scale), int(size.Height*scale))
	at := func(when time.Duration, y float32) color.NRGBA {
		return color.NRGBAModel.Convert(img.At(int(tl.XAt(when)*scale), int(y*scale))).(color.NRGBA)
	}
	lanes := tl.frame().lanes()
	held := at(500*time.Millisecond, lanes[0].beliefY+lanes[0].beliefH/2)
	assert.Equal(t, ColorHolding, held, "client-1 holds from 0")
	owned := at(5*sec, lanes[0].ownedY+lanes[0].ownedH/2)
	assert.Equal(t, ColorOwned, owned, "and the server holds its key until 10 s")
	assert.Equal(t, uint8(0), at(25*sec, lanes[1].beliefY+lanes[1].beliefH/2).B, "client-2 holds nothing at 25 s")

	// Inside the overlap some pixels are hatch, some not: a pattern,
	// not only a colour.
	stripes, plain := 0, 0
	g := lanes[1]
	for x := tl.XAt(11 * sec); x < tl.XAt(12*sec); x += 0.5 {
		c := color.NRGBAModel.Convert(img.At(int(x*scale), int((g.top+2)*scale))).(color.NRGBA)
		if c.A > 0x80 {
			stripes++
		} else {
			plain++
		}
	}
	assert.Positive(t, stripes)
	assert.Positive(t, plain)
}

func TestTimelineCursorMovesAlone(t *testing.T) {
	tl, r := newTestTimeline(t)
	before := sizes(r)
	objs := r.Objects()
	tl.SetCursor(12 * sec)
	assert.InDelta(t, tl.XAt(12*sec), r.cursor.Position1.X, 0.01)
	assert.InDelta(t, tl.XAt(12*sec), r.dim.Position().X, 0.01, "the future after the cursor is dimmed")
	assert.Contains(t, widgettest.Texts(r.Objects()), "12.000 s")
	assert.Equal(t, before, sizes(r), "a cursor move leaves the lanes alone")
	assert.Equal(t, len(objs), len(r.Objects()))
	assert.Equal(t, 12*sec, tl.Cursor())
}

func sizes(r *timelineRenderer) []paintOp {
	return append([]paintOp(nil), r.ops...)
}

func TestTickStep(t *testing.T) {
	for _, tc := range []struct {
		end   time.Duration
		width float32
		want  time.Duration
	}{
		{30 * sec, 1200, 2 * sec},
		{30 * sec, 300, 10 * sec},
		{20 * time.Millisecond, 1000, 2 * time.Millisecond},
		{10 * time.Minute, 1200, time.Minute},
		{2 * time.Minute, 1200, 10 * sec},
		{24 * time.Hour, 1200, 2 * time.Hour},
		{0, 1000, sec},
	} {
		assert.Equal(t, tc.want, TickStep(tc.end, tc.width, 80), "%v over %v px", tc.end, tc.width)
	}
	assert.Equal(t, "12 s", tickLabel(12*sec, 2*sec))
	assert.Equal(t, "2.5 ms", tickLabel(2500*time.Microsecond, 500*time.Microsecond))
	assert.Equal(t, "0 s", tickLabel(0, time.Millisecond))
	assert.Equal(t, "10m", tickLabel(10*time.Minute, time.Minute))
	assert.Equal(t, "1h", tickLabel(time.Hour, 15*time.Minute))
	assert.Equal(t, "1h15m", tickLabel(75*time.Minute, 15*time.Minute))
}

func TestFaultGlyphsDiffer(t *testing.T) {
	seen := map[string]sim.FaultKind{}
	for _, k := range []sim.FaultKind{sim.FaultPause, sim.FaultCrash, sim.FaultRestart, sim.FaultClockJump, sim.FaultPartition, sim.FaultHeal, sim.FaultFailover, sim.FaultPromote} {
		g := faultGlyph(k)
		assert.NotContains(t, seen, g, "%s and %s share a glyph", k, seen[g])
		seen[g] = k
	}
}

func TestTimelineThinsACrowdedRun(t *testing.T) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	w.Resize(fyne.NewSize(1000, 300))
	run := sim.Timeline{End: 10 * time.Minute, Clients: []string{"client-1", "client-2"},
		Holding: [][]sim.Interval{nil, nil}, Waiting: [][]sim.Interval{nil, nil}, Owned: [][]sim.Interval{nil, nil}}
	stale := 0
	for i := 0; i < 600; i++ {
		at := time.Duration(i) * time.Second
		run.Holding[0] = append(run.Holding[0], sim.Interval{From: at, To: at + 500*time.Millisecond})
		run.Grants = append(run.Grants, sim.Grant{At: at, Client: 0, Token: int64(i + 1)})
		wr := sim.WriteRecord{At: at + 500*time.Millisecond, Client: 0, Accepted: true, Stale: i%100 == 7}
		if wr.Stale {
			stale++
		}
		run.Writes = append(run.Writes, wr)
	}
	tl.SetTimeline(run)
	r := test.TempWidgetRenderer(t, tl).(*timelineRenderer)
	bars := 0
	for _, op := range r.ops {
		if op.c == ColorHolding {
			bars++
		}
	}
	assert.Less(t, bars, 20, "half-second holds a second apart blur into a few bars")
	assert.Less(t, r.labels.used+r.badges.used, 200, "labels are thinned where they would overlap")
	marked := 0
	for _, op := range r.ops {
		if op.c == ColorViolation && op.w == 2 {
			marked++
		}
	}
	for _, s := range widgettest.Texts(r.Objects()) {
		if s == "✓ write · stale" {
			marked++
		}
	}
	assert.Equal(t, stale, marked, "every stale write stays visible")
}

func TestTimelineHidesTheFutureLabels(t *testing.T) {
	tl, r := newTestTimeline(t)
	future := []string{"2 holders · 5.000 s", "✓ write", "✓ write · stale", "#2"}
	shown := widgettest.Texts(r.Objects())
	for _, s := range future {
		assert.NotContains(t, shown, s, "at 0 s nothing of the run has happened yet")
	}
	assert.Contains(t, shown, "‖ client-1 15s", "a fault is the scenario's plan: it stays labelled")
	assert.Equal(t, toNRGBA(Fade(toNRGBA(ThemeColor(tl.Theme(), theme.ColorNameBackground)), futureDim)), toNRGBA(r.dim.FillColor),
		"the future's bars are dimmed to a ghost")

	tl.SetCursor(12 * sec) // inside the overlap, before the writes
	shown = widgettest.Texts(r.Objects())
	assert.Contains(t, shown, "2 holders · 5.000 s")
	assert.Contains(t, shown, "#2")
	assert.NotContains(t, shown, "✓ write · stale")

	tl.SetCursor(0)
	assert.NotContains(t, widgettest.Texts(r.Objects()), "#2", "going back hides them again")
}

// Every fault and mid-run change is labelled, and no label covers another
// or hides under the cursor's: three masters crashed at once share one
// badge naming each (redlock-majority-down), faults close together take
// rows of their own (redlock-clock-jump's partition, jump and restart),
// and the cursor's time is written on the axis.
func TestTimelineFaultLabelsNeverCover(t *testing.T) {
	tl, r := newTestTimeline(t)
	run := gcPauseTimeline()
	run.Faults = []sim.FaultMark{
		{At: 0, Kind: sim.FaultPartition},
		{At: sec, Kind: sim.FaultCrash, Target: "redis-1"},
		{At: sec, Kind: sim.FaultCrash, Target: "redis-2"},
		{At: sec, Kind: sim.FaultCrash, Target: "redis-3"},
		{At: 1200 * time.Millisecond, Kind: sim.FaultClockJump, Target: "redis-3", Note: "+10s"},
		{At: 1500 * time.Millisecond, Kind: sim.FaultRestart, Target: "redis-3"},
		{At: 1600 * time.Millisecond, Kind: sim.FaultChange, Note: "TTL 43.5s"},
		{At: 29 * sec, Kind: sim.FaultHeal},
	}
	tl.SetTimeline(run)
	tl.SetCursor(1300 * time.Millisecond)

	type rect struct{ x, y, w, h float32 }
	var badges []rect
	labels := map[string]bool{}
	for _, o := range r.Objects() {
		if rc, ok := o.(*canvas.Rectangle); ok && rc.Visible() && rc.FillColor == ColorFault && rc.Size().Height > 12 {
			badges = append(badges, rect{rc.Position().X, rc.Position().Y, rc.Size().Width, rc.Size().Height})
		}
	}
	for _, s := range widgettest.Texts(r.Objects()) {
		labels[s] = true
	}
	assert.True(t, labels["╳ redis-1, redis-2, redis-3"], "one badge names the three crashed masters: %v", labels)
	for _, want := range []string{"∥ " + i18n.T("timeline.partition"), "◑ redis-3 +10s", "⊕ redis-3", "! TTL 43.5s", "⇔ " + i18n.T("timeline.healed")} {
		assert.True(t, labels[want], "%q is labelled: %v", want, labels)
	}
	require.Len(t, badges, 6, "one badge per instant and kind")
	cur := rect{r.cursorBg.Position().X, r.cursorBg.Position().Y, r.cursorBg.Size().Width, r.cursorBg.Size().Height}
	over := func(a, b rect) bool {
		return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
	}
	for i, a := range badges {
		assert.False(t, over(a, cur), "badge %d is under the cursor's label", i)
		for _, b := range badges[i+1:] {
			assert.False(t, over(a, b), "badges overlap: %v %v", a, b)
		}
		assert.LessOrEqual(t, a.y+a.h, tl.frame().lanesTop(), "badges sit above the lanes")
	}
	assert.Greater(t, tl.frame().lanesTop(), float32(tlTopRow), "crowded faults take more than one row")
}

// shownLabels are the rectangles of the lanes' labels on show: each badge,
// and each text that stands on no badge.
func shownLabels(r *timelineRenderer) (boxes []labelBox, names []string) {
	for _, o := range r.badges.objects() {
		if o.Visible() {
			boxes = append(boxes, labelBox{o.Position().X, o.Position().Y, o.Size().Width, o.Size().Height})
			names = append(names, "badge")
		}
	}
	for _, o := range r.labels.objects() {
		txt := o.(*canvas.Text)
		if !txt.Visible() {
			continue
		}
		b := labelBox{txt.Position().X, txt.Position().Y, txt.MinSize().Width, txt.MinSize().Height}
		onBadge := false
		for _, bb := range boxes {
			if b.x >= bb.x && b.x < bb.x+bb.w && b.y >= bb.y-1 && b.y < bb.y+bb.h {
				onBadge = true
			}
		}
		if !onBadge {
			boxes = append(boxes, b)
			names = append(names, txt.Text)
		}
	}
	return boxes, names
}

// A short overlap with a write just inside it, on the last lane of a low
// timeline (etcd-lease-expiry at 1024×768): the overlap's badge, the
// writes', the grants' tokens and "paused" all stay whole, none on
// another. The overlap's badge is never dropped where a place is free.
func TestTimelineLanesLabelsNeverCoverEachOther(t *testing.T) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	run := sim.Timeline{
		End:      15 * sec,
		Clients:  []string{"client-1", "client-2"},
		Waiting:  [][]sim.Interval{nil, {{From: 0, To: 2500 * time.Millisecond}}},
		Holding:  [][]sim.Interval{{{From: 0, To: 4500 * time.Millisecond}}, {{From: 2500 * time.Millisecond, To: 4 * sec}}},
		Owned:    [][]sim.Interval{{{From: 0, To: 2500 * time.Millisecond}}, {{From: 2500 * time.Millisecond, To: 4 * sec}}},
		Overlaps: []sim.Interval{{From: 2500 * time.Millisecond, To: 4 * sec}},
		Faults:   []sim.FaultMark{{At: sec / 2, Kind: sim.FaultPause, Target: "client-1", Note: "3s"}},
		Grants:   []sim.Grant{{At: 0, Client: 0, Token: 1}, {At: 2500 * time.Millisecond, Client: 1, Token: 2}},
		Writes: []sim.WriteRecord{
			{At: 3200 * time.Millisecond, Client: 1, Token: 2, Accepted: true},
			{At: 3600 * time.Millisecond, Client: 0, Token: 1, Stale: true, Accepted: true},
		},
	}
	for _, size := range []fyne.Size{fyne.NewSize(700, 150), fyne.NewSize(900, 140), fyne.NewSize(1000, 300), fyne.NewSize(600, 130)} {
		r := drawnAtEnd(t, w, tl, run, size)
		boxes, names := shownLabels(r)
		for i := range boxes {
			for j := i + 1; j < len(boxes); j++ {
				assert.True(t, labelBoxes{boxes[i]}.free(boxes[j]), "%v: %q %v covers %q %v", size, names[i], boxes[i], names[j], boxes[j])
			}
		}
		shown := widgettest.Texts(r.Objects())
		assert.Contains(t, shown, "✓ write", "%v", size)
		assert.Contains(t, shown, "✓ write · stale", "%v", size)
		assert.True(t, slices.Contains(shown, "2 holders") || slices.Contains(shown, "2 holders · 1.500 s"), "%v: the overlap keeps its label: %q", size, shown)
	}
}

// A write badge just left of the cursor reaches past it: it is drawn
// whole, not half under the dimmed future (pixels of the window as the
// software painter draws it).
func TestTimelineLabelLeftOfTheCursorIsNotDimmed(t *testing.T) {
	tl, r := newTestTimeline(t)
	tl.SetCursor(15*sec + 50*time.Millisecond) // just after client-2's write at 15 s
	var badge *canvas.Rectangle
	for _, o := range r.badges.objects() {
		if o.Visible() && o.Position().X < tl.XAt(15*sec) && o.Position().X+o.Size().Width > tl.XAt(15*sec)+10 &&
			o.Position().Y > tl.frame().lanes()[1].top {
			badge = o.(*canvas.Rectangle)
		}
	}
	require.NotNil(t, badge, "client-2's write badge straddles the cursor")
	img := fyne.CurrentApp().Driver().CanvasForObject(tl).Capture()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(tl)
	scale := float32(img.Bounds().Dx()) / fyne.CurrentApp().Driver().CanvasForObject(tl).Size().Width
	at := func(x float32) color.NRGBA {
		p := pos.Add(fyne.NewPos(x, badge.Position().Y+badge.Size().Height-2))
		return color.NRGBAModel.Convert(img.At(int(p.X*scale), int(p.Y*scale))).(color.NRGBA)
	}
	left := at(badge.Position().X + 2)
	right := at(badge.Position().X + badge.Size().Width - 3)
	assert.Equal(t, toNRGBA(badge.FillColor), left, "the badge left of the cursor")
	assert.Equal(t, left, right, "and right of it: the same colour, not dimmed")
}

// On a large screen the lanes take the timeline's height: nothing is left
// empty under the legend (two clients in the timeline of a 2560×1440
// window, where 120 points stayed empty).
func TestTimelineLanesFillALargeTimeline(t *testing.T) {
	tl, _ := newTestTimeline(t)
	for _, size := range []fyne.Size{fyne.NewSize(2200, 420), fyne.NewSize(1400, 300), fyne.NewSize(1000, 200)} {
		tl.Resize(size)
		used := tl.frame().lanesBottom() + tlAxisH + tlLegendH
		assert.InDelta(t, size.Height, used, 1, "%v: the lanes, axis and legend fill the height", size)
	}
}

// With 40-point lanes (etcd-lease-expiry at 1366×768) the overlap's badge
// is at the lanes' foot, in its own strip under the last lane, at the
// overlap's start.
func TestTimelineOverlapBadgeKeepsTheFootBesideTouchingLabels(t *testing.T) {
	tl, r := newTestTimeline(t)
	run := gcPauseTimeline()
	tl.SetTimeline(run)
	tl.Resize(fyne.NewSize(1300, tlTopRow+2*40+tlOverlapStrip+tlAxisH+tlLegendH))
	tl.SetCursor(run.End)
	require.InDelta(t, 40, tl.frame().lanes()[0].height, 0.01)
	var found bool
	for _, o := range r.labels.objects() {
		if txt := o.(*canvas.Text); txt.Visible() && strings.HasPrefix(txt.Text, "2 holders") {
			found = true
			assert.InDelta(t, tl.frame().lanesBottom()-18, txt.Position().Y, 0.01, "at the foot of the lanes")
			assert.InDelta(t, tl.XAt(10*sec)+6, txt.Position().X, 0.01, "at the overlap's start")
		}
	}
	assert.True(t, found)
}

// With 30-point lanes the full label, which fits in the overlap, shows at
// the lanes' foot: in its strip no write is in its way (inside the last
// lane a write's badge was, and the short label stood there).
func TestTimelineOverlapBadgeShowsInFullInItsStrip(t *testing.T) {
	tl, r := newTestTimeline(t)
	run := gcPauseTimeline()
	tl.SetTimeline(run)
	tl.Resize(fyne.NewSize(800, tlTopRow+2*30+tlOverlapStrip+tlAxisH+tlLegendH))
	tl.SetCursor(run.End)
	var shown []string
	for _, o := range r.labels.objects() {
		if txt := o.(*canvas.Text); txt.Visible() && strings.HasPrefix(txt.Text, "2 holders") {
			shown = append(shown, txt.Text)
			assert.InDelta(t, tl.frame().lanesBottom()-18, txt.Position().Y, 0.01, "at the foot of the lanes")
		}
	}
	assert.Equal(t, []string{"2 holders · 5.000 s"}, shown)
}

// clockJumpTimeline is redlock-clock-jump's run: two partitions, a clock
// jump and two heals within 1.5 s, then an overlap and a stale write.
func clockJumpTimeline() sim.Timeline {
	ms := time.Millisecond
	return sim.Timeline{
		End:      20 * sec,
		Clients:  []string{"client-1", "client-2"},
		Waiting:  [][]sim.Interval{{{From: 0, To: 500 * ms}}, {{From: 2 * sec, To: 2500 * ms}}},
		Holding:  [][]sim.Interval{{{From: 500 * ms, To: 5500 * ms}}, {{From: 2500 * ms, To: 7500 * ms}}},
		Owned:    [][]sim.Interval{{{From: 500 * ms, To: 5500 * ms}}, {{From: 2500 * ms, To: 7500 * ms}}},
		Overlaps: []sim.Interval{{From: 2500 * ms, To: 5500 * ms}},
		Faults: []sim.FaultMark{
			{At: 0, Kind: sim.FaultPartition},
			{At: sec, Kind: sim.FaultClockJump, Target: "redis-3", Note: "10s"},
			{At: sec, Kind: sim.FaultHeal},
			{At: 1500 * ms, Kind: sim.FaultPartition},
			{At: 11500 * ms, Kind: sim.FaultHeal},
		},
		Grants: []sim.Grant{{At: 500 * ms, Client: 0}, {At: 2500 * ms, Client: 1}},
		Writes: []sim.WriteRecord{
			{At: 5500 * ms, Client: 0, Stale: true, Accepted: true},
			{At: 7400 * ms, Client: 1, Accepted: true},
		},
	}
}

// In a low timeline (redlock-clock-jump's at 1024×768: 135 points) the
// fault badges fold into fewer rows so each lane keeps tlReadableLane,
// every fault still labelled and no badge on another; a tall one keeps
// the three rows they take.
func TestTimelineLanesStayReadableUnderManyFaults(t *testing.T) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	run := clockJumpTimeline()
	for _, c := range []struct {
		size fyne.Size
		rows int
	}{
		{fyne.NewSize(1008, 120), 1},
		{fyne.NewSize(1008, 140), 2},
		{fyne.NewSize(1350, 300), 3},
	} {
		r := drawnAtEnd(t, w, tl, run, c.size)
		for _, g := range tl.frame().lanes() {
			assert.GreaterOrEqual(t, g.height, float32(tlReadableLane), "%v: lanes stay readable", c.size)
		}
		assert.Equal(t, badgeBandH(c.rows), tl.frame().lanesTop(), "%v: the badges take %d rows", c.size, c.rows)
		shown := widgettest.Texts(r.Objects())
		for _, want := range []string{"∥ " + i18n.T("timeline.partition"), "◑ redis-3 10s", "⇔ " + i18n.T("timeline.healed")} {
			assert.Contains(t, shown, want, "%v", c.size)
		}
		boxes, names := shownLabels(r)
		for i := range boxes {
			for j := i + 1; j < len(boxes); j++ {
				assert.True(t, labelBoxes{boxes[i]}.free(boxes[j]), "%v: %q %v covers %q %v", c.size, names[i], boxes[i], names[j], boxes[j])
			}
		}
	}
	assert.Equal(t, badgeBandH(3)+2*tlEasyLane+tlOverlapStrip+tlAxisH+tlLegendH, tl.EasyHeight(),
		"the room the tab asks for counts the rows the badges take when they have it")
}

// The overlap's badge always shows, whole and on no other label: in lanes
// too thin to spare its strip (five clients in a low timeline) it goes in
// the band of the fault badges where that has room.
func TestTimelineOverlapBadgeAlwaysShows(t *testing.T) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	run := clockJumpTimeline()
	five := gcPauseTimeline()
	five.Clients = []string{"client-1", "client-2", "client-3", "client-4", "client-5"}
	for _, c := range []struct {
		name string
		run  sim.Timeline
		size fyne.Size
	}{
		{"clock jump, low", run, fyne.NewSize(1008, 120)},
		{"clock jump, narrow", run, fyne.NewSize(600, 130)},
		{"five thin lanes", five, fyne.NewSize(1008, 140)},
		{"gc pause", gcPauseTimeline(), fyne.NewSize(800, 300)},
	} {
		w.Resize(c.size)
		tl.Resize(c.size)
		tl.SetTimeline(c.run)
		tl.SetCursor(c.run.End)
		r := test.TempWidgetRenderer(t, tl).(*timelineRenderer)
		var badge *canvas.Text
		for _, o := range r.labels.objects() {
			if txt := o.(*canvas.Text); txt.Visible() && strings.HasPrefix(txt.Text, i18n.T("timeline.overlap")) {
				badge = txt
			}
		}
		require.NotNil(t, badge, "%s: the overlap's badge shows", c.name)
		if c.name == "five thin lanes" {
			assert.Zero(t, tl.frame().overlapStripH(), "%s: lanes too thin to spare its strip", c.name)
			assert.Less(t, badge.Position().Y, tl.frame().lanesTop(), "%s: above lanes too thin for it", c.name)
		}
		boxes, names := shownLabels(r)
		for i := range boxes {
			for j := i + 1; j < len(boxes); j++ {
				assert.True(t, labelBoxes{boxes[i]}.free(boxes[j]), "%s: %q %v covers %q %v", c.name, names[i], boxes[i], names[j], boxes[j])
			}
		}
	}
}

// The cursor's line runs under the labels: a badge it crosses keeps its
// colour across the line (pixels as the software painter draws them).
func TestTimelineCursorRunsUnderTheBadges(t *testing.T) {
	tl, r := newTestTimeline(t)
	x := tl.XAt(20 * sec) // client-1's stale write, its badge centred on it
	tl.SetCursor(20 * sec)
	var badge *canvas.Rectangle
	for _, o := range r.badges.objects() {
		if o.Visible() && o.Position().X < x-10 && o.Position().X+o.Size().Width > x+10 && o.Position().Y < tl.frame().lanes()[0].top+tl.frame().lanes()[0].height {
			badge = o.(*canvas.Rectangle)
		}
	}
	require.NotNil(t, badge, "client-1's write badge straddles the cursor")
	img := fyne.CurrentApp().Driver().CanvasForObject(tl).Capture()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(tl)
	scale := float32(img.Bounds().Dx()) / fyne.CurrentApp().Driver().CanvasForObject(tl).Size().Width
	p := pos.Add(fyne.NewPos(r.cursor.Position1.X, badge.Position().Y+2))
	got := color.NRGBAModel.Convert(img.At(int(p.X*scale), int(p.Y*scale))).(color.NRGBA)
	assert.Equal(t, toNRGBA(badge.FillColor), got, "the badge, not the cursor, at the cursor's x")
}

// A run with no fault, no change and no overlap has nothing to label
// above its lanes, so they start under a thin margin instead of an empty
// row: zk-happy-path's five clients in the timeline of a 1024×768 window
// (129 points) get lanes 16 points high, not 12. A run with a fault or an
// overlap keeps its row of badges.
func TestTimelineQuietRunGivesTheBandToTheLanes(t *testing.T) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	size := fyne.NewSize(1008, 129)
	w.Resize(size)
	tl.Resize(size)
	quiet := widgettest.RecordPreset(t, "zk-happy-path").Timeline()
	require.Empty(t, quiet.Faults)
	require.Empty(t, quiet.Overlaps)
	tl.SetTimeline(quiet)
	test.TempWidgetRenderer(t, tl).Refresh()
	assert.Equal(t, float32(tlBareBand), tl.frame().lanesTop())
	for _, g := range tl.frame().lanes() {
		assert.GreaterOrEqual(t, g.height, float32(15.5), "a quiet run's five lanes stay readable")
	}
	tl.SetTimeline(gcPauseTimeline())
	test.TempWidgetRenderer(t, tl).Refresh()
	assert.Equal(t, badgeBandH(1), tl.frame().lanesTop(), "a run with a fault keeps its badges' row")
}

// The timeline follows Fyne's idiom: Refresh takes the theme for the run
// on show and lays out; a resize only draws the lanes again in the new
// size, from the pooled objects.
func TestTimelineResizeLaysOutWithoutRefreshing(t *testing.T) {
	tl, r := newTestTimeline(t)
	tl.SetCursor(12 * sec)
	widgettest.AssertResizeOnlyLaysOut(t, tl, func() int { return r.refreshes }, fyne.NewSize(1300, 420))
	assert.Equal(t, fyne.NewSize(1300, 420), r.drawnSize, "the lanes are drawn for the new size")
}
