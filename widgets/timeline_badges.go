package widgets

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// labelBox is the rectangle a label takes in the lanes.
type labelBox struct{ x, y, w, h float32 }

// labelBoxes are the labels already placed in the lanes.
type labelBoxes []labelBox

// free reports whether b covers none of the placed labels: edges may
// touch, by up to labelTouch, which hides nothing of either's text (a
// 40-point lane's write badge and the overlap's badge at the lanes' foot
// share a pixel row).
func (ls labelBoxes) free(b labelBox) bool {
	const labelTouch = 1.5
	for _, o := range ls {
		if b.x < o.x+o.w-labelTouch && o.x < b.x+b.w-labelTouch && b.y < o.y+o.h-labelTouch && o.y < b.y+b.h-labelTouch {
			return false
		}
	}
	return true
}

// tlOverlapStrip is the height of the strip under the last lane that a
// run with an overlap keeps for the "2 holders" badge: a badge at the
// lanes' foot inside the last lane covered its "key on server" bar
// (etcd-lease-expiry at 1366×768, issue 16). The badge is 17 high.
const tlOverlapStrip = 19

// overlapStripH is the height of the overlaps' strip under the lanes:
// tlOverlapStrip in a run with an overlap where each lane keeps
// tlReadableLane beside it (under the fault badges' rows, which come
// first), else none and the badge goes in the fault badges' band.
func (f tlFrame) overlapStripH() float32 {
	n := float32(max(len(f.tl.Clients), 1))
	if len(f.tl.Overlaps) == 0 || (f.size.Height-f.lanesTop()-tlOverlapStrip-tlAxisH-tlLegendH)/n < tlReadableLane {
		return 0
	}
	return tlOverlapStrip
}

// faultBadgeBoxes are the boxes the fault badges take in the band.
func faultBadgeBoxes(badges []faultBadge) labelBoxes {
	out := make(labelBoxes, 0, len(badges))
	for _, b := range badges {
		out = append(out, labelBox{b.x, faultRowY(b.row), b.w, faultRowH - 2})
	}
	return out
}

// overlapBadgesFit reports whether every overlap's badge finds a free place
// in the overlaps' strip or in the rows rows of the band the fault badges
// take: where one does not, the band takes a row more, of the overlaps'
// badges alone (issue 16: the badge used to go on the first fault badge in
// its way). The lanes' own labels go in the lanes, not in the band.
func (f tlFrame) overlapBadgesFit(badges []faultBadge, rows int) bool {
	taken := faultBadgeBoxes(badges)
	for _, ov := range f.tl.Overlaps {
		_, box, ok := f.overlapBadge(ov, rows, taken)
		if !ok {
			return false
		}
		taken = append(taken, box)
	}
	return true
}

// overlapBadge places the label of a two-holder overlap where it covers
// no lane's bar and no label already placed (taken: the lanes' labels and
// the fault badges): in the overlaps' strip under the lanes (where it has
// room), else in a row
// of the fault badges' band; at the overlap's start, else just after the
// label in its way; in full ("2 holders · 5.005 s") where that fits in the
// overlap, else in short ("2 holders") before it moves on. Where none of
// those places is free it goes in the strip or the band after the labels
// in its way, and failing that (ok false) in the band's last row at the
// overlap's start, which draw makes a row of the overlaps' badges alone
// (overlapBadgesFit): the badge always shows, never on a bar nor on a
// fault badge.
func (f tlFrame) overlapBadge(ov sim.Interval, rows int, taken labelBoxes) (label string, box labelBox, ok bool) {
	a, b := f.xAt(ov.From), f.xAt(ov.To)
	_, x1 := f.plotSpan()
	right := x1 + tlRightPad
	long := i18n.F(LeaderWords("timeline.overlapFor", f.tl.Election), "t", FormatTime(ov.To-ov.From))
	short := i18n.T(LeaderWords("timeline.overlap", f.tl.Election))
	texts := []string{short}
	if TextWidth(long, 11, true)+8 <= b-a {
		texts = []string{long, short}
	}
	var ys []float32
	if f.overlapStripH() > 0 {
		ys = append(ys, f.lanesBottom()-tlOverlapStrip)
	}
	for row := range rows {
		ys = append(ys, faultRowY(row))
	}
	// xs are the places in the row at y: the overlap's start, then after
	// each label in the way; within the overlap unless anywhere is allowed.
	xs := func(y float32, anywhere bool) []float32 {
		out := []float32{a + 2}
		for _, o := range taken {
			if end := o.x + o.w + 2; o.y < y+17 && y < o.y+o.h && end > a && (anywhere || end < b) {
				out = append(out, end)
			}
		}
		slices.Sort(out)
		return out
	}
	for _, y := range ys {
		for _, text := range texts {
			w := TextWidth(text, 11, true) + 8
			for _, x := range xs(y, false) {
				if box := (labelBox{x, y, w, 17}); x+w <= right && taken.free(box) {
					return text, box, true
				}
			}
		}
	}
	w := TextWidth(short, 11, true) + 8
	for _, y := range ys {
		for _, x := range xs(y, true) {
			if box := (labelBox{x, y, w, 17}); x+w <= right && taken.free(box) {
				return short, box, true
			}
		}
	}
	return short, labelBox{min(a+2, right-w), ys[len(ys)-1], w, 17}, false
}

