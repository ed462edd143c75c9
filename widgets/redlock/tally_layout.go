package redlock

import (
	"fyne.io/fyne/v2"
	"slices"

	redlocksim "github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets"
)

// Lengths of the tally, in points at widgets.BaseTextSize (times
// tallyGeometry.k).
const (
	tallyNameW  = 84  // the column of row labels and client names
	tallyRightW = 160 // the column of quorum meters and notes
	// In a narrow tally (a 1024×768 window with the event log open: 372
	// wide) the masters' columns keep tallyColMin, room for "+10 s" and
	// "free", taken from the right column down to tallyRightMin (a quorum
	// meter and its tally), then from the names' down to tallyNameMin.
	tallyColMin   = 36
	tallyRightMin = 112
	tallyNameMin  = 68
	tallyMastersH = 66 // the masters' column heads
	tallyLegendH  = 18
	tallyMoreH    = 16 // the line saying how many clients are left out
	tallyVoteH    = 22 // a row of vote boxes
	tallyGap      = 5
	tallyFullH    = 60  // a client's block with its bar and arithmetic
	tallyDetailH  = 14  // the line that says why, under the arithmetic
	tallyTightH   = 16  // a tight row of vote boxes, a line of the heads' pitch
	tallyMinW     = 360 // the tally's least size
	tallyMinH     = 100
	tallyDrawnW   = 100 // narrower, it draws nothing

	// The masters' heads and the right column.
	tallyHeadPitch    = 15 // between the heads' lines
	tallyHeadTextY    = 1  // a head's words below its line's top
	tallyColPad       = 4  // a column's words narrower than it
	tallyHeadBarH     = 14 // a master's TTL bar
	tallyHeadBarPad   = 8  // narrower than its column
	tallyHeadBarLeast = 8  // its least width
	tallyBarTextPad   = 2  // the words on it, narrower than it
	tallyRightGap     = 10 // the right column (and a row's quorum meter) after the masters' columns
	tallyRightMargin  = 2  // the right column's words short of the edge
	tallyRuleRise     = 4  // the rule under the heads, above their foot

	// A client's row of votes and its full block.
	tallyBoxGap      = 2 // a vote box is its row less this
	tallyMeterY      = 2 // the quorum meter below the row's top
	tallyMeterH      = 16
	tallyTightMeterY = 3 // in a tight row
	tallyTightMeterH = 10
	tallyQuorumRise  = 1  // the quorum's line above the row's top
	tallyNameY       = 2  // the client's name below the row's top
	tallyTallyY      = 3  // its tally
	tallyPhaseY      = 4  // its phase, in a row
	tallyTightPhaseY = 1  // in a tight row
	tallyNamePad     = 6  // the name narrower than its column
	tallyVotePad     = 8  // a vote box narrower than its column
	tallyVoteMaxW    = 40 // and at most this wide
	tallyCellW       = 7  // a quorum meter's cell
	tallyCellGap     = 2
	tallyMeterGap    = 6  // between the meter and the tally
	tallyPhaseGap    = 8  // between the tally and the phase, in a row
	tallyPhaseLeast  = 24 // the room the phase needs to be written
	tallyPillY       = 1  // the phase's pill below the row of votes
	tallyPillH       = 16
	tallyPillInset   = 5  // its words inside it
	tallyPillTextY   = 2  // and below the row of votes
	tallyTryY        = 18 // the try's number below the row of votes
	tallyBarY        = 3  // the validity bar below the row of votes
	tallyBarH        = 12
	tallyNowOver     = 3  // the now line beyond the bar, above and below
	tallyArithGap    = 3  // the arithmetic below the bar
	tallyWhyY        = 15 // the line of detail below the arithmetic

	// The legend.
	tallyLegendTextY  = 3  // its words below its top
	tallyLegendGap    = 14 // between two votes' glyphs
	tallySwatchY      = 3  // a colour's swatch below the line's top
	tallySwatchW      = 12
	tallySwatchH      = 10
	tallySwatchLabelX = 16 // its label after the swatch's left edge
	tallyLegendBarGap = 12 // between two colours
)

