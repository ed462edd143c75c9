package widgets

import (
	"cmp"
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

var (
	_ fyne.Tappable  = (*Timeline)(nil)
	_ fyne.Draggable = (*Timeline)(nil)
)

// Timeline draws a whole run as swimlanes, one per client: when it waited,
// when it believed it held the lock and, beneath, when a server held the
// key for it; overlaps of two holders hatched across every lane, faults,
// grants and writes marked, and a cursor at the instant on show. The part
// after the cursor is the future: its bars are dimmed to a ghost and its
// labels (tokens, writes, overlaps, pauses) are hidden until the cursor
// reaches them, so the lanes never tell what the nodes and the verdict do
// not know yet. Faults stay labelled: they are the scenario's plan. Tapping or dragging moves the cursor through
// OnSeek.
type Timeline struct {
	widget.BaseWidget

	// OnSeek is called with the instant under a tap or drag.
	OnSeek func(time.Duration)

	tl      sim.Timeline
	cursor  time.Duration
	version int
	top     float32 // where the lanes start: below the rows of fault badges
	tip     badgeTip
	// crowd is the run's busiest clients and counts, for folding it
	// (crowdOf); folded the frame's run as last folded (frame).
	crowd  tlCrowd
	folded struct {
		set     bool
		version int
		size    fyne.Size
		tl      sim.Timeline
		fold    *tlFold
	}
}

// NewTimeline returns an empty timeline; SetTimeline fills it.
func NewTimeline() *Timeline {
	t := &Timeline{}
	t.ExtendBaseWidget(t)
	return t
}

// SetTimeline shows a recorded run.
func (t *Timeline) SetTimeline(tl sim.Timeline) {
	t.tl = tl
	t.top = 0 // counted again at the next layout
	t.crowd = crowdOf(tl)
	t.version++
	t.Refresh()
}

// SetCursor moves the cursor; only the cursor and the dimmed future move.
func (t *Timeline) SetCursor(at time.Duration) {
	if at == t.cursor {
		return
	}
	t.cursor = at
	t.Refresh()
}

// Cursor is the instant the cursor marks.
func (t *Timeline) Cursor() time.Duration { return t.cursor }

// Layout constants of the timeline.
const (
	tlGutter   = 104
	tlRightPad = 18
	tlTopRow   = 26
	tlAxisH    = 24
	tlLegendH  = 20
	// tlMaxLane is the tallest a lane grows: two lanes fill the
	// timeline of a 2560×1440 screen (at 84 a sixth of it stayed empty
	// under them); one lane stops short of a bar taller than it is long.
	tlMaxLane = 180
)

// tlEasyLane is a lane tall enough to read at a glance: its client's name
// and the "key on server" row beside its rows (see draw).
const tlEasyLane = 40

// EasyHeight is the height at which each lane is tlEasyLane tall under
// the fault badges' rows, with the axis and the legend: what the tab gives
// the timeline when the panels above it can spare the room.
func (t *Timeline) EasyHeight() float32 { return t.frame().easyHeight() }

// easyHeight is EasyHeight in the frame.
func (f tlFrame) easyHeight() float32 {
	_, rows := f.faultBadges(faultRowsMax)
	lanes := min(len(f.tl.Clients), tlEasyLanesMax)
	if f.fold != nil {
		lanes = min(f.fold.clients, tlEasyLanesMax)
	}
	return f.bandH(rows) + float32(lanes)*tlEasyLane + f.overlapStripH() + tlAxisH + tlLegendH
}

// tlEasyLanesMax is the most lanes EasyHeight asks room for: a crowd's
// timeline folds (foldOf) rather than ask for 200 lanes.
const tlEasyLanesMax = 12

// tlReadableLane is the least height a lane is given room for by folding
// the fault badges into fewer rows: its client's name and its bars stay
// legible (Redlock's clock jump at 1024×768 drew three rows of badges
// over lanes 9 points high).
const tlReadableLane = 22

// badgeBandH is the height of the band of fault badges above the lanes
// when they take rows rows.
func badgeBandH(rows int) float32 { return max(faultRowY(rows)+tlTopRow-faultRowY(1), tlTopRow) }

// tlBareBand is the band above the lanes of a run with no fault, change or
// overlap: nothing goes there (zk-happy-path's lanes gave 20 points to it).
const tlBareBand = 6

// bandH is the band above the lanes when the fault badges take rows rows:
// tlBareBand when nothing can go in it (an overlap's badge may), else badgeBandH.
func (f tlFrame) bandH(rows int) float32 {
	if len(f.tl.Faults) == 0 && len(f.tl.Overlaps) == 0 {
		return tlBareBand
	}
	return badgeBandH(rows)
}

// badgeRows is how many rows the fault badges may take at the timeline's
// height: as many as faultRowsMax while each lane keeps tlReadableLane
// beneath them, at least one.
func (f tlFrame) badgeRows() int {
	n := float32(max(len(f.tl.Clients), 1))
	for rows := faultRowsMax; rows > 1; rows-- {
		if (f.size.Height-f.bandH(rows)-tlAxisH-tlLegendH)/n >= tlReadableLane {
			return rows
		}
	}
	return 1
}

// plotSpan is the x range the run's time maps onto.
func (f tlFrame) plotSpan() (x0, x1 float32) {
	return tlGutter, max(f.size.Width-tlRightPad, tlGutter+1)
}

// XAt is the x coordinate of instant at.
func (t *Timeline) XAt(at time.Duration) float32 { return t.frame().xAt(at) }

// xAt is the x coordinate of instant at.
func (f tlFrame) xAt(at time.Duration) float32 {
	x0, x1 := f.plotSpan()
	if f.tl.End <= 0 {
		return x0
	}
	share := float64(at) / float64(f.tl.End)
	return x0 + float32(share)*(x1-x0)
}

// TimeAt is the instant under x coordinate x, clamped to the run.
func (t *Timeline) TimeAt(x float32) time.Duration { return t.frame().timeAt(x) }

// timeAt is the instant under x coordinate x, clamped to the run.
func (f tlFrame) timeAt(x float32) time.Duration {
	x0, x1 := f.plotSpan()
	share := float64((x - x0) / (x1 - x0))
	share = math.Max(0, math.Min(1, share))
	return time.Duration(share * float64(f.tl.End)).Round(time.Microsecond)
}

// Tapped implements fyne.Tappable: seek to the tapped instant.
func (t *Timeline) Tapped(ev *fyne.PointEvent) { t.seek(ev.Position.X) }

// Dragged implements fyne.Draggable: scrub.
func (t *Timeline) Dragged(ev *fyne.DragEvent) { t.seek(ev.Position.X) }

// DragEnd implements fyne.Draggable.
func (t *Timeline) DragEnd() {}

func (t *Timeline) seek(x float32) {
	if t.OnSeek != nil && t.tl.End > 0 {
		t.OnSeek(t.TimeAt(x))
	}
}

// laneGeometry is where lane i's rows are: the belief row (waiting and
// holding) and the server-ownership row beneath it.
type laneGeometry struct {
	top, height      float32
	beliefY, beliefH float32
	ownedY, ownedH   float32
}

// lanes are the clients' lanes, one under the other from lanesTop: each
// as tall as the frame allows above the axis and the legend, at most
// tlMaxLane.
func (f tlFrame) lanes() []laneGeometry {
	n := len(f.tl.Clients)
	out := make([]laneGeometry, n)
	if n == 0 {
		return out
	}
	avail := f.size.Height - f.lanesTop() - f.foldH() - f.overlapStripH() - tlAxisH - tlLegendH
	h := min(avail/float32(n), tlMaxLane)
	for i := range out {
		top := f.lanesTop() + f.foldH() + float32(i)*h
		g := laneGeometry{top: top, height: h}
		g.beliefY, g.beliefH = top+h*0.12, h*0.44
		g.ownedY, g.ownedH = top+h*0.62, h*0.22
		out[i] = g
	}
	return out
}

// LaneHeight is the height each client's lane is drawn at.
func (t *Timeline) LaneHeight() float32 { return t.frame().laneHeight() }

// laneHeight is the height each client's lane is drawn at in the frame.
func (f tlFrame) laneHeight() float32 {
	return (f.lanesBottom() - f.overlapStripH() - f.lanesTop() - f.foldH()) / float32(max(len(f.tl.Clients), 1))
}

// lanesTop is the y where the first lane starts, below the fault badges'
// rows (one row until a layout has counted them).
func (f tlFrame) lanesTop() float32 {
	return cmp.Or(f.top, f.bandH(1))
}

// lanesBottom is the y where the lanes end: under the last lane's bars
// and the overlaps' strip (overlapStripH).
func (f tlFrame) lanesBottom() float32 {
	ls := f.lanes()
	if len(ls) == 0 {
		return f.lanesTop() + f.foldH()
	}
	l := ls[len(ls)-1]
	return l.top + l.height + f.overlapStripH()
}

// CreateRenderer implements fyne.Widget.
func (t *Timeline) CreateRenderer() fyne.WidgetRenderer {
	r := &timelineRenderer{t: t,
		laneText:  NewTextPool(12.5, true),
		subText:   NewTextPool(10.5, false),
		badges:    NewRectPool(),
		labels:    NewTextPool(11, true),
		axisLines: NewLinePool(),
		axisText:  NewTextPool(11, false),
		legendBox: NewRectPool(),
		legendTxt: NewTextPool(11, false),
		dim:       &canvas.Rectangle{},
		cursor:    &canvas.Line{},
		cursorBg:  &canvas.Rectangle{CornerRadius: 3},
		cursorTxt: NewText(11, true),
	}
	r.bars = canvas.NewRaster(r.paintBars)
	r.pools = Pools{r.laneText, r.subText, r.badges, r.labels, r.axisLines, r.axisText, r.legendBox, r.legendTxt}
	r.Refresh()
	return r
}

type timelineRenderer struct {
	t *Timeline

	// bars is one raster holding every lane, bar, band, hatch and tick:
	// a long run has thousands of them, and as one texture they cost the
	// same to paint each frame as a short run's handful.
	bars *canvas.Raster
	ops  []paintOp

	badges, legendBox                   *Pool[*canvas.Rectangle]
	laneText, subText, labels, axisText *Pool[*canvas.Text]
	legendTxt                           *Pool[*canvas.Text]
	axisLines                           *Pool[*canvas.Line]
	pools                               Pools
	dim, cursorBg                       *canvas.Rectangle
	cursor                              *canvas.Line
	cursorTxt                           *canvas.Text
	objects                             []fyne.CanvasObject
	drawnVersion                        int
	drawnSize                           fyne.Size
	drawnTheme                          color.Color
	// timed are the labels of things that happen at an instant, in the
	// order of their instants: hidden while the cursor is before it.
	timed []timedLabel
	// labelsAt is the cursor the timed labels were last shown or hidden
	// for (valid while labelsSet), so a cursor move touches only the labels
	// it passes.
	labelsAt  time.Duration
	labelsSet bool
	// redraws counts the times the lanes were drawn, so a test can tell a
	// cursor move that rebuilt them; refreshes counts Refresh's calls, so
	// a test can tell a resize goes without.
	redraws, refreshes int
	// The theme's colours, taken by Refresh.
	fg, muted color.Color
	bg        color.NRGBA
}

// timedLabel is a label (its text and badge) and the instant it tells of.
type timedLabel struct {
	at   time.Duration
	objs []fyne.CanvasObject
}

// futureDim is how much of the background covers the lanes right of the
// cursor: the future is a ghost, not a spoiler.
const futureDim = 0.8

// when ties the objects just placed to instant at (see timed).
func (r *timelineRenderer) when(at time.Duration, objs ...fyne.CanvasObject) {
	r.timed = append(r.timed, timedLabel{at: at, objs: objs})
}

func (r *timelineRenderer) Destroy() {}

func (r *timelineRenderer) MinSize() fyne.Size { return fyne.NewSize(400, 120) }

func (r *timelineRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Refresh takes the theme's colours for the run on show, then lays it
// out.
func (r *timelineRenderer) Refresh() {
	t := r.t
	r.refreshes++
	th := t.Theme()
	r.fg, r.muted = ThemeColor(th, theme.ColorNameForeground), ThemeColor(th, theme.ColorNamePlaceHolder)
	r.bg = toNRGBA(ThemeColor(th, theme.ColorNameBackground))
	r.Layout(t.Size())
}

// Layout draws the lanes again only when the run, the size or the theme
// changed since they were drawn; a cursor move only moves the cursor and
// the dimmed future.
func (r *timelineRenderer) Layout(size fyne.Size) {
	t := r.t
	fg := r.fg
	if r.objects == nil || r.drawnVersion != t.version || r.drawnSize != size || r.drawnTheme != fg {
		r.pools.Reset()
		r.ops = r.ops[:0]
		r.timed = r.timed[:0]
		r.draw(size)
		r.redraws++
		slices.SortStableFunc(r.timed, func(a, b timedLabel) int { return cmp.Compare(a.at, b.at) })
		r.labelsSet = false
		r.bars.Resize(size)
		r.bars.Refresh()
		if objs := r.pools.Finish(); objs != nil || r.objects == nil {
			// The dimmed future covers the bars only: every label on show
			// tells of an instant at or before the cursor (see timed), so
			// one that reaches past the cursor is drawn whole, not half
			// a ghost. The cursor's line runs under the labels, so a badge
			// it crosses stays whole and readable.
			r.objects = append([]fyne.CanvasObject{r.bars, r.dim, r.cursor}, r.pools.All()...)
			r.objects = append(r.objects, r.cursorBg, r.cursorTxt)
			Repaint(t)
		}
		r.drawnVersion, r.drawnSize, r.drawnTheme = t.version, size, fg
	}
	r.drawCursor(size)
}

// drawCursor places the cursor, its time and the dimmed future in size,
// and shows the labels of the instants up to the cursor.
func (r *timelineRenderer) drawCursor(size fyne.Size) {
	t := r.t
	if t.tl.End <= 0 {
		r.dim.Hide()
		r.cursor.Hide()
		r.cursorBg.Hide()
		r.cursorTxt.Hide()
		return
	}
	fg, bg := r.fg, r.bg
	f := t.frame()
	x := f.xAt(t.cursor)
	top, bottom := f.lanesTop(), f.lanesBottom()
	// The future is dimmed to the widget's right edge, over the lanes'
	// backgrounds too, so no strip of them stays bright past the axis.
	PlaceRect(r.dim, fyne.NewPos(x, top), fyne.NewSize(max(size.Width-x, 0), bottom-top), Fade(bg, futureDim))
	// Only the labels of instants between the cursor's last place and
	// this one change; after a redraw, all of them.
	timed := r.timed
	if r.labelsSet {
		lo, hi := min(r.labelsAt, t.cursor), max(r.labelsAt, t.cursor)
		from, _ := slices.BinarySearchFunc(timed, lo+1, func(l timedLabel, at time.Duration) int { return cmp.Compare(l.at, at) })
		to, _ := slices.BinarySearchFunc(timed, hi+1, func(l timedLabel, at time.Duration) int { return cmp.Compare(l.at, at) })
		timed = timed[from:to]
	}
	for _, tl := range timed {
		for _, o := range tl.objs {
			if tl.at <= t.cursor {
				o.Show()
			} else {
				o.Hide()
			}
		}
	}
	r.labelsAt, r.labelsSet = t.cursor, true
	// The cursor's time sits on the axis below the lanes, where it covers
	// a tick label at most and never a fault's badge.
	PlaceLine(r.cursor, fyne.NewPos(x, top-4), fyne.NewPos(x, bottom+5), fg, 2)
	label := FormatTime(t.cursor)
	w := TextWidth(label, r.cursorTxt.TextSize, true) + 10
	lx := min(max(x-w/2, 0), size.Width-w)
	PlaceRect(r.cursorBg, fyne.NewPos(lx, bottom+5), fyne.NewSize(w, 17), fg)
	PlaceText(r.cursorTxt, label, fyne.NewPos(lx+5, bottom+6), bg)
}

// faultGlyph is the sign drawn for each kind of fault, so kinds differ by
// shape and not by colour. Every sign is one the bundled fonts draw
// (app's TestBundledFontCoversTheGlyphs), so none turns into a box on a
// machine with few fonts.
func faultGlyph(kind sim.FaultKind) string {
	switch kind {
	case sim.FaultPause:
		return "‖"
	case sim.FaultCrash:
		return "╳"
	case sim.FaultRestart:
		return "⊕"
	case sim.FaultClockJump:
		return "◑"
	case sim.FaultPartition:
		return "∥"
	case sim.FaultHeal:
		return "⇔"
	case sim.FaultFailover:
		return "⇅"
	case sim.FaultPromote:
		return "↑"
	case sim.FaultDemote:
		return "↓"
	}
	return "!"
}

// draw places the lanes, the fault badges, the axis and the legend of the
// run on show in size, where its picture says.
func (r *timelineRenderer) draw(size fyne.Size) {
	t := r.t
	if t.tl.End <= 0 || len(t.tl.Clients) == 0 {
		return
	}
	f := t.frame()
	p := f.picture(size.Width, r.fg, r.muted, r.ops)
	t.top, r.ops = p.top, p.ops
	for _, s := range p.names {
		s.Place(r.laneText.Next())
	}
	for _, s := range p.captions {
		s.Place(r.subText.Next())
	}
	for _, m := range p.marks {
		var objs []fyne.CanvasObject
		if m.badge.Shown {
			badge := r.badges.Next()
			m.badge.Place(badge)
			objs = append(objs, badge)
		}
		txt := r.labels.Next()
		m.text.Place(txt)
		if m.timed {
			r.when(m.at, append(objs, txt)...)
		}
	}
	x0, x1 := f.plotSpan()
	r.drawAxis(x0, x1, p.bottom, r.fg, r.muted)
	r.drawLegend(p.bottom+tlAxisH, r.fg)
}

// pixelSpans maps intervals to x ranges, merging those less than a pixel
// apart: a long run draws one bar where its stretches blur together, not
// thousands.
func (f tlFrame) pixelSpans(ivs []sim.Interval) [][2]float32 {
	var out [][2]float32
	for _, iv := range ivs {
		a, b := f.xAt(iv.From), f.xAt(iv.To)
		b = max(b, a+1)
		if n := len(out); n > 0 && a <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], b)
			continue
		}
		out = append(out, [2]float32{a, b})
	}
	return out
}

