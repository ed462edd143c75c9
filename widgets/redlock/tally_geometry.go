package redlock

import (
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	redlocksim "github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/redis"
)

// tallyFrame is what the tally's spots are worked out from: the view, the
// snapshot's nodes and instant, the picture's width, its geometry (g),
// the theme's text and caption sizes (at scale 1) and its colours.
type tallyFrame struct {
	view          *redlocksim.View
	nodes         []sim.NodeView
	at            time.Duration
	width         float32
	g             tallyGeometry
	text, caption float32
	c             tallyColors
}

// small is the size of the tally's small print: the caption at the
// frame's scale.
func (f tallyFrame) small() float32 { return f.caption * f.g.grow }

// centred is the spot of s fitted to a column x from its left edge and
// w wide (less tallyColPad) and centred in it, at size, bold or not.
func (f tallyFrame) centred(s string, x, w, y, size float32, bold bool, c color.Color) widgets.TextSpot {
	s = widgets.FitText(s, size, bold, w-tallyColPad*f.g.k)
	tw := widgets.TextWidth(s, size, bold)
	return widgets.TextAt(s, fyne.NewPos(x+(w-tw)/2, y), c)
}

// tallyHeadSpots is where the masters' column heads go: the rows' labels
// and the right column's notes after its first line (the labels pool, in
// order; skipped is the label the first line takes and leaves as it is),
// the first line (the quorum rule, the heads pool), each master's head and
// the rule under them.
type tallyHeadSpots struct {
	labels  []widgets.TextSpot
	skipped int
	quorum  widgets.TextSpot
	masters []tallyMasterSpots
	rule    widgets.LineSpot
}

// tallyMasterSpots is where a master's head goes: its name, clock offset
// (bold when beyond the drift allowed), the key's owner, and its TTL bar
// with the time left on it.
type tallyMasterSpots struct {
	name, skew, owner, left widgets.TextSpot
	skewBold                bool
	barBg, bar              widgets.RectSpot
}

// heads lays out the column heads: the rows' labels, a head per master
// ("A · redis-1" when every one fits, else "A"), the right column's
// quorum rule, mode and drift arithmetic, and the rule under them.
func (f tallyFrame) heads() tallyHeadSpots {
	var s tallyHeadSpots
	view, g, c, k := f.view, f.g, f.c, f.g.k
	rows := []string{i18n.T("redlock.head.master"), i18n.T("redlock.head.offset"), i18n.T("redlock.head.owner"), i18n.T("redlock.head.ttl")}
	ys := []float32{0, tallyHeadPitch * k, 2 * tallyHeadPitch * k, 3 * tallyHeadPitch * k}
	for i, l := range rows {
		s.labels = append(s.labels, widgets.TextAt(l, fyne.NewPos(0, ys[i]+tallyHeadTextY*k), c.muted))
	}
	var drift, ttl time.Duration
	for _, a := range view.Attempts {
		if a.Drift > 0 {
			drift, ttl = a.Drift, a.TTL
		}
	}
	names := true
	for i, m := range view.Masters {
		if m.Node >= 0 && m.Node < len(f.nodes) &&
			widgets.TextWidth(MasterLetter(i)+" · "+f.nodes[m.Node].Name, tallyBoldSize*k, true) > g.colW-tallyColPad*k {
			names = false
		}
	}
	for i := range view.Masters {
		s.masters = append(s.masters, f.master(i, names, drift, ys))
	}

	// The right column: what the heads mean and the quorum rule.
	x := g.colX(len(view.Masters)) + tallyRightGap*k
	mode := i18n.T("redlock.parallel")
	if view.Sequential {
		mode = i18n.T("redlock.sequential")
	}
	notes := []string{i18n.F("redlock.quorum", "q", view.Quorum, "n", len(view.Masters)), mode}
	noteW := f.width - x - tallyRightMargin*k
	if drift > 0 {
		notes = append(notes, driftLines(DriftArithmetic(ttl, drift), f.small(), noteW)...)
	}
	for i, n := range notes {
		if i == 0 {
			s.skipped = len(s.labels)
			s.quorum = widgets.TextAt(widgets.FitText(n, tallyBoldSize*k, true, noteW), fyne.NewPos(x, ys[i]+tallyHeadTextY*k), c.fg).Sized(tallyBoldSize * k)
			continue
		}
		s.labels = append(s.labels, widgets.TextAt(widgets.FitText(n, f.small(), false, noteW), fyne.NewPos(x, ys[i]+tallyHeadTextY*k), c.muted))
	}
	s.rule = widgets.LineAt(fyne.NewPos(0, tallyMastersH*k-tallyRuleRise*k), fyne.NewPos(f.width, tallyMastersH*k-tallyRuleRise*k), c.track, k)
	return s
}