// Text sizes of the tally, in points at widgets.BaseTextSize (the small
// print is the theme's caption, a vote's glyph its text).
const (
	tallyNameSize  = 12.5 // a client's name
	tallyBoldSize  = 11.5 // a master's name, a block's tally, the quorum rule
	tallyArithSize = 12   // the validity arithmetic
	tallySmallSize = 10.5 // a TTL on its bar, a try, a phase's pill
)

// tallyRefSize is the tally's size at which it is drawn at the sizes above
// (its panel in a 1400×900 window); a larger one scales every length and
// word (widgets.GrowScale), so a 2560×1440 screen's panel is not left with
// small columns and blocks at its top.
var tallyRefSize = fyne.NewSize(680, 255)

// tallyGeometry is where the tally's parts go in a picture of a size: the
// masters' columns, each client's block (full with its arithmetic, with a
// line of detail under it, or a compact row), the line that counts the
// clients left out, and whether the legend keeps its place.
type tallyGeometry struct {
	k      float32 // a point of the tally's own lengths and words: grow times the theme's widgets.TextScale
	grow   float32 // the scale of the theme's sizes it takes (widgets.GrowScale)
	nameW  float32 // the column of row labels and client names
	colW   float32 // a master's column
	full   []bool  // which attempts get a full block
	detail bool    // full blocks get a line of detail
	tight  bool    // the rows are tight ones (tallyTightH), with no full block
	ys     []float32
	more   int     // clients left out, counted on a line at moreY
	moreY  float32 // where that line goes
	legend bool
	end    float32 // the foot of the blocks: the legend goes under it
}

// colX is the left edge of master i's column.
func (g tallyGeometry) colX(i int) float32 { return g.nameW + float32(i)*g.colW }

// tallyLayout lays out the attempts over n masters in size with th's
// sizes; ok is false
// when there is nothing to draw or no room for it. The clients' blocks are
// full while there is room, in the order the reader most needs them
// (holders, then those voting), compact rows for the rest; a line of
// detail under each full block if room is left.
func tallyLayout(atts []redlocksim.Attempt, n int, size fyne.Size, th fyne.Theme) (g tallyGeometry, ok bool) {
	if n == 0 || size.Width < tallyDrawnW*widgets.TextScale(th) {
		return g, false
	}
	g.grow = widgets.GrowScale(size, tallyRefSize, widgets.MostGrowth)
	k := g.grow * widgets.TextScale(th)
	g.k = k
	g.nameW, g.colW = tallyColumns(size.Width, n, k)
	top := tallyMastersH * k
	avail := size.Height - top
	g.legend = true
	g.full, g.detail = fullBlocks(atts, avail-tallyLegendH*k, k)
	rowsH := float32(len(atts))*(tallyVoteH+tallyGap)*k - tallyGap*k // a row of votes each
	if f, d := fullBlocks(atts, avail, k); urgentFull(atts, f) > urgentFull(atts, g.full) || rowsH > avail-tallyLegendH*k {
		// The legend gives way to a holder's or a voter's arithmetic, and
		// to a row of votes for every client.
		g.full, g.detail, g.legend = f, d, false
	}
	if rowsH > avail {
		// Not a row of votes for each client (a 1024×768 window's tally
		// is 98 high: two rows of votes and the heads are 120): rows as
		// tight as the heads' lines, since which master voted for whom is
		// what the tally is for.
		return g.tightRows(len(atts), top, size.Height), true
	}
	bottom := size.Height
	if g.legend {
		bottom -= tallyLegendH * k
	}
	y := top
	for i := range atts {
		h := (tallyVoteH + tallyGap) * k
		if g.full[i] {
			h = tallyFullH * k
			if g.detail {
				h += tallyDetailH * k
			}
		}
		if y+tallyVoteH*k > bottom {
			g.more, g.moreY = len(atts)-i, y
			// That clients are left out matters more than the legend,
			// which gives way rather than be written over.
			if y+tallyMoreH*k > bottom {
				g.legend = false
			}
			y += tallyMoreH * k
			break
		}
		g.ys = append(g.ys, y)
		y += h
	}
	g.end = min(y, bottom)
	return g, true
}

