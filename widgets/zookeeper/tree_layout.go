package zookeeper

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/lockscope/lockscope/widgets"
)

// Lengths of the znode picture, in points at widgets.BaseTextSize (times
// zkGeometry.k).
const (
	zkBandH     = 20
	zkBandLineH = 16 // the band's second line
	zkParentH   = 24
	zkIndent    = 20
	zkRowH      = 35 // a child with its session line
	zkRowSlimH  = 22 // a child on one line, when space is short
	zkRowGap    = 3
	zkGap       = 5
	zkLaneW     = 9
	zkLineH     = 18
	zkMinW      = 320 // the picture's least size
	zkMinH      = 130

	zkRightMargin   = 2  // right of the boxes with no watch arrows
	zkLanesGap      = 8  // between the boxes and the arrows' lanes
	zkLaneStart     = 5  // the first lane right of the boxes
	zkArrowHeadL    = 6  // an arrowhead's length
	zkArrowHeadW    = 4  // and its half width
	zkBandTextY     = 2  // the band's words below its top
	zkParentTextY   = 4  // the lock znode's path below its top
	zkParentNoteY   = 6  // and the note after it
	zkParentNoteGap = 10 // between the path and the note
	zkRowTextY      = 3  // a child's first line below its top
	zkSmallTextY    = 2  // small print (a guid prefix, a pill's words) below the line's top
	zkOwnerY        = 0.5
	zkBadgeH        = 17 // a child's HOLDER or place-in-line badge
	zkBadgeInset    = 5  // its words inside it
	zkBadgeTextY    = 1  // and below its top; a remark on the first line too
	zkBadgeGap      = 8  // between the badge and the line's words
	zkPillH         = 14 // a session state's or the ephemeral pill
	zkPillY         = 1.5
	zkPillInset     = 4 // a pill's words inside it
	zkPillTextY     = 0.5
	zkWordGap       = 10 // between the parts of a child's first line
	zkOwnerGap      = 8  // after the owner's name
	zkSessionLineY  = 19 // a child's session line below its top
	zkSessionBarW   = 56 // a session's bar of time left
	zkSessionBarY   = 3
	zkSessionBarH   = 9
	zkSessionGap    = 8 // between the session's id, bar and timer
)

// Text sizes of the znode picture, in points at widgets.BaseTextSize (the
// small print is the theme's caption).
const (
	zkBandSize   = 12
	zkParentSize = 13
	zkNameSize   = 12
	zkSeqSize    = 12.5
	zkPillSize   = 9.5
	zkNoteSize   = 11.5
)

// zkRefSize is the picture's size at which it is drawn at the sizes above
// (its panel in a 1400×900 window); a larger one scales every length and
// word (widgets.GrowScale), so a 2560×1440 screen's panel is not left with
// small rows at its top.
var zkRefSize = fyne.NewSize(680, 310)

// zkGeometry is the tree's vertical budget in a picture of a size: the
// band (one line or two) and the lock znode, then the children at full
// height, slim, or as many as fit; the watch events, warnings and the
// clients without a znode below them, these in a third of the height or
// what the children leave; and the gutter the watch arrows take on the
// right.
type zkGeometry struct {
	k           float32  // a point of the picture's own lengths and words: grow times the theme's widgets.TextScale
	grow        float32  // the scale of the theme's sizes it takes (widgets.GrowScale)
	band        []string // the band's lines
	bandH       float32
	rowH        float32 // a child's row
	shown       int     // children drawn
	shownOthers int     // clients without a znode given a line
	laneW       float32 // an arrow's lane
	right       float32 // where the boxes end, left of the lanes
	pad         float32 // the text's inset in a box: the theme's inner padding, times grow
}