// master lays out master i's head in its column at the heads' lines ys:
// its letter (and node's name with names), its clock offset against the
// drift allowed, and the key it holds for a client with its TTL by its
// own clock.
func (f tallyFrame) master(i int, names bool, drift time.Duration, ys []float32) tallyMasterSpots {
	var s tallyMasterSpots
	g, c, k, small := f.g, f.c, f.g.k, f.small()
	m := f.view.Masters[i]
	var node sim.NodeView
	if m.Node >= 0 && m.Node < len(f.nodes) {
		node = f.nodes[m.Node]
	}
	x := g.colX(i)
	name := MasterLetter(i)
	if names {
		name += " · " + node.Name
	}
	s.name = f.centred(name, x, g.colW, ys[0], tallyBoldSize*k, true, c.fg)

	skew, beyond := SkewLabel(node.Skew, drift)
	s.skewBold = beyond
	skewCol := c.muted
	switch {
	case beyond:
		skewCol = widgets.Readable(widgets.ColorViolation, c.th)
		word := i18n.T("redlock.ahead")
		if node.Skew < 0 {
			word = i18n.T("redlock.behind")
		}
		if widgets.TextWidth(skew+word, small, true) <= g.colW-tallyColPad*k {
			skew += word
		}
	case skew != "0":
		skewCol = c.fg
	}
	s.skew = f.centred(skew, x, g.colW, ys[1], small, beyond, skewCol)

	// The TTL bar by the master's own clock, the time left written on it.
	leftSize := tallySmallSize * k
	bw := max(g.colW-tallyHeadBarPad*k, tallyHeadBarLeast*k)
	bx := x + (g.colW-bw)/2
	by, bh := ys[3]+tallyHeadTextY*k, tallyHeadBarH*k
	track := widgets.RectAt(fyne.NewPos(bx, by), fyne.NewSize(bw, bh), c.track)
	onBar := func(s string, col color.Color) widgets.TextSpot {
		s = widgets.FitText(s, leftSize, false, bw-tallyBarTextPad*k)
		w := widgets.TextWidth(s, leftSize, false)
		return widgets.TextAt(s, fyne.NewPos(bx+(bw-w)/2, by), col)
	}
	switch {
	case node.Crashed:
		s.owner = f.centred(i18n.T("redlock.down"), x, g.colW, ys[2], small, false, c.fg)
		s.left = onBar(widgets.FitWords("redlock.keysLost", leftSize, false, bw-tallyBarTextPad*k), c.muted)
	case len(m.Keys) == 0:
		s.owner = f.centred(i18n.T("redlock.free"), x, g.colW, ys[2], small, false, c.muted)
		s.barBg = track
		s.left = onBar(widgets.FitWords("redlock.noKey", leftSize, false, bw-tallyBarTextPad*k), c.muted)
	default:
		key := m.Keys[0]
		s.owner = f.centred(ownerLabel(key.Owner, small, g.colW-tallyColPad*k), x, g.colW, ys[2], small, false, widgets.Readable(ownerColor(f.nodes, key.Owner), c.th))
		s.barBg = track
		if fr := redis.TTLFraction(key); fr > 0 {
			col := widgets.ColorOwned
			if fr < 0.2 {
				col = widgets.ColorWaiting
			}
			s.bar = widgets.RectAt(fyne.NewPos(bx, by), fyne.NewSize(bw*fr, bh), col)
		}
		left := compactTime(key.Left)
		if key.Expired {
			left = widgets.FitWords("redlock.expired", leftSize, false, bw-tallyBarTextPad*k)
		}
		s.left = onBar(left, c.fg)
	}
	return s
}

// tallyAttemptSpots is where a client's block goes: its name, a vote box
// per master, the quorum meter's cells and line, its tally, and either
// its phase beside them (a row) or under them the phase's pill, the try,
// the ttl bar split in its parts with the now line, the arithmetic and
// why (a full block).
type tallyAttemptSpots struct {
	name, try, tally, arith, note, pillText widgets.TextSpot
	pill, barBg, elapsed, used, left, drift widgets.RectSpot
	now                                     widgets.LineSpot
	votes                                   []tallyVoteSpots
	cells                                   []widgets.RectSpot
	quorum                                  widgets.LineSpot // the lines pool's, when shown
}