// whole reports whether g draws the attempts as a box of any height
// would: every block full with its line of detail, none left out, the
// legend under them. Where it does not, the tally fills its box.
func (g tallyGeometry) whole() bool {
	return !g.tight && g.more == 0 && g.legend && !slices.Contains(g.full, false) && (g.detail || len(g.full) == 0)
}

// tightRows lays n clients out in tight rows from top down to bottom: all
// of them, with the legend where it still has room; else as many as fit
// less one, whose line names the clients left out.
func (g tallyGeometry) tightRows(n int, top, bottom float32) tallyGeometry {
	k := g.k
	rowH := tallyTightH * k
	g.tight, g.detail, g.full = true, false, make([]bool, n)
	fit := int((bottom - top) / rowH)
	g.legend = fit >= n && top+float32(n)*rowH+tallyLegendH*k <= bottom
	if fit < n {
		g.more, g.moreY = n-max(fit-1, 0), top+float32(max(fit-1, 0))*rowH
		n = max(fit-1, 0)
	}
	for i := range n {
		g.ys = append(g.ys, top+float32(i)*rowH)
	}
	g.end = bottom - tallyLegendH*k // the legend at the foot, as tight as the rows
	return g
}

// tallyColumns shares width out at scale k: the names' column and each of
// n masters' columns; the right column takes the rest.
func tallyColumns(width float32, n int, k float32) (nameW, colW float32) {
	nameW = tallyNameW * k
	right := tallyRightW * k
	cols := width - nameW - right
	if want := float32(n) * tallyColMin * k; cols < want {
		right = max(tallyRightMin*k, width-nameW-want)
		nameW = max(tallyNameMin*k, min(nameW, width-right-want))
		cols = width - nameW - right
	}
	return nameW, cols / float32(n)
}

// shownOrder is the attempts in the order the tally draws their rows: as
// the clients come where every row fits, else by blockRank, so a short box
// (a crowd at 1024×768) keeps the holder's row and the voters', and its
// last line names the rest, where the clients' own order had left the
// holder out.
func shownOrder(atts []redlocksim.Attempt, n int, size fyne.Size, th fyne.Theme) []redlocksim.Attempt {
	if g, ok := tallyLayout(atts, n, size, th); !ok || g.more == 0 {
		return atts
	}
	return widgets.Ranked(atts, blockRank, 0, nil)
}

// urgentFull counts the attempts given a full block whose client holds,
// lost, or is voting: the ones whose arithmetic matters now.
func urgentFull(atts []redlocksim.Attempt, full []bool) int {
	n := 0
	for i, a := range atts {
		if full[i] && blockRank(a) <= 1 {
			n++
		}
	}
	return n
}

// blockRank orders attempts by how much the reader needs their full block:
// holders and lost holders first, then clients voting or unlocking, then
// those waiting to retry or given up, then the rest.
func blockRank(a redlocksim.Attempt) int {
	switch {
	case holdingPhase(a.Phase), a.Phase == redlocksim.PhaseLost:
		return 0
	case a.Phase == redlocksim.PhaseAcquiring || a.Phase == redlocksim.PhaseUnlocking:
		return 1
	case a.Phase == redlocksim.PhaseRetrying || a.Phase == redlocksim.PhaseGaveUp:
		return 2
	}
	return 3
}

// fullBlocks chooses which attempts get a full block (bar and arithmetic)
// in avail height, the others getting one row of votes, and whether the
// full blocks have room for their line of detail, at scale k.
func fullBlocks(atts []redlocksim.Attempt, avail, k float32) (full []bool, detail bool) {
	full = make([]bool, len(atts))
	need := float32(len(atts)) * (tallyVoteH + tallyGap) * k
	extra := (tallyFullH - tallyVoteH - tallyGap) * k
	nfull := 0
	for want := 0; want <= 3; want++ {
		for i, a := range atts {
			if blockRank(a) == want && need+extra <= avail {
				full[i] = true
				need += extra
				nfull++
			}
		}
	}
	return full, nfull > 0 && need+float32(nfull)*tallyDetailH*k <= avail
}
