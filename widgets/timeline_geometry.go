package widgets

import (
	"image/color"
	"slices"
	"strconv"
	"time"

	"fyne.io/fyne/v2"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// tlFrame is what the timeline's geometry is a function of: the run, the
// size it is laid out in, and where the lanes start (top: below the fault
// badges' rows; 0 until a layout has counted them, see lanesTop).
type tlFrame struct {
	tl   sim.Timeline
	size fyne.Size
	top  float32
	// fold is the summary band of a run with more clients than lanes
	// fit (tl is then its busiest clients alone, foldedTimeline); nil
	// for a run whose every client has its lane.
	fold *tlFold
}

// frame is the timeline's run in its size, as last laid out: folded
// (foldOf) when its clients do not fit, worked out again only for a new
// run or size.
func (t *Timeline) frame() tlFrame {
	size := t.Size()
	if c := &t.folded; !c.set || c.version != t.version || c.size != size {
		c.set, c.version, c.size, c.tl = true, t.version, size, t.tl
		c.fold = foldOf(t.tl, &t.crowd, size)
		if c.fold != nil {
			c.tl = foldedTimeline(t.tl, t.crowd.busiest[:c.fold.shown])
		}
	}
	return tlFrame{tl: t.folded.tl, size: size, top: t.top, fold: t.folded.fold}
}

// span is the x range of an interval: its start and width, at least a
// point wide.
func (f tlFrame) span(iv sim.Interval) (x, w float32) {
	a, b := f.xAt(iv.From), f.xAt(iv.To)
	return a, max(b-a, 1)
}

// tlPicture is the geometry of the timeline in a frame: where the lanes
// start and end, the lanes, the raster layer's shapes in painting order,
// the lanes' names and row captions, and the labels drawn over them.
type tlPicture struct {
	top, bottom float32
	lanes       []laneGeometry
	ops         []paintOp
	names       []TextSpot // the clients' names, sized (the laneText pool)
	captions    []TextSpot // "key on server" beside the rows (the subText pool)
	marks       []tlMark   // the labels, in the labels pool's order
	laneOf      map[string]int
}

// tlMark is one label over the lanes or in the band above them: its words
// (the labels pool's text) on a badge when it has one (the badges pool's
// rectangle); a timed one tells of instant at and is hidden while the
// cursor is before it (timelineRenderer.timed).
type tlMark struct {
	badge RectSpot
	text  TextSpot
	at    time.Duration
	timed bool
}

// rect adds a filled rectangle to the raster layer.
func (p *tlPicture) rect(x, y, w, h float32, c color.NRGBA) {
	p.ops = append(p.ops, paintOp{x: x, y: y, w: w, h: h, c: c})
}

// vline adds a vertical line of the given width to the raster layer.
func (p *tlPicture) vline(x, y0, y1 float32, c color.NRGBA, width float32) {
	p.rect(x-width/2, y0, width, y1-y0, c)
}

// label adds the white words s at (x, y), with no badge.
func (p *tlPicture) label(s string, x, y float32, at time.Duration, timed bool) {
	p.marks = append(p.marks, tlMark{text: TextAt(s, fyne.NewPos(x, y), color.White), at: at, timed: timed})
}

// badge adds the white words s on a badge of colour c in box, the words
// 4 points in and 1 down.
func (p *tlPicture) badge(s string, box labelBox, c color.NRGBA, at time.Duration, timed bool) {
	p.marks = append(p.marks, tlMark{
		badge: RectAt(fyne.NewPos(box.x, box.y), fyne.NewSize(box.w, box.h), c),
		text:  TextAt(s, fyne.NewPos(box.x+4, box.y+1), color.White), at: at, timed: timed})
}

// picture lays the run out in the frame (the frame's top is counted
// here, from the fault badges' rows), the lanes' backgrounds width wide,
// the names in fg and the row captions in muted; ops is the buffer the
// raster's shapes are appended to. Its parts go in the order they are
// painted: lanes, bars, pauses, grants, overlaps, faults, writes. The
// writes' badges are laid out first, as they say the outcome; every other
// label in the lanes goes where none of them is, or is left out, so no
// label hides another.
func (f tlFrame) picture(width float32, fg, muted color.Color, ops []paintOp) tlPicture {
	badges, rows := f.faultBadges(f.badgeRows())
	f.top = f.bandH(rows)
	if !f.overlapBadgesFit(badges, rows) {
		rows++ // a row of their own rather than on a fault badge
		f.top = f.bandH(rows)
	}
	p := tlPicture{top: f.top, lanes: f.lanes(), bottom: f.lanesBottom(), ops: ops, laneOf: map[string]int{}}
	for i, c := range f.tl.Clients {
		p.laneOf[c] = i
	}
	p.summaryBand(f, width, fg, muted)
	p.laneRows(f, width, fg, muted)
	p.bars(f)
	writes := f.writeBadges(p.lanes)
	var taken labelBoxes
	for _, wb := range writes {
		if wb.text != "" {
			taken = append(taken, wb.box)
		}
	}
	taken = p.pauses(f, taken)
	taken = p.grants(f, taken)
	// The overlaps' badges keep clear of the fault badges above the lanes too.
	p.overlaps(f, rows, append(taken, faultBadgeBoxes(badges)...))
	taken = p.primaries(f, taken)
	p.faults(f, badges)
	p.writes(writes)
	return p
}

// laneRows adds every other lane's background, width wide, and each
// lane's name and, in a lane tall enough, its "key on server" caption.
func (p *tlPicture) laneRows(f tlFrame, width float32, fg, muted color.Color) {
	for i, g := range p.lanes {
		if i%2 == 0 {
			p.rect(0, g.top, width, g.height, Fade(ColorIdle, 0.07))
		}
		// A thin lane (many clients in a short window) still names its
		// client, in a smaller type.
		if g.height >= 8 {
			size := min(12.5, g.height-1)
			y := g.top + (g.height-size*1.4)/2
			if g.height >= 36 { // beside its belief row, above "key on server"
				y = g.beliefY + g.beliefH/2 - 9
			}
			p.names = append(p.names, TextAt(f.tl.Clients[i], fyne.NewPos(8, y), fg).Sized(size))
		}
		if g.height >= 36 {
			p.captions = append(p.captions, TextAt(i18n.T("timeline.keyOnServer"), fyne.NewPos(8, g.ownedY+g.ownedH/2-7), muted))
		}
	}
}

// bars adds each lane's bars: waiting (thin), holding and, beneath, the
// server holding its key.
func (p *tlPicture) bars(f tlFrame) {
	tl := f.tl
	for i, g := range p.lanes {
		if i < len(tl.Waiting) {
			for _, s := range f.pixelSpans(tl.Waiting[i]) {
				p.rect(s[0], g.beliefY+g.beliefH*0.3, s[1]-s[0], g.beliefH*0.4, Fade(ColorWaiting, 0.85))
			}
		}
		if i < len(tl.Holding) {
			var reads []sim.Interval
			if i < len(tl.Reading) {
				reads = tl.Reading[i]
			}
			for _, s := range f.pixelSpans(exclusiveHolds(tl.Holding[i], reads)) {
				p.rect(s[0], g.beliefY, s[1]-s[0], g.beliefH, ColorHolding)
			}
			for _, s := range f.pixelSpans(reads) { // a read hold: a light fill between two edges
				p.rect(s[0], g.beliefY, s[1]-s[0], g.beliefH, ColorReading)
				p.rect(s[0], g.beliefY, s[1]-s[0], 2, ColorHolding)
				p.rect(s[0], g.beliefY+g.beliefH-2, s[1]-s[0], 2, ColorHolding)
			}
		}
		if i < len(tl.Owned) {
			for _, s := range f.pixelSpans(tl.Owned[i]) {
				p.rect(s[0], g.ownedY, s[1]-s[0], g.ownedH, ColorOwned)
			}
		}
	}
}

// exclusiveHolds is holds without those listed in reads (the read holds
// of a read–write lock, Timeline.Reading, which are among them).
func exclusiveHolds(holds, reads []sim.Interval) []sim.Interval {
	if len(reads) == 0 {
		return holds
	}
	out := make([]sim.Interval, 0, len(holds))
	for _, h := range holds {
		if !slices.Contains(reads, h) {
			out = append(out, h)
		}
	}
	return out
}

// pauses grey a client's lane over its bars for their length: what it
// believes is frozen; "paused" is written on it where it has room clear
// of the labels taken. It returns taken with its labels added.
func (p *tlPicture) pauses(f tlFrame, taken labelBoxes) labelBoxes {
	for _, fm := range f.tl.Faults {
		li, ok := p.laneOf[fm.Target]
		if fm.Kind != sim.FaultPause || !ok {
			continue
		}
		d, err := time.ParseDuration(fm.Note)
		if err != nil {
			continue
		}
		g := p.lanes[li]
		a, w := f.span(sim.Interval{From: fm.At, To: min(fm.At+d, f.tl.End)})
		p.rect(a, g.beliefY-2, w, g.beliefH+4, Fade(ColorIdle, 0.55))
		label := i18n.T("timeline.paused")
		box := labelBox{a + 6, g.beliefY + g.beliefH/2 - 8, TextWidth(label, 11, true), 16}
		if g.beliefH >= 14 && w > 60 && taken.free(box) {
			p.label(label, box.x, box.y, fm.At, true)
			taken = append(taken, box)
		}
	}
	return taken
}

// grants add a white tick where a holding bar starts, with the token
// where there is room for it (clear of the labels taken, before the bar
// ends). It returns taken with its labels added.
func (p *tlPicture) grants(f tlFrame, taken labelBoxes) labelBoxes {
	tickEnd := make([]float32, len(p.lanes))
	labelEnd := make([]float32, len(p.lanes))
	for _, gr := range f.tl.Grants {
		li := int(gr.Client)
		if li < 0 || li >= len(p.lanes) {
			continue
		}
		g := p.lanes[li]
		x := f.xAt(gr.At)
		if x < tickEnd[li] {
			continue
		}
		p.vline(x+1, g.beliefY, g.beliefY+g.beliefH, color.NRGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0xFF}, 2)
		tickEnd[li] = x + 4
		label := "#" + strconv.FormatInt(gr.Token, 10)
		box := labelBox{x + 5, g.beliefY + g.beliefH/2 - 8, TextWidth(label, 11, true), 16}
		if gr.Token > 0 && g.beliefH >= 12 && x+5 >= labelEnd[li] && f.roomAfter(li, gr.At, box.w+8) && taken.free(box) {
			p.label(label, box.x, box.y, gr.At, true)
			labelEnd[li] = x + 5 + box.w + 4
			taken = append(taken, box)
		}
	}
	return taken
}