// tallyVoteSpots is a vote box and its glyph.
type tallyVoteSpots struct {
	box   widgets.RectSpot
	glyph widgets.TextSpot
}

// centredIn is the spot of s centred in the box at pos of size, at text
// size ts in bold, as a vote's glyph is.
func centredIn(s string, pos fyne.Position, size fyne.Size, ts float32, c color.Color) widgets.TextSpot {
	tw := widgets.TextWidth(s, ts, true)
	th := fyne.MeasureText(s, ts, fyne.TextStyle{Bold: true}).Height
	return widgets.TextAt(s, fyne.NewPos(pos.X+(size.Width-tw)/2, pos.Y+(size.Height-th)/2), c)
}

// attempt lays out client a's block with its top at y: full with its bar
// and arithmetic, or a row of votes.
func (f tallyFrame) attempt(a redlocksim.Attempt, y float32, full bool) tallyAttemptSpots {
	var s tallyAttemptSpots
	g, c, k, row := f.g, f.c, f.g.k, f.g.row(f.text, f.caption)
	var node sim.NodeView
	for _, n := range f.nodes {
		if n.Name == a.Client {
			node = n
		}
	}
	nameSize := tallyNameSize * k
	if g.tight {
		nameSize = tallyBoldSize * k
	}
	s.name = widgets.TextAt(widgets.FitText(a.Client, nameSize, true, g.nameW-tallyNamePad*k), fyne.NewPos(0, y+row.nameY), c.fg)
	if g.tight {
		s.name = s.name.Sized(nameSize)
	}
	s.votes = f.votes(a, y, row)
	mx := s.meter(f, a, y, row)
	tally := tallyText(a, len(f.view.Masters), f.view.Quorum)
	tallyCol := c.fg
	if a.Number == 0 {
		tallyCol = c.muted
	}
	s.tally = widgets.TextAt(widgets.FitText(tally, tallyBoldSize*k, true, f.width-mx), fyne.NewPos(mx, y+row.tallyY), tallyCol)
	if !full {
		// One row: the phase rides after the tally.
		label := phaseText(a)
		if node.Paused {
			label += " · " + i18n.T("redlock.paused")
		}
		tx := mx + widgets.TextWidth(tally, tallyBoldSize*k, true) + tallyPhaseGap*k
		if f.width-tx > tallyPhaseLeast*k {
			s.try = widgets.TextAt(widgets.FitText(label, tallySmallSize*k, false, f.width-tx), fyne.NewPos(tx, y+row.phaseY), widgets.Readable(phaseColor(a.Phase), c.th))
		}
		return s
	}
	s.block(f, a, y, node.Paused)
	return s
}

// votes lays out a vote box per master in the masters' columns, on the
// row at y.
func (f tallyFrame) votes(a redlocksim.Attempt, y float32, row tallyRow) []tallyVoteSpots {
	g, c, k := f.g, f.c, f.g.k
	bw := min(g.colW-tallyVotePad*k, tallyVoteMaxW*k)
	out := make([]tallyVoteSpots, len(f.view.Masters))
	for i := range out {
		vote := redlocksim.Vote("")
		if i < len(a.Votes) {
			vote = a.Votes[i]
		}
		pos := fyne.NewPos(g.colX(i)+(g.colW-bw)/2, y)
		size := fyne.NewSize(bw, row.boxH)
		v := &out[i]
		if fill := voteColor(vote); fill.A > 0 {
			v.box = widgets.BoxAt(pos, size, fill, fill, 0)
			v.glyph = centredIn(VoteGlyph(vote), pos, size, row.glyph, color.White)
		} else {
			v.box = widgets.BoxAt(pos, size, color.Transparent, c.muted, k)
			if vote != "" {
				v.glyph = centredIn(VoteGlyph(vote), pos, size, row.glyph, c.muted)
			}
		}
		v.glyph.Size = row.glyph
	}
	return out
}

