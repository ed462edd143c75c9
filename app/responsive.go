package app

import (
	"cmp"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// flowLayout lays its objects out left to right and starts a new row when
// the next one does not fit, so a toolbar of any length stays whole in a
// narrow window: nothing overlaps and nothing is pushed off the edge. An
// object is never split; a group that must stay together (a label with
// its slider) is one object. Objects wrapped by stretch share a row's
// spare width (each up to stretch's limit); the others keep their
// minimum width. Its height depends on the width it was last laid out
// at: MinSize reports the rows that width needs, and Fyne lays the parent
// out again when that changes.
type flowLayout struct {
	hgap, vgap float32
	width      float32 // the width of the last Layout; 0 before the first
	// border is the flowBorder box the flow tops, nil for none: a flow
	// laid out again in a box of the wrong height (its rows changed) lays
	// it out again too (see Layout).
	border *fyne.Container
}

// stretch marks o as taking a share of its row's spare width, up to max
// (0: no limit).
func stretch(o fyne.CanvasObject, max float32) fyne.CanvasObject {
	return container.New(&stretchMark{max: max}, o)
}

// stretchMark is the layout of a stretched object's box: it only fills the
// box, and tells flowLayout that the box may grow.
type stretchMark struct {
	max  float32 // the widest the box grows to, 0 for no limit
	minW float32 // the box's minimum width, measured by stretchOf
}

func (s *stretchMark) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (s *stretchMark) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := fyne.Size{}
	for _, o := range objs {
		if o.Visible() {
			m = m.Max(o.MinSize())
		}
	}
	return m
}

// newFlow is a container that flows its objects into rows.
func newFlow(objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(&flowLayout{hgap: 6, vgap: 0}, objs...)
}

// rows splits the visible objects into rows for a width; width 0 puts
// them all on one row.
func (f *flowLayout) rows(objs []fyne.CanvasObject, width float32) [][]fyne.CanvasObject {
	var out [][]fyne.CanvasObject
	var row []fyne.CanvasObject
	x := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		w := o.MinSize().Width
		if len(row) > 0 && width > 0 && x+f.hgap+w > width {
			out = append(out, row)
			row, x = nil, 0
		}
		if len(row) > 0 {
			x += f.hgap
		}
		row = append(row, o)
		x += w
	}
	if len(row) > 0 {
		out = append(out, row)
	}
	return out
}

func rowHeight(row []fyne.CanvasObject) float32 {
	h := float32(0)
	for _, o := range row {
		h = max(h, o.MinSize().Height)
	}
	return h
}

// MinSize is as wide as the widest object and as tall as the rows of the
// last laid-out width.
func (f *flowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w := float32(0)
	for _, o := range objs {
		if o.Visible() {
			w = max(w, o.MinSize().Width)
		}
	}
	width := f.width
	if width > 0 {
		width = max(width, w)
	}
	return fyne.NewSize(w, f.heightAt(objs, width))
}

// heightAt is the height of the rows the objects take at a width (0: one
// row).
func (f *flowLayout) heightAt(objs []fyne.CanvasObject, width float32) float32 {
	h := float32(0)
	for i, r := range f.rows(objs, width) {
		if i > 0 {
			h += f.vgap
		}
		h += rowHeight(r)
	}
	return h
}

// flowBorder lays out a flow across the top of its box, a footer along
// the bottom and the body between. The flow's height is worked out from
// the box's own width at every layout, so a window made narrower gives
// the toolbar the extra rows it needs in the same pass: a Border layout
// would ask the flow's MinSize first, which only knows the width it was
// laid out at before, and let the new row cover the pictures for a frame
// or for good. Its objects are the flow (a container of newFlow), the
// body and the footer (nil for none).
type flowBorder struct{}

// newFlowBorder is a box with flow on top, footer (may be nil) at the
// bottom and body between them.
func newFlowBorder(flow *fyne.Container, body, footer fyne.CanvasObject) *fyne.Container {
	objs := []fyne.CanvasObject{flow, body}
	if footer != nil {
		objs = append(objs, footer)
	}
	box := container.New(flowBorder{}, objs...)
	flow.Layout.(*flowLayout).border = box
	return box
}