// writeBadge is the mark of one write: a badge (✓ accepted, × refused,
// stale ones said so) centred on the write's instant, or, where writes
// crowd, a tick for a stale write (text "") and nothing for a plain one.
type writeBadge struct {
	at   time.Duration
	lane int
	x    float32 // the write's instant
	box  labelBox
	text string
	c    color.NRGBA
}

// writeBadges lays out the writes' marks, lane by lane, none covering the
// one before it.
func (f tlFrame) writeBadges(lanes []laneGeometry) []writeBadge {
	x0, x1 := f.plotSpan()
	var out []writeBadge
	badgeEnd := make([]float32, len(lanes))
	for _, wr := range f.tl.Writes {
		li := int(wr.Client)
		if li < 0 || li >= len(lanes) {
			continue
		}
		g := lanes[li]
		label, c := i18n.T("timeline.write"), color.NRGBA{R: 0x33, G: 0x33, B: 0x33, A: 0xFF}
		if !wr.Accepted {
			label = i18n.T("timeline.refused")
		}
		if wr.Stale {
			label = i18n.F("timeline.stale", "write", label)
			c = ColorViolation
			if !wr.Accepted {
				c = ColorDone
			}
		}
		if g.beliefH < 10 {
			label = label[:strings.Index(label, " ")]
		}
		lw := TextWidth(label, 11, true) + 8
		x := f.xAt(wr.At)
		lx := min(x-lw/2, x1-lw)
		lx = max(lx, x0)
		if lx < badgeEnd[li] {
			if wr.Stale {
				out = append(out, writeBadge{at: wr.At, lane: li, x: x, c: c})
			}
			continue
		}
		box := labelBox{lx, g.beliefY + g.beliefH/2 - 8.5, lw, 17}
		out = append(out, writeBadge{at: wr.At, lane: li, x: x, box: box, text: label, c: c})
		badgeEnd[li] = lx + lw + 2
	}
	return out
}