// zkLayout lays the model out in size with th's sizes.
func zkLayout(m zkModel, size fyne.Size, th fyne.Theme) zkGeometry {
	n := len(m.z.Children)
	grow := widgets.GrowScale(size, zkRefSize, widgets.MostGrowth)
	k := grow * widgets.TextScale(th)
	g := zkGeometry{k: k, grow: grow, bandH: zkBandH * k, rowH: zkRowH * k, shown: n, laneW: zkLaneW * k, right: size.Width - zkRightMargin*k,
		pad: th.Size(theme.SizeNameInnerPadding) * grow}
	// The band wraps onto a second line where it is too long for one and
	// the children keep their full rows below it.
	g.band = zkBandLines(m.bandText, size.Width-2*g.pad, zkBandSize*k)
	if len(g.band) > 1 && size.Height-zkBandH*k-zkBandLineH*k-zkGap*k-zkParentH*k-zkGap*k >= float32(n)*(zkRowH+zkRowGap)*k+float32(len(m.warnings)+min(len(m.others), 1))*zkLineH*k {
		g.bandH += zkBandLineH * k
	} else {
		g.band = []string{zkClip(m.bandText, size.Width-2*g.pad, zkBandSize*k, true)}
	}
	top := g.bandH + zkGap*k + zkParentH*k + zkGap*k
	maxOthers := max(1, int(size.Height/3/(zkLineH*k)))
	g.shownOthers = min(len(m.others), maxOthers)
	below := float32(len(m.warnings)+g.shownOthers) * zkLineH * k
	if len(m.fired) > 0 {
		below += zkLineH * k
	}
	avail := size.Height - top - below
	if float32(n)*(g.rowH+zkRowGap*k) > avail {
		g.rowH = zkRowSlimH * k
	}
	childrenH := float32(n) * (g.rowH + zkRowGap*k)
	if childrenH > avail {
		g.shown = max(0, int((avail-zkLineH*k)/(g.rowH+zkRowGap*k)))
		childrenH = float32(g.shown)*(g.rowH+zkRowGap*k) + zkLineH*k
	}
	// The clients without a znode also take what the children leave
	// (zk-happy-path's end in a 1600×1000 window named two of five over
	// 60 points left empty).
	left := size.Height - top - childrenH - below + float32(g.shownOthers)*zkLineH*k
	g.shownOthers = min(len(m.others), max(g.shownOthers, int(left/(zkLineH*k))))
	if m.nLanes > 0 {
		g.laneW = min(g.laneW, size.Width*0.2/float32(m.nLanes))
		g.right -= float32(m.nLanes)*g.laneW + zkLanesGap*k
	}
	return g
}

// bottom is the foot of what draw puts in the picture for m: the band,
// the lock znode, the children shown and the line counting the rest, the
// watch events, warnings and clients without a znode.
func (g zkGeometry) bottom(m zkModel) float32 {
	k := g.k
	lines := len(m.warnings) + g.shownOthers
	if g.shown < len(m.z.Children) {
		lines++
	}
	if len(m.fired) > 0 {
		lines++
	}
	return g.bandH + (2*zkGap+zkParentH)*k + float32(g.shown)*(g.rowH+zkRowGap*k) + float32(lines)*zkLineH*k
}

// DrawnHeight is the height of what the picture draws in a box of size
// (designtab.Drawn); the box's height where it is drawn smaller than it
// would like (the band cut to one line, slim rows, children or clients
// left out).
func (t *ZNodeTree) DrawnHeight(size fyne.Size) float32 {
	if t.renderer == nil || t.renderer.model == nil {
		return 0
	}
	m := *t.renderer.model
	g := zkLayout(m, size, t.Theme())
	cut := len(g.band) < len(zkBandLines(m.bandText, size.Width-2*g.pad, zkBandSize*g.k))
	if cut || g.rowH < zkRowH*g.k || g.shown < len(m.z.Children) || g.shownOthers < len(m.others) {
		return size.Height
	}
	return min(g.bottom(m), size.Height)
}

// zkBandLines breaks the band's words into its first line and the rest,
// at a space or between Chinese characters (one line when they fit), in
// words of size.
func zkBandLines(text string, width, size float32) []string {
	lines := widgets.WrapWordsStyled(text, size, width, true)
	if len(lines) < 2 || !strings.HasPrefix(text, lines[0]) {
		return []string{text}
	}
	return []string{lines[0], strings.TrimSpace(text[len(lines[0]):])}
}