func (flowBorder) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) < 2 {
		return
	}
	top := objs[0].(*fyne.Container)
	f := top.Layout.(*flowLayout)
	topH := f.heightAt(top.Objects, size.Width)
	top.Move(fyne.NewPos(0, 0))
	top.Resize(fyne.NewSize(size.Width, topH))
	pad := theme.Padding()
	bottom := size.Height
	if len(objs) > 2 && objs[2].Visible() {
		footH := objs[2].MinSize().Height
		bottom = size.Height - footH
		objs[2].Move(fyne.NewPos(0, bottom))
		objs[2].Resize(fyne.NewSize(size.Width, footH))
		bottom -= pad
	}
	y := topH + pad
	objs[1].Move(fyne.NewPos(0, y))
	objs[1].Resize(fyne.NewSize(size.Width, max(0, bottom-y)))
}

func (flowBorder) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := fyne.Size{}
	pad := theme.Padding()
	for i, o := range objs {
		if !o.Visible() {
			continue
		}
		s := o.MinSize()
		m.Width = max(m.Width, s.Width)
		m.Height += s.Height
		if i > 0 {
			m.Height += pad
		}
	}
	return m
}

// Layout places the rows for the container's width. When they no longer
// take the box's height (a control grew or shrank: a long preset name, a
// button's new words) it lays out the flowBorder the flow tops too, so
// the body moves to make room: Fyne lays out again only the parent of an
// object whose minimum size changed, and its grandparent only if it hears
// of the change, which it does not when something in the body changed in
// the same frame (a run opened from the trade-off map left a fourth row of
// the toolbar over the cluster).
func (f *flowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	f.width = size.Width
	defer func() {
		if b := f.border; b != nil && math.Abs(float64(f.heightAt(objs, size.Width)-size.Height)) > 0.5 {
			b.Layout.Layout(b.Objects, b.Size())
		}
	}()
	y := float32(0)
	for _, row := range f.rows(objs, size.Width) {
		h := rowHeight(row)
		used := f.hgap * float32(len(row)-1)
		var grow []*stretchMark
		for _, o := range row {
			used += o.MinSize().Width
			if s := stretchOf(o); s != nil {
				grow = append(grow, s)
			}
		}
		spare := size.Width - used
		extra := map[*stretchMark]float32{}
		// Share the spare width out equally, again and again, so what a
		// capped object cannot take goes to the others.
		for open := len(grow); spare > 0.5 && open > 0; {
			share := spare / float32(open)
			open = 0
			for _, s := range grow {
				room := share
				if s.max > 0 {
					room = min(share, s.max-extra[s]-s.minWidth())
				}
				if room <= 0 {
					continue
				}
				extra[s] += room
				spare -= room
				if s.max == 0 || extra[s]+s.minWidth() < s.max {
					open++
				}
			}
		}
		x := float32(0)
		for _, o := range row {
			w := o.MinSize().Width
			if s := stretchOf(o); s != nil {
				w += extra[s]
			}
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(w, h))
			x += w + f.hgap
		}
		y += h + f.vgap
	}
}

// minWidth is the box's minimum width as stretchOf last measured it.
func (s *stretchMark) minWidth() float32 { return s.minW }

func stretchOf(o fyne.CanvasObject) *stretchMark {
	c, ok := o.(*fyne.Container)
	if !ok {
		return nil
	}
	s, ok := c.Layout.(*stretchMark)
	if !ok {
		return nil
	}
	s.minW = c.MinSize().Width
	return s
}

// atLeast gives o a minimum width, so a slider or a picker in a narrow
// row keeps a length that can be dragged or read.
func atLeast(w float32, o fyne.CanvasObject) fyne.CanvasObject {
	return container.New(minWidth(w), o)
}

// minWidth fills its box with its objects and is at least this wide.
type minWidth float32