// overlaps are hatched across every lane, bordered, and labelled where
// overlapBadge finds room clear of the labels taken, in the rows rows of
// the band.
func (p *tlPicture) overlaps(f tlFrame, rows int, taken labelBoxes) {
	top, bottom := p.top, p.bottom
	for _, ov := range f.tl.Overlaps {
		a, w := f.span(ov)
		p.rect(a, top, w, bottom-top, Fade(ColorViolation, 0.20))
		p.ops = append(p.ops, paintOp{hatch: true, x: a, y: top, w: w, h: bottom - top, c: Fade(ColorViolation, 0.6)})
		p.vline(a, top, bottom, ColorViolation, 2)
		p.vline(a+w, top, bottom, ColorViolation, 2)
		label, box, _ := f.overlapBadge(ov, rows, taken)
		p.badge(label, box, ColorViolation, ov.From, true)
		taken = append(taken, box)
	}
}

// tlPrimaryH is the height of the band that marks two primaries.
const tlPrimaryH = 5

// primaries are the stretches in which two or more servers acted as the
// primary at once (sim.Timeline.Primaries): a band along the top of the
// lanes, hatched, labelled where its words fit clear of the labels taken.
// It returns taken with its labels added.
func (p *tlPicture) primaries(f tlFrame, taken labelBoxes) labelBoxes {
	for _, iv := range f.tl.Primaries {
		a, w := f.span(iv)
		p.rect(a, p.top, w, tlPrimaryH, ColorCaution)
		p.ops = append(p.ops, paintOp{hatch: true, x: a, y: p.top, w: w, h: tlPrimaryH, c: Fade(ColorViolation, 0.6)})
		label := i18n.T("timeline.primaries")
		box := labelBox{a + 4, p.top + tlPrimaryH + 1, TextWidth(label, 11, true) + 8, 16}
		if w > box.w && taken.free(box) {
			p.badge(label, box, Fade(ColorCaution, 0.9), iv.From, true)
			taken = append(taken, box)
		}
	}
	return taken
}