// roomAfter reports whether a label w pixels wide fits after instant at
// in lane li before that client's holding bar ends.
func (f tlFrame) roomAfter(li int, at time.Duration, w float32) bool {
	if li >= len(f.tl.Holding) {
		return false
	}
	for _, iv := range f.tl.Holding[li] {
		if iv.From <= at && at <= iv.To {
			return f.xAt(iv.To)-f.xAt(at) >= w
		}
	}
	return false
}

// The fault badges' rows: each faultRowH high, the first faultRowY(0)
// from the top; at most faultRowsMax of them, so the lanes keep their
// room.
const (
	faultRowH    = 19
	faultRowsMax = 3
)

// faultRowY is the top of fault badge row i.
func faultRowY(i int) float32 { return 4 + float32(i)*faultRowH }

// faultBadge is the label of the faults of one kind at one instant, or
// the "+N" badge of those there was no room for (more).
type faultBadge struct {
	x, w   float32 // the badge's left edge and width
	text   string
	row    int
	faults []sim.FaultMark // the faults it names
	more   bool            // the "+N" badge: faults are those not drawn
}

// faultBadges lays out the labels of the run's faults and mid-run
// changes. Faults of one kind at one instant (three masters crashed at
// once) share one badge naming each; every other fault has its own. A
// badge takes the first row in which it covers no other badge, in full
// words if they fit there and as its glyph alone if not; past
// faultRowsMax rows it is offset to the right of the row that ends
// first, as long as it fits before the right edge; those that do not are
// counted on one "+N" badge at the edge (moreBadge), whose tip names them.
// So no badge hides another or is drawn off the edge. The cursor's time is
// written on the axis, below the lanes, so it never covers them either. maxRows (1 to faultRowsMax) is
// how many rows the badges may take; rows is how many they do.
func (f tlFrame) faultBadges(maxRows int) (badges []faultBadge, rows int) {
	faults := f.tl.Faults
	width := f.size.Width
	ends := make([]float32, max(1, min(maxRows, faultRowsMax)))
	for i := range ends {
		ends[i] = -1
	}
	var hidden []sim.FaultMark // no room for their badges: the "+N" badge says them
	for i := 0; i < len(faults); {
		first, fm := i, faults[i]
		words := []string{faultLabel(fm)}
		j := i + 1
		for ; j < len(faults) && faults[j].At == fm.At && faults[j].Kind == fm.Kind; j++ {
			if w := faultLabel(faults[j]); !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
		i = j
		x := f.xAt(fm.At)
		glyph := faultGlyph(fm.Kind)
		placed := false
		for _, text := range []string{glyph + " " + strings.Join(words, ", "), glyph} {
			w := TextWidth(text, 11, true) + 8
			lx := max(min(x-6, width-w), 0)
			for row := range ends {
				if lx > ends[row]+3 {
					badges = append(badges, faultBadge{x: lx, w: w, text: text, row: row, faults: faults[first:j]})
					ends[row] = lx + w
					rows = max(rows, row+1)
					placed = true
					break
				}
			}
			if placed {
				break
			}
		}
		if !placed {
			badges, hidden = crowdedBadge(badges, ends, faults[first:j], glyph+" "+strings.Join(words, ", "), glyph, width, hidden)
			rows = len(ends)
		}
	}
	return moreBadge(badges, ends, hidden, width), max(rows, 1)
}

// faultLabel is the short text beside a fault's glyph.
func faultLabel(f sim.FaultMark) string {
	switch f.Kind {
	case sim.FaultHeal:
		return i18n.T("timeline.healed")
	case sim.FaultPartition:
		return i18n.T("timeline.partition")
	}
	s := strings.TrimSpace(f.Target + " " + f.Note)
	switch f.Kind {
	case sim.FaultFailover:
		s = i18n.F("timeline.failover", "node", f.Target)
	case sim.FaultPromote:
		s = i18n.F("timeline.promote", "node", f.Target)
	case sim.FaultDemote:
		s = i18n.F("timeline.demote", "node", f.Target)
	case sim.FaultClockJump:
		if f.Monotonic {
			s = i18n.F("timeline.monotonicJump", "jump", s)
		}
	}
	return s
}

// paintOp is one filled shape of the raster layer: a rectangle, or the
// 45° hatch of one.
type paintOp struct {
	x, y, w, h float32
	c          color.NRGBA
	hatch      bool
}

// hatchStep is the distance between two hatch stripes, in pixels.
const hatchStep = 9

// paintBars draws the raster layer at the device's pixel size.
func (r *timelineRenderer) paintBars(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	size := r.t.Size()
	if size.Width <= 0 || size.Height <= 0 {
		return img
	}
	sx, sy := float64(w)/float64(size.Width), float64(h)/float64(size.Height)
	for _, op := range r.ops {
		px := image.Rect(int(math.Round(float64(op.x)*sx)), int(math.Round(float64(op.y)*sy)),
			int(math.Round(float64(op.x+op.w)*sx)), int(math.Round(float64(op.y+op.h)*sy)))
		if px.Dx() == 0 && op.w > 0 {
			px.Max.X = px.Min.X + 1
		}
		px = px.Intersect(img.Bounds())
		if px.Empty() {
			continue
		}
		if !op.hatch {
			draw.Draw(img, px, image.NewUniform(op.c), image.Point{}, draw.Over)
			continue
		}
		step := int(math.Round(hatchStep * sx))
		width := max(1, int(math.Round(1.5*sx)))
		src := image.NewUniform(op.c)
		for y := px.Min.Y; y < px.Max.Y; y++ {
			// Stripes run up to the right: x + y constant along one.
			first := px.Min.X - ((px.Min.X+y)%step+step)%step
			for x := first; x < px.Max.X; x += step {
				seg := image.Rect(max(x, px.Min.X), y, min(x+width, px.Max.X), y+1)
				if !seg.Empty() {
					draw.Draw(img, seg, src, image.Point{}, draw.Over)
				}
			}
		}
	}
	return img
}

// TickStep picks the axis step giving ticks at least minGap pixels apart
// over a run of length end drawn width pixels wide: 1-2-5 steps under a
// second, clock-friendly ones (5 s, 15 s, 30 s, 1 min…) above.
func TickStep(end time.Duration, width, minGap float32) time.Duration {
	if end <= 0 || width <= 0 {
		return time.Second
	}
	per := time.Duration(float64(end) / float64(width) * float64(minGap))
	for step := time.Duration(time.Microsecond); step < time.Second; step *= 10 {
		for _, m := range []time.Duration{1, 2, 5} {
			if step*m >= per {
				return step * m
			}
		}
	}
	for _, s := range []time.Duration{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600} {
		if s*time.Second >= per {
			return s * time.Second
		}
	}
	return (per + time.Hour - 1).Truncate(time.Hour)
}

func (r *timelineRenderer) drawAxis(x0, x1, y float32, fg, muted color.Color) {
	t := r.t
	PlaceLine(r.axisLines.Next(), fyne.NewPos(x0, y+2), fyne.NewPos(x1, y+2), muted, 1)
	step := TickStep(t.tl.End, x1-x0, 80)
	for at := time.Duration(0); at <= t.tl.End; at += step {
		x := t.XAt(at)
		PlaceLine(r.axisLines.Next(), fyne.NewPos(x, y+2), fyne.NewPos(x, y+7), muted, 1)
		label := tickLabel(at, step)
		lw := TextWidth(label, 11, false)
		PlaceText(r.axisText.Next(), label, fyne.NewPos(min(x-lw/2, x1+tlRightPad-lw-2), y+7), fg)
	}
}

// tickLabel writes an axis tick with no more digits than the step needs.
func tickLabel(at, step time.Duration) string {
	switch {
	case at == 0:
		return "0 s"
	case step >= time.Minute:
		l := strings.TrimSuffix(at.String(), "0s") // 10m0s → 10m
		if strings.HasSuffix(l, "h0m") {
			l = strings.TrimSuffix(l, "0m") // 1h0m → 1h
		}
		return l
	case step >= time.Second:
		return strconv.FormatFloat(at.Seconds(), 'f', -1, 64) + " s"
	case step >= 100*time.Microsecond:
		return strconv.FormatFloat(sim.Ms(at), 'f', -1, 64) + " ms"
	}
	return strconv.FormatFloat(float64(at)/float64(time.Microsecond), 'f', -1, 64) + " µs"
}

func (r *timelineRenderer) drawLegend(y float32, fg color.Color) {
	items := []struct {
		label string
		c     color.NRGBA
	}{
		{i18n.T(LeaderWords("timeline.legend.waiting", r.t.tl.Election)), ColorWaiting},
		{i18n.T(LeaderWords("timeline.legend.holding", r.t.tl.Election)), ColorHolding},
		{i18n.T("timeline.legend.owned"), ColorOwned},
		{i18n.T(LeaderWords("timeline.legend.overlap", r.t.tl.Election)), ColorViolation},
		{i18n.T("timeline.legend.fault"), ColorFault},
		{i18n.T("timeline.legend.paused"), ColorIdle},
	}
	if slices.ContainsFunc(r.t.tl.Reading, func(ivs []sim.Interval) bool { return len(ivs) > 0 }) { // only a run with read holds
		items = append(items, struct {
			label string
			c     color.NRGBA
		}{i18n.T("timeline.legend.reading"), ColorReading})
	}
	if len(r.t.tl.Primaries) > 0 { // only a run in which two servers acted as primary
		items = append(items, struct {
			label string
			c     color.NRGBA
		}{i18n.T("timeline.legend.primaries"), ColorCaution})
	}
	x := float32(tlGutter)
	for _, it := range items {
		PlaceRect(r.legendBox.Next(), fyne.NewPos(x, y+4), fyne.NewSize(14, 10), it.c)
		tx := r.legendTxt.Next()
		PlaceText(tx, it.label, fyne.NewPos(x+18, y+1), fg)
		x += 18 + tx.MinSize().Width + 18
	}
}