func (m minWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (m minWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := fyne.NewSize(float32(m), 0)
	for _, o := range objs {
		if o.Visible() {
			s = s.Max(o.MinSize())
		}
	}
	return s
}

// widthOf gives o a minimum width of w whatever its own: a picker whose
// minimum is the whole of the text it shows (Fyne's Select measures its
// placeholder, the name of a run that is no preset) otherwise outgrows its
// cell and runs under the next control, where this one cuts the text with
// "…" (a trade-off map's cell, "Trade-off map: leaseDuration 6 s, pause
// of the holder 12 s, seed 1", at 1024 points).
func widthOf(w float32, o fyne.CanvasObject) fyne.CanvasObject {
	return container.New(fixedMinWidth(w), o)
}

// fixedMinWidth fills its box with its objects; its minimum is its width
// and their tallest.
type fixedMinWidth float32

func (m fixedMinWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	minWidth(m).Layout(objs, size)
}

func (m fixedMinWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(float32(m), minWidth(m).MinSize(objs).Height)
}

// wholeText gives a label that truncates the width of its whole text as
// its minimum, up to limit: in a flow it then takes a row of its own
// where the rest of a row is too short for it, rather than being cut
// with "…" (the trade-off map's status beside its choices), and only a
// text longer than limit is shortened.
func wholeText(l *widget.Label, limit float32) fyne.CanvasObject {
	return container.New(&wholeTextLayout{label: l, limit: limit}, l)
}

// wholeTextLayout is the layout of wholeText's box.
type wholeTextLayout struct {
	label *widget.Label
	limit float32
}

func (w *wholeTextLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (w *wholeTextLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	m := w.label.MinSize()
	size := w.label.SizeName
	if size == "" {
		size = theme.SizeNameText
	}
	text := fyne.MeasureText(w.label.Text, theme.SizeForWidget(size, w.label), w.label.TextStyle).Width
	return fyne.NewSize(max(m.Width, min(text+2*theme.InnerPadding(), w.limit)), m.Height)
}

// yieldingFooter lays out a picture with a footer of text beneath it: the
// footer takes its full height when the box has room for it beside what
// the picture draws, right under that, and scrolls in what is left when
// it has not, so a short window keeps the picture and can still read the
// text. A picture that says how tall it draws (designtab.Drawn) is given
// that; another its minimum. Its objects are the picture and a scroller
// around footer.
type yieldingFooter struct {
	footer *widget.Label // the text inside the scroller, measured for its full height
	box    fyne.Size     // the size last laid out
	top    float32       // where the footer started then
}

// footerMin is the least height the footer keeps: about two lines.
const footerMin = 30

// wholeLines is the most of height h that shows whole lines of the
// footer's text above its fold (at least one): the rest of the height goes
// to the picture rather than to half a line cut in two (the Redis, Redlock
// and etcd tabs' notes at 1366×768).
func (y *yieldingFooter) wholeLines(h float32) float32 {
	size := cmp.Or(y.footer.SizeName, theme.SizeNameText)
	line := fyne.MeasureText("M", theme.SizeForWidget(size, y.footer), y.footer.TextStyle).Height
	top := theme.InnerPadding()
	return top + line*max(1, float32(math.Floor(float64((h-top)/line))))
}

// footerRefSize is the box a state picture and its notes share in a
// 1400×900 window; where a larger one lets the pictures grow to at least
// the text's size over the caption's (widgets.GrowScale), the notes are
// set at the text's size: at 2560×1440 five lines of small print sat at
// the foot of a 1258×600 panel.
var footerRefSize = fyne.NewSize(680, 310)

// noteSize is the size the notes are set at in a box of size.
func (y *yieldingFooter) noteSize(size fyne.Size) fyne.ThemeSizeName {
	if widgets.GrowScale(size, footerRefSize, widgets.MostGrowth) >= theme.TextSize()/theme.CaptionTextSize() {
		return theme.SizeNameText
	}
	return theme.SizeNameCaptionText
}

func (y *yieldingFooter) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 2 {
		return
	}
	pic, foot := objs[0], objs[1]
	if name := y.noteSize(size); y.footer.SizeName != name {
		y.footer.SizeName = name
		y.footer.Refresh()
	}
	y.footer.Resize(fyne.NewSize(size.Width, y.footer.MinSize().Height))
	picH, top := y.split(pic, size)
	y.box, y.top = size, top
	pic.Move(fyne.NewPos(0, 0))
	pic.Resize(fyne.NewSize(size.Width, picH))
	foot.Move(fyne.NewPos(0, top))
	foot.Resize(fyne.NewSize(size.Width, size.Height-top))
}

// split is the height of the picture's box in a box of size and the top
// of the footer. Where the footer has its full height under the picture's
// box and the picture draws less than that box, the footer starts right
// under what it draws, over the bottom of its box where nothing is drawn:
// the picture keeps the box it grows by (widgets.GrowScale) and the gap
// goes under the notes (etcd's and Redis's tabs at their end). Else the
// picture keeps the least height at which it draws whole (its minimum if
// it does not say, designtab.Drawn) and the footer scrolls in the rest,
// at least footerMin of it, in whole lines.
func (y *yieldingFooter) split(pic fyne.CanvasObject, size fyne.Size) (picH, top float32) {
	want := y.footer.MinSize().Height
	least := min(want, footerMin)
	need := pic.MinSize().Height
	if d, ok := pic.(designtab.Drawn); ok {
		if p := size.Height - want; p > 0 {
			if drawn := d.DrawnHeight(fyne.NewSize(size.Width, p)); drawn < p {
				return p, drawn
			}
		}
		need = drawsWhole(d, size.Width, size.Height-least)
	}
	h := max(min(want, size.Height-need), least)
	if h < want {
		h = min(h, y.wholeLines(h))
	}
	picH = size.Height - h
	if d, ok := pic.(designtab.Drawn); ok && h < want {
		// What a picture that needs this box draws in it may still end
		// short of it (etcd's free lock under a row's room): the notes
		// take that too, in whole lines, over the box's empty foot.
		h = min(want, size.Height-d.DrawnHeight(fyne.NewSize(size.Width, picH)))
		if h < want {
			h = y.wholeLines(h)
		}
	}
	return picH, size.Height - h
}

// drawsWhole is the least height up to most at which d, width wide, draws
// less than its box (to half a point): below it d fills its box and is
// drawn smaller than it would like.
func drawsWhole(d designtab.Drawn, width, most float32) float32 {
	fills := func(h float32) bool { return d.DrawnHeight(fyne.NewSize(width, h)) >= h }
	if fills(most) {
		return most
	}
	lo, hi := float32(0), most // lo fills, hi does not
	for hi-lo > 0.5 {
		if mid := (lo + hi) / 2; fills(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// follow lays the box objs out again where what the picture draws moved
// since the last layout (a new instant has more rows or fewer): Fyne lays
// a box out when its size changes, not its picture's content.
func (y *yieldingFooter) follow(objs []fyne.CanvasObject) {
	if len(objs) != 2 || y.box.IsZero() {
		return
	}
	if _, top := y.split(objs[0], y.box); top != y.top {
		y.Layout(objs, y.box)
	}
}

func (y *yieldingFooter) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if len(objs) != 2 {
		return fyne.Size{}
	}
	m := objs[0].MinSize()
	return fyne.NewSize(m.Width, m.Height+min(y.footer.MinSize().Height, footerMin))
}

// roomForLanes is the layout of the tab's middle: the split between the
// cluster and state above and the caption and timeline below. Where half
// of it leaves the timeline's lanes too thin to read (a short window, a
// run with rows of fault badges: Redlock's clock jump at 1366×768 drew
// lanes 10 points high), it moves the split up until the timeline has its
// EasyHeight, as far as the panels above keep their minimum size; else
// the split stays at half. It sets the split at each layout and when the
// run changes, and never again once the user dragged it.
type roomForLanes struct {
	split    *container.Split
	timeline *widgets.Timeline
	set      float64 // the offset last set here; another is the user's
}

// newRoomForLanes lays split out, its trailing part holding timeline.
func newRoomForLanes(split *container.Split, timeline *widgets.Timeline) *roomForLanes {
	split.Offset = 0.5
	return &roomForLanes{split: split, timeline: timeline, set: split.Offset}
}

// offset is where the split goes in a middle h high.
func (l *roomForLanes) offset(h float32) float64 {
	bottom := l.split.Trailing
	around := max(bottom.MinSize().Height-l.timeline.MinSize().Height, bottom.Size().Height-l.timeline.Size().Height)
	need := around + l.timeline.EasyHeight()
	if l.split.Size().Height == h { // less the divider, as the split measures
		h -= max(0, h-l.split.Leading.Size().Height-bottom.Size().Height)
	}
	if h <= 0 || need <= h/2 {
		return 0.5
	}
	return max(0, 1-float64(need/h)) // the split keeps the top's minimum
}

// again sets the split for the run now on show.
func (l *roomForLanes) again() {
	l.Layout([]fyne.CanvasObject{l.split}, l.split.Size())
}

func (l *roomForLanes) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	// Measured again once laid out: the caption above the timeline may
	// have wrapped to the new width.
	for range 2 {
		if l.split.Offset != l.set {
			return
		}
		off := l.offset(size.Height)
		if off == l.set {
			return
		}
		l.set = off
		l.split.SetOffset(off)
	}
}

func (l *roomForLanes) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return l.split.MinSize()
}