// meter lays out the quorum meter after the masters' columns on the row
// at y: a cell per master, the yes votes filled, a line after the
// quorum-th cell. It returns where the tally after it starts.
func (s *tallyAttemptSpots) meter(f tallyFrame, a redlocksim.Attempt, y float32, row tallyRow) float32 {
	c, k := f.c, f.g.k
	n, q, yes := len(f.view.Masters), f.view.Quorum, Yes(a.Votes)
	x := f.g.colX(n) + tallyRightGap*k
	cellW, cellGap := tallyCellW*k, tallyCellGap*k
	for i := range n {
		pos := fyne.NewPos(x+float32(i)*(cellW+cellGap), y+row.meterY)
		fill := c.track
		if i < yes {
			fill = widgets.ColorHolding
		}
		s.cells = append(s.cells, widgets.RectAt(pos, fyne.NewSize(cellW, row.meterH), fill))
	}
	if q > 0 && q <= n {
		qx := x + float32(q)*(cellW+cellGap) - cellGap/2
		s.quorum = widgets.LineAt(fyne.NewPos(qx, y+row.quorumY), fyne.NewPos(qx, y+row.quorumY+row.quorumH), c.fg, 2*k)
	}
	return x + float32(n)*(cellW+cellGap) + tallyMeterGap*k
}

// block lays out what a full block adds under its row of votes at y: the
// phase's pill and the try under the name; the ttl bar in the order it is
// spent (elapsed, validity used and left, drift) with a line at now; the
// arithmetic and, with room for it, why.
func (s *tallyAttemptSpots) block(f tallyFrame, a redlocksim.Attempt, y float32, paused bool) {
	c, k := f.c, f.g.k
	phase := phaseText(a)
	try := ""
	if a.Number > 0 {
		try = i18n.F("redlock.try", "n", a.Number)
	}
	if paused {
		try = strings.TrimPrefix(try+" · "+i18n.T("redlock.paused"), " · ")
	}
	pw := widgets.TextWidth(phase, tallySmallSize*k, true) + 2*tallyPillInset*k
	s.pill = widgets.RectAt(fyne.NewPos(0, y+tallyVoteH*k+tallyPillY*k), fyne.NewSize(pw, tallyPillH*k), phaseColor(a.Phase))
	s.pillText = widgets.TextAt(phase, fyne.NewPos(tallyPillInset*k, y+tallyVoteH*k+tallyPillTextY*k), color.White)
	if try != "" {
		s.try = widgets.TextAt(try, fyne.NewPos(0, y+tallyVoteH*k+tallyTryY*k), c.muted)
	}

	bx, by := f.g.nameW, y+tallyVoteH*k+tallyBarY*k
	bw := f.width - bx
	bh := tallyBarH * k
	bar := NewValidityBar(a, f.at)
	s.barBg = widgets.RectAt(fyne.NewPos(bx, by), fyne.NewSize(bw, bh), c.track)
	seg := func(from, share float32, fill color.Color) widgets.RectSpot {
		if share <= 0 {
			return widgets.RectSpot{}
		}
		return widgets.RectAt(fyne.NewPos(bx+from*bw, by), fyne.NewSize(max(share*bw, 1), bh), fill)
	}
	usedCol, leftCol := widgets.Fade(widgets.ColorHolding, 0.35), widgets.ColorHolding
	if !(a.Done && a.Success) {
		usedCol = widgets.Fade(widgets.ColorIdle, 0.45)
	}
	s.elapsed = seg(0, bar.Elapsed, widgets.ColorWaiting)
	s.used = seg(bar.Elapsed, bar.Used, usedCol)
	s.left = seg(bar.Elapsed+bar.Used, bar.Left, leftCol)
	s.drift = seg(1-bar.Drift, bar.Drift, widgets.Fade(widgets.ColorIdle, 0.8))
	if holdingPhase(a.Phase) && a.Done {
		nx := bx + (bar.Elapsed+bar.Used)*bw
		s.now = widgets.LineAt(fyne.NewPos(nx, by-tallyNowOver*k), fyne.NewPos(nx, by+bh+tallyNowOver*k), c.fg, 2*k)
	}

	// The arithmetic and its outcome, and why when there is room.
	line, why := AttemptText(a, f.at, f.view.Sequential)
	ay := by + bh + tallyArithGap*k
	s.arith = widgets.TextAt(widgets.FitText(line, tallyArithSize*k, false, bw), fyne.NewPos(bx, ay), c.fg)
	if f.g.detail && why != "" {
		col := c.muted
		if bar.Overdue > 0 || a.Phase == redlocksim.PhaseLost {
			col = widgets.Readable(widgets.ColorViolation, c.th)
		}
		s.note = widgets.TextAt(widgets.FitText(why, f.small(), false, bw), fyne.NewPos(bx, ay+tallyWhyY*k), col)
	}
}