// firstEnding is the row of the band whose badges end first (ends: the
// right edge of each row's last badge).
func firstEnding(ends []float32) int {
	row := 0
	for k := range ends {
		if ends[k] < ends[row] {
			row = k
		}
	}
	return row
}

// crowdedBadge places the badge of fs where the rows are full at its
// instant: after the row that ends first, rather than on another badge,
// in full words (text) or as its glyph where only that fits before the
// right edge (width). Where neither does, fs join hidden, for moreBadge.
func crowdedBadge(badges []faultBadge, ends []float32, fs []sim.FaultMark, text, glyph string, width float32, hidden []sim.FaultMark) ([]faultBadge, []sim.FaultMark) {
	row := firstEnding(ends)
	for _, s := range []string{text, glyph} {
		if w := TextWidth(s, 11, true) + 8; ends[row]+4+w <= width {
			badges = append(badges, faultBadge{x: ends[row] + 4, w: w, text: s, row: row, faults: fs})
			ends[row] += 4 + w
			return badges, hidden
		}
	}
	return badges, append(hidden, fs...)
}

// moreBadge adds to badges the "+N" badge of the hidden faults (those
// crowdedBadge found no room for) at the right edge of the band: in the
// row that ends first, whose last badges give way to it where it has no
// room there (they join the hidden ones). Every fault is so named by a
// badge on screen or counted on the "+N" one, whose tip names it (issue
// 16: a partition every second pushed the last badges off the edge).
func moreBadge(badges []faultBadge, ends []float32, hidden []sim.FaultMark, width float32) []faultBadge {
	if len(hidden) == 0 {
		return badges
	}
	row := firstEnding(ends)
	n := len(hidden)
	var x, w float32
	for { // a badge that gives way adds to N, which may widen the badge
		w = TextWidth("+"+strconv.Itoa(n), 11, true) + 8
		x = max(width-w, 0)
		given := 0
		for _, b := range badges {
			if b.row == row && !b.more && b.x+b.w+3 > x {
				given += len(b.faults)
			}
		}
		if len(hidden)+given == n {
			break
		}
		n = len(hidden) + given
	}
	badges = slices.DeleteFunc(badges, func(b faultBadge) bool {
		if b.row == row && b.x+b.w+3 > x {
			hidden = append(hidden, b.faults...)
			return true
		}
		return false
	})
	slices.SortStableFunc(hidden, func(a, b sim.FaultMark) int { return cmp.Compare(a.At, b.At) })
	return append(badges, faultBadge{x: x, w: w, text: "+" + strconv.Itoa(len(hidden)), row: row, faults: hidden, more: true})
}

// tipLines is the most faults a "+N" badge's tip names, one a line.
const tipLines = 12

// moreTip is the tip of a "+N" badge: the faults it stands for, one a
// line with its instant, at most tipLines of them.
func moreTip(b faultBadge) string {
	lines := []string{i18n.F("timeline.moreFaults", "n", strconv.Itoa(len(b.faults)))}
	for i, f := range b.faults {
		if i == tipLines {
			lines = append(lines, "…")
			break
		}
		lines = append(lines, FormatTime(f.At)+"  "+faultGlyph(f.Kind)+" "+faultLabel(f))
	}
	return strings.Join(lines, "\n")
}

// badgeTip shows the tip of the "+N" fault badge under the mouse.
type badgeTip struct {
	layer *TipLayer
	text  string // the tip asked for, "" when none
}

// SetTipLayer is where the timeline's tips show (the "+N" badge's list of
// the faults it could not draw).
func (t *Timeline) SetTipLayer(layer *TipLayer) { t.tip.layer = layer }

// tipAt is the tip of the badge at p, "" where there is none.
func (t *Timeline) tipAt(p fyne.Position) string {
	f := t.frame()
	badges, _ := f.faultBadges(f.badgeRows())
	for _, b := range badges {
		if y := faultRowY(b.row); b.more && p.X >= b.x && p.X <= b.x+b.w && p.Y >= y && p.Y <= y+faultRowH {
			return moreTip(b)
		}
	}
	return ""
}

// MouseIn implements desktop.Hoverable.
func (t *Timeline) MouseIn(e *desktop.MouseEvent) { t.MouseMoved(e) }

// MouseMoved implements desktop.Hoverable: the tip of a "+N" badge shows
// while the mouse rests on it.
func (t *Timeline) MouseMoved(e *desktop.MouseEvent) {
	if t.tip.layer == nil {
		return
	}
	text := t.tipAt(e.Position)
	if text == t.tip.text {
		return
	}
	t.tip.text = text
	if text == "" {
		t.tip.layer.HideTip()
		return
	}
	t.tip.layer.ShowAfter(text, e.AbsolutePosition)
}

// MouseOut implements desktop.Hoverable.
func (t *Timeline) MouseOut() {
	if t.tip.layer != nil && t.tip.text != "" {
		t.tip.layer.HideTip()
	}
	t.tip.text = ""
}