// faults and changes: a line down the lanes hit (all of them for one
// that hits no client; down the summary band alone for a client folded
// into it), a fainter one up to the band, and the badges in the band
// (faultBadges: one per instant and kind, in rows so none covers
// another).
func (p *tlPicture) faults(f tlFrame, badges []faultBadge) {
	for _, fm := range f.tl.Faults {
		x := f.xAt(fm.At)
		from, to := p.top, p.bottom
		if li, ok := p.laneOf[fm.Target]; ok {
			from, to = p.lanes[li].top, p.lanes[li].top+p.lanes[li].height
		} else if f.fold != nil && f.fold.folded[fm.Target] {
			to = p.top + f.fold.h
		}
		p.vline(x, from, to, ColorFault, 2)
		p.vline(x, faultRowY(0)+faultRowH, from, Fade(ColorFault, 0.5), 1)
	}
	for _, b := range badges {
		p.badge(b.text, labelBox{b.x, faultRowY(b.row), b.w, faultRowH - 2}, ColorFault, 0, false)
	}
}

// writes: ✓ accepted, × rejected; stale ones say so, and where writes
// crowd a stale one is a tick down its lane (writeBadges).
func (p *tlPicture) writes(writes []writeBadge) {
	for _, wb := range writes {
		if wb.text == "" {
			g := p.lanes[wb.lane]
			p.vline(wb.x, g.top+2, g.top+g.height-2, wb.c, 2)
			continue
		}
		p.badge(wb.text, wb.box, wb.c, wb.at, true)
	}
}
