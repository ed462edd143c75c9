package widgets

import (
	"image/color"
	"math"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

var _ fyne.Tappable = (*ClusterView)(nil)

// ClusterView draws the nodes of a run — clients on the left, servers on the
// right — with their local clocks, states and roles, the messages on the
// wire moving along the links, partitions as cut links, paused nodes greyed
// and crashed nodes crossed out. It reads only the mode-independent part of
// a snapshot, so every mode's tab uses it.
type ClusterView struct {
	widget.BaseWidget

	// OnTapNode is called with a node's name and the tap's absolute
	// position when a node is tapped, so the window can offer faults.
	OnTapNode func(node string, at fyne.Position)
	// OnTapGroup, when set, is called instead of OnTapNode when a tap
	// lands on a crowd's group of more than one client, with the group
	// (CrowdGroupAt), so the window can list its clients to pick one.
	OnTapGroup func(g CrowdGroup, at fyne.Position)

	OnShow
}

// NewClusterView returns an empty cluster view; SetSnapshot fills it.
func NewClusterView() *ClusterView {
	v := &ClusterView{}
	v.ExtendBaseWidget(v)
	return v
}

// SetSnapshot shows the cluster at the snapshot's instant.
func (v *ClusterView) SetSnapshot(s *sim.Snapshot) {
	// A new instant moves the clocks and the messages; the links are placed
	// again only when the nodes, the partitions, the size or the theme
	// changed (linkKey).
	if v.Take(s) {
		v.Refresh()
	}
}

// Snapshot is the snapshot on show, nil before the first SetSnapshot.
func (v *ClusterView) Snapshot() *sim.Snapshot { return v.snap }

// NodeAt names the node drawn at pos (relative to the view), "" for none.
// In a crowd (the clients drawn as groups by state) a group's box names
// its first client: the holder of the holding group.
func (v *ClusterView) NodeAt(pos fyne.Position) string {
	if g := v.GroupAt(pos); len(g) > 0 {
		return g[0]
	}
	return ""
}

// GroupAt names the nodes drawn in the box at pos: a node's box its node,
// a crowd's group's box all its clients; nil for none.
func (v *ClusterView) GroupAt(pos fyne.Position) []string {
	if v.snap == nil {
		return nil
	}
	shape := clusterShapeOf(v.snap.Nodes, v.Size())
	for i, b := range clusterLayout(shape.nodes, v.Size()) {
		if b.contains(pos) {
			names := make([]string, len(shape.members[i]))
			for j, m := range shape.members[i] {
				names[j] = v.snap.Nodes[m].Name
			}
			return names
		}
	}
	return nil
}

// Tapped implements fyne.Tappable: a tap on a node asks for its faults.
func (v *ClusterView) Tapped(ev *fyne.PointEvent) {
	if g := v.CrowdGroupAt(ev.Position); len(g.Clients) > 1 && v.OnTapGroup != nil {
		v.OnTapGroup(g, ev.AbsolutePosition)
		return
	}
	if n := v.NodeAt(ev.Position); n != "" && v.OnTapNode != nil {
		v.OnTapNode(n, ev.AbsolutePosition)
	}
}

// CreateRenderer implements fyne.Widget.
func (v *ClusterView) CreateRenderer() fyne.WidgetRenderer {
	r := &clusterRenderer{v: v,
		links:  NewLinePool(),
		dashes: NewLinePool(),
		nodes:  NewPool(newNodeObjects, (*nodeObjects).all),
		msgs: NewPool(newMsgObjects, func(o *msgObjects) []fyne.CanvasObject {
			return []fyne.CanvasObject{o.pill, o.text}
		}),
		swatch: NewRectPool(),
		legend: NewTextPool(theme.CaptionTextSize(), false),
	}
	r.pools = Pools{r.links, r.dashes, r.nodes, r.msgs, r.swatch, r.legend}
	r.banner, r.bannerT = &canvas.Rectangle{CornerRadius: 4}, NewText(12.5, true)
	r.Refresh()
	return r
}

// box is a node's rectangle in the view.
type box struct {
	pos  fyne.Position
	size fyne.Size
}

// overlaps reports whether b and o share any area.
func (b box) overlaps(o box) bool {
	return b.pos.X < o.pos.X+o.size.Width && o.pos.X < b.pos.X+b.size.Width &&
		b.pos.Y < o.pos.Y+o.size.Height && o.pos.Y < b.pos.Y+b.size.Height
}

func (b box) contains(p fyne.Position) bool {
	return p.X >= b.pos.X && p.Y >= b.pos.Y && p.X < b.pos.X+b.size.Width && p.Y < b.pos.Y+b.size.Height
}

func (b box) center() fyne.Position {
	return fyne.NewPos(b.pos.X+b.size.Width/2, b.pos.Y+b.size.Height/2)
}

// Layout constants of the cluster view.
const (
	clusterMargin  = 12
	clusterLegendH = 20
	clusterBannerH = 26
	nodeMaxW       = 240
	nodeMaxH       = 84
	nodeGap        = 10
	nodeMinH       = 16
)

// The cluster's size at which its boxes and their words are drawn at
// their own sizes (nodeMaxW, the 13-point name): the panel of a 1400×900
// window. A larger panel scales them up, to clusterMaxScale, so a
// 2560×1440 screen is not left with small boxes in a wide empty panel.
const (
	clusterRefW     = 900
	clusterRefH     = 360
	clusterMaxScale = 1.8
)

// clusterScale is how much a cluster view of this size scales its boxes
// and words: 1 up to the reference size, more in a larger one.
func clusterScale(size fyne.Size) float32 {
	return GrowScale(size, fyne.NewSize(clusterRefW, clusterRefH), clusterMaxScale)
}

// GrowScale is how much a picture of size draws its shapes and words
// larger than at ref, the size it is drawn at its own sizes (its panel in
// a 1400×900 window): 1 up to ref, the smaller of the two ratios above
// it, at most most. A picture scales by it so a large screen's panel is
// filled, not left with small shapes in a corner.
func GrowScale(size, ref fyne.Size, most float32) float32 {
	return min(max(min(size.Width/ref.Width, size.Height/ref.Height), 1), most)
}

// MostGrowth is how many times its size a design's state picture grows at
// most (GrowScale), as the cluster does.
const MostGrowth = clusterMaxScale

// clusterLayout places the nodes: clients in a column on the left, servers
// in a column on the right, each column centred vertically.
func clusterLayout(nodes []sim.NodeView, size fyne.Size) []box {
	out := make([]box, len(nodes))
	var clients, servers []int
	for i, n := range nodes {
		if n.Client {
			clients = append(clients, i)
		} else {
			servers = append(servers, i)
		}
	}
	scale := clusterScale(size)
	w, h := clusterColumn(size)
	// column stacks nodes from the top; when they do not fit one above the
	// other at a readable height, they wrap into more columns of tiles.
	column := func(idx []int, x float32) {
		n := len(idx)
		if n == 0 {
			return
		}
		cols, rows, bh, gap := tileGrid(n, w, h)
		bh = max(min(bh, nodeMaxH*scale), 1)
		cw := (w - float32(cols-1)*gap) / float32(cols)
		total := float32(rows)*bh + float32(rows-1)*gap
		y0 := clusterMargin + clusterBannerH + (h-total)/2
		for k, i := range idx {
			r, c := k/cols, k%cols
			out[i] = box{fyne.NewPos(x+float32(c)*(cw+gap), y0+float32(r)*(bh+gap)), fyne.NewSize(cw, bh)}
		}
	}
	column(clients, clusterMargin)
	column(servers, size.Width-clusterMargin-w)
	return out
}

// clusterColumn is the width and height of the clients' column (and the
// servers') in a view of size.
func clusterColumn(size fyne.Size) (w, h float32) {
	w = min(nodeMaxW*clusterScale(size), (size.Width-3*clusterMargin)*0.36)
	w = max(w, 60)
	return w, size.Height - 2*clusterMargin - clusterLegendH - clusterBannerH
}

// tileGrid is how a column w wide and h high stacks n boxes: one above
// the other nodeGap apart when they are at least nodeMinH high so, else
// in cols columns of tiles 2 apart, as many as it takes for a tile to be
// nodeMinH high while it stays 2·nodeMinH wide; bh is a box's height
// before it is capped, gap the space between two.
func tileGrid(n int, w, h float32) (cols, rows int, bh, gap float32) {
	gap = float32(nodeGap)
	cols, rows = 1, n
	bh = (h - float32(rows-1)*gap) / float32(rows)
	if bh < nodeMinH {
		gap = 2
		for cols = 1; ; cols++ {
			rows = (n + cols - 1) / cols
			bh = (h - float32(rows-1)*gap) / float32(rows)
			cw := (w - float32(cols-1)*gap) / float32(cols)
			if bh >= nodeMinH || cw < 2*nodeMinH {
				break
			}
		}
	}
	return cols, rows, bh, gap
}

// linkEnds are the points where the link between nodes a and b leaves
// each box: facing sides for nodes in different columns, bottom and top
// for nodes stacked in one column.
func linkEnds(a, b box) (fyne.Position, fyne.Position) {
	ca, cb := a.center(), b.center()
	switch {
	case a.pos.X+a.size.Width <= b.pos.X:
		return fyne.NewPos(a.pos.X+a.size.Width, ca.Y), fyne.NewPos(b.pos.X, cb.Y)
	case b.pos.X+b.size.Width <= a.pos.X:
		return fyne.NewPos(a.pos.X, ca.Y), fyne.NewPos(b.pos.X+b.size.Width, cb.Y)
	case a.pos.Y < b.pos.Y:
		return fyne.NewPos(ca.X, a.pos.Y+a.size.Height), fyne.NewPos(cb.X, b.pos.Y)
	}
	return fyne.NewPos(ca.X, a.pos.Y), fyne.NewPos(cb.X, b.pos.Y+b.size.Height)
}

// MessagePosition is where a message is drawn at instant at: its share of
// the way from the sender to the receiver, by true time.
func MessagePosition(m sim.MessageView, at fyne.Position, to fyne.Position, now float64) fyne.Position {
	span := float64(m.DeliverAt - m.SentAt)
	f := 1.0
	if span > 0 {
		f = (now - float64(m.SentAt)) / span
	}
	f = math.Max(0, math.Min(1, f))
	return fyne.NewPos(at.X+float32(f)*(to.X-at.X), at.Y+float32(f)*(to.Y-at.Y))
}

// cutBetween reports whether an active partition separates nodes a and b.
func cutBetween(cuts [][]int, a, b int) bool {
	for _, c := range cuts {
		if a < len(c) && b < len(c) && sim.PartitionCuts(c, a, b) {
			return true
		}
	}
	return false
}

// msgObjects are a message pill and its label.
type msgObjects struct {
	pill *canvas.Rectangle
	text *canvas.Text
}

func newMsgObjects() *msgObjects {
	return &msgObjects{pill: &canvas.Rectangle{CornerRadius: 7}, text: NewText(msgTextSize, true)}
}

type clusterRenderer struct {
	v       *ClusterView
	links   *Pool[*canvas.Line]
	dashes  *Pool[*canvas.Line]
	nodes   *Pool[*nodeObjects]
	msgs    *Pool[*msgObjects]
	swatch  *Pool[*canvas.Rectangle]
	legend  *Pool[*canvas.Text]
	pools   Pools
	banner  *canvas.Rectangle
	bannerT *canvas.Text
	objects []fyne.CanvasObject
	// linked is what the links were last placed for: 200 clients to 7
	// servers are 1400 lines, which stay where they are from one instant
	// to the next unless this changes.
	linked linkKey
	// refreshes and relinks count Refresh calls and link placements, so a
	// test can tell a redraw that was not needed.
	refreshes, relinks int

	// The theme and its colours, taken by Refresh; size is the view's
	// size as Layout was last given it, which the drawing places in.
	th        fyne.Theme
	fg        color.Color
	linkColor color.NRGBA
	caption   float32 // the legend\'s words: the theme\'s caption text
	size      fyne.Size
}

// linkKey is what the links depend on: which nodes are clients (the
// layout and the pairs linked), the partitions (cut links are dashed),
// the view's size and the links' colour (the theme).
type linkKey struct {
	clients []bool
	kinds   []crowdKind // a crowd's groups (clusterShape.kinds)
	cuts    [][]int
	size    fyne.Size
	color   color.NRGBA
	set     bool
}

// same reports whether the links placed for k hold for snapshot s at size
// in colour c.
func (k linkKey) same(s *sim.Snapshot, shape clusterShape, size fyne.Size, c color.NRGBA) bool {
	if !slices.Equal(k.kinds, shape.kinds) {
		return false
	}
	if !k.set || k.size != size || k.color != c || len(k.clients) != len(s.Nodes) || len(k.cuts) != len(s.Cuts) {
		return false
	}
	for i, n := range s.Nodes {
		if k.clients[i] != n.Client {
			return false
		}
	}
	for i, c := range s.Cuts {
		if !slices.Equal(k.cuts[i], c) {
			return false
		}
	}
	return true
}

// linkKeyOf is the key the links of s at size in colour c are placed for.
func linkKeyOf(s *sim.Snapshot, shape clusterShape, size fyne.Size, c color.NRGBA) linkKey {
	k := linkKey{kinds: slices.Clone(shape.kinds), size: size, color: c, set: true, clients: make([]bool, len(s.Nodes)), cuts: make([][]int, len(s.Cuts))}
	for i, n := range s.Nodes {
		k.clients[i] = n.Client
	}
	for i, cut := range s.Cuts {
		k.cuts[i] = slices.Clone(cut)
	}
	return k
}

func (r *clusterRenderer) Destroy() {}

func (r *clusterRenderer) MinSize() fyne.Size { return fyne.NewSize(360, 130) }

func (r *clusterRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Refresh takes the theme and its colours for the snapshot on show, then
// lays it out.
func (r *clusterRenderer) Refresh() {
	r.refreshes++
	r.th = r.v.Theme()
	r.fg = ThemeColor(r.th, theme.ColorNameForeground)
	r.linkColor = Fade(toNRGBA(ThemeColor(r.th, theme.ColorNameDisabled)), 0.55)
	r.caption = r.th.Size(theme.SizeNameCaptionText)
	r.Layout(r.v.Size())
}

// Layout places every object for the snapshot on show in size; objects
// are made only when a pool has to grow, and the links are placed again
// only when what they depend on changed (linkKey).
func (r *clusterRenderer) Layout(size fyne.Size) {
	r.size = size
	for _, p := range r.pools {
		if p != r.links && p != r.dashes {
			p.Reset()
		}
	}
	if s := r.v.snap; s != nil {
		r.draw(s)
	} else {
		r.links.Reset()
		r.dashes.Reset()
		r.linked = linkKey{}
	}
	if objs := r.pools.Finish(); objs != nil || r.objects == nil {
		r.objects = append(r.pools.All(), r.banner, r.bannerT)
		Repaint(r.v)
	}
}

// draw places the snapshot's nodes, links, messages, legend and banner in
// the size Layout was given.
func (r *clusterRenderer) draw(s *sim.Snapshot) {
	th, fg, linkColor := r.th, r.fg, r.linkColor
	// A crowd of clients is drawn as its groups (clusterShapeOf): boxes,
	// links and messages are the shape's, a message from or to a client
	// drawn from or to its group's box.
	shape := clusterShapeOf(s.Nodes, r.size)
	nodes := shape.nodes
	boxes := clusterLayout(nodes, r.size)

	// Links: every client to every server, and servers stacked next to
	// each other (replication, ensembles); placed again only when what
	// they depend on changed.
	if !r.linked.same(s, shape, r.size, linkColor) {
		r.relinks++
		r.linked = linkKeyOf(s, shape, r.size, linkColor)
		r.links.Reset()
		r.dashes.Reset()
		r.drawLinks(s, shape, boxes, linkColor)
	}

	k := clusterScale(r.size) // a large panel's boxes and words grow together
	for i, n := range nodes {
		r.nodes.Next().place(nodeGeometryOf(n, shape.lines[i], boxes[i], k, th, fg))
	}

	now := float64(s.At)
	aisleL, aisleR := aisle(nodes, boxes)
	var pills []box // the labels placed so far
	for _, m := range s.InFlight {
		if m.From < 0 || m.To < 0 || m.From >= len(s.Nodes) || m.To >= len(s.Nodes) {
			continue
		}
		a, b := shape.drawnOf[m.From], shape.drawnOf[m.To]
		from, to := linkEnds(boxes[a], boxes[b])
		p := MessagePosition(m, from, to, now)
		o := r.msgs.Next()
		ResizeText(o.text, msgTextSize*clusterScale(r.size))
		lo, hi := min(from.X, to.X), max(from.X, to.X)
		if s.Nodes[m.From].Client != s.Nodes[m.To].Client {
			lo, hi = aisleL, aisleR
		}
		sz := messageSize(o, m.Label())
		p = clearOfBoxes(p, from, to, sz, boxes[a], boxes[b], lo, hi)
		p = clearOfLabels(p, sz, pills, boxes, r.size.Height)
		pills = append(pills, box{pos: p.SubtractXY(sz.Width/2, sz.Height/2), size: sz})
		r.drawMessage(o, m.Label(), p, messageColor(s.Nodes[m.From], s.Nodes[m.To]))
	}
	r.drawLegend(fg)
	r.drawBanner(s)
}

// drawLinks places the link of every client to every server, and of
// servers stacked next to each other; a partitioned one dashed.
func (r *clusterRenderer) drawLinks(s *sim.Snapshot, shape clusterShape, boxes []box, linkColor color.NRGBA) {
	type link struct{ a, b int }
	var links []link
	prevServer := -1
	for i, n := range shape.nodes {
		if n.Client {
			continue
		}
		for j, c := range shape.nodes {
			if c.Client {
				links = append(links, link{j, i})
			}
		}
		if prevServer >= 0 {
			links = append(links, link{prevServer, i})
		}
		prevServer = i
	}
	for _, l := range links {
		a, b := linkEnds(boxes[l.a], boxes[l.b])
		if shape.cut(s.Cuts, l.a, l.b) {
			r.drawCut(a, b)
			continue
		}
		PlaceLine(r.links.Next(), a, b, linkColor, 1)
	}
}

// Holders lists the clients that believe they hold the lock.
func Holders(s *sim.Snapshot) []string {
	var out []string
	for _, n := range s.Nodes {
		if n.Client && n.State == sim.StateHolding {
			out = append(out, n.Name)
		}
	}
	return out
}

// drawBanner warns, in words, when more than one client holds the lock.
func (r *clusterRenderer) drawBanner(s *sim.Snapshot) {
	h := Holders(s)
	if len(h) < 2 {
		r.banner.Hide()
		r.bannerT.Hide()
		return
	}
	text := i18n.F(LeaderWords("cluster.banner", s.Metrics.Election), "n", len(h), "clients", strings.Join(h, ", "))
	w := TextWidth(text, r.bannerT.TextSize, true) + 20
	x := max((r.size.Width-w)/2, 0)
	// The banner takes the verdict's colour: amber while no stale write was
	// accepted, as the metrics strip says the data is still safe.
	state, ink := StateOf(s.Metrics), color.Color(color.White)
	if state == VerdictOverlap {
		ink = color.Black
	}
	PlaceRect(r.banner, fyne.NewPos(x, 4), fyne.NewSize(w, 22), state.Color())
	PlaceText(r.bannerT, text, fyne.NewPos(x+10, 6), ink)
}

// messageColor tells requests, replies and server-to-server traffic apart.
func messageColor(from, to sim.NodeView) color.NRGBA {
	switch {
	case from.Client:
		return color.NRGBA{R: 0x3E, G: 0x4C, B: 0x5E, A: 0xFF}
	case to.Client:
		return ColorReply
	}
	return ColorServerLink
}

// drawCut draws a partitioned link dashed, with a cross at its middle.
func (r *clusterRenderer) drawCut(a, b fyne.Position) {
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	length := math.Hypot(dx, dy)
	if length < 1 {
		return
	}
	ux, uy := dx/length, dy/length
	const dash, gap = 6.0, 5.0
	for d := 0.0; d < length; d += dash + gap {
		e := math.Min(d+dash, length)
		p1 := fyne.NewPos(a.X+float32(ux*d), a.Y+float32(uy*d))
		p2 := fyne.NewPos(a.X+float32(ux*e), a.Y+float32(uy*e))
		PlaceLine(r.dashes.Next(), p1, p2, Fade(ColorFault, 0.8), 1.5)
	}
	m := fyne.NewPos((a.X+b.X)/2, (a.Y+b.Y)/2)
	const k = 6
	PlaceLine(r.dashes.Next(), m.SubtractXY(k, k), m.AddXY(k, k), ColorFault, 3)
	PlaceLine(r.dashes.Next(), m.AddXY(-k, k), m.AddXY(k, -k), ColorFault, 3)
}

// msgTextSize is the size of a message's label in a cluster of the
// reference size (clusterScale).
const msgTextSize = 10.5

// messageSize is the size of a message's label (its pill): 16 points
// high for the 10.5-point label, more for a larger one.
func messageSize(o *msgObjects, label string) fyne.Size {
	return fyne.NewSize(TextWidth(label, o.text.TextSize, true)+12, 16*o.text.TextSize/msgTextSize)
}

// aisle is the x range between the clients' boxes and the servers': no
// box lies in it, whatever the columns of tiles either side wraps into.
func aisle(nodes []sim.NodeView, boxes []box) (left, right float32) {
	left, right = float32(math.Inf(1)), float32(math.Inf(-1))
	for i, n := range nodes {
		b := boxes[i]
		if n.Client {
			right = max(right, b.pos.X+b.size.Width)
		} else {
			left = min(left, b.pos.X)
		}
	}
	return right, left
}

// clearOfBoxes moves a message's label, of size sz centred at p on the link
// from → to between boxes a and b, where it covers no node's text: within
// lo..hi, the stretch of the link no box lies over (between a client and
// a server, the aisle between their columns: a link from a client in the
// first of two columns of tiles crosses the second, where ZooKeeper's
// CONNECT covered client-2 at 1024×768), it slides along the link until
// it clears them; on a link between two nodes stacked in one column, or
// in two columns closer than the label is wide (ZooKeeper's servers side
// by side in a 1024-point window), it stands beside the pair, at the same
// height.
func clearOfBoxes(p, from, to fyne.Position, sz fyne.Size, a, b box, lo, hi float32) fyne.Position {
	const gap = 3
	beside := func() fyne.Position {
		x := min(a.pos.X, b.pos.X) - sz.Width/2 - gap
		if x-sz.Width/2 < 0 {
			x = max(a.pos.X+a.size.Width, b.pos.X+b.size.Width) + sz.Width/2 + gap
		}
		return fyne.NewPos(x, p.Y)
	}
	if from.X == to.X { // stacked in one column
		return beside()
	}
	lo, hi = lo+sz.Width/2+gap, hi-sz.Width/2-gap
	if lo > hi { // the columns are closer than the label is wide
		return beside()
	}
	x := min(max(p.X, lo), hi)
	f := (x - from.X) / (to.X - from.X)
	return fyne.NewPos(x, from.Y+f*(to.Y-from.Y))
}

// clearOfLabels moves a message's label, of size sz centred at p, up or
// down by whole labels until it covers no label placed before it (pills)
// and no node (boxes), within the panel's height: a leader's heartbeats
// to two followers, sent at once, stood one on the other beside the
// pair. Where no such place is near, the label stays at p.
func clearOfLabels(p fyne.Position, sz fyne.Size, pills, boxes []box, height float32) fyne.Position {
	const gap = 2
	at := func(q fyne.Position) box { return box{pos: q.SubtractXY(sz.Width/2, sz.Height/2), size: sz} }
	if !overlapsAny(at(p), pills) {
		return p
	}
	for i := 1; i <= 4; i++ {
		for _, dir := range []float32{1, -1} {
			q := at(p.AddXY(0, dir*float32(i)*(sz.Height+gap)))
			if q.pos.Y >= 0 && q.pos.Y+sz.Height <= height && !overlapsAny(q, pills) && !overlapsAny(q, boxes) {
				return q.center()
			}
		}
	}
	return p
}

// overlapsAny reports whether b overlaps any of others.
func overlapsAny(b box, others []box) bool {
	for _, o := range others {
		if b.overlaps(o) {
			return true
		}
	}
	return false
}

func (r *clusterRenderer) drawMessage(o *msgObjects, label string, at fyne.Position, c color.NRGBA) {
	sz := messageSize(o, label)
	tw, w, h := sz.Width-12, sz.Width, sz.Height
	PlaceRect(o.pill, at.SubtractXY(w/2, h/2), fyne.NewSize(w, h), c)
	th := o.text.MinSize().Height
	PlaceText(o.text, label, at.SubtractXY(tw/2, th/2), color.White)
}

func (r *clusterRenderer) drawLegend(fg color.Color) {
	size := r.size
	x := float32(clusterMargin)
	y := size.Height - clusterLegendH + 2
	items := []struct {
		label string
		c     color.NRGBA
	}{
		{i18n.T("cluster.legend.request"), messageColor(sim.NodeView{Client: true}, sim.NodeView{})},
		{i18n.T("cluster.legend.reply"), ColorReply},
		{i18n.T("cluster.legend.servers"), ColorServerLink},
		{i18n.T("cluster.legend.partition"), ColorFault},
	}
	for _, it := range items {
		PlaceRect(r.swatch.Next(), fyne.NewPos(x, y+3), fyne.NewSize(12, 10), it.c)
		t := r.legend.Next()
		ResizeText(t, r.caption)
		PlaceText(t, it.label, fyne.NewPos(x+16, y), fg)
		x += 16 + t.MinSize().Width + 16
	}
}
