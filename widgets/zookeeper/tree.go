// Package zookeeper is the ZooKeeper lock's side of the window, one folder
// as its simulation is (sim/zookeeper): its state picture (ZNodeTree: the
// lock znode's children, sessions and watches), its tab (tab.go: the
// sliders and toggles only it shows), the value Tab, which the list of
// designs (package designs) installs at start.
package zookeeper

import (
	"fmt"
	"image/color"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	zookeepersim "github.com/lockscope/lockscope/sim/zookeeper"
	"github.com/lockscope/lockscope/widgets"
)

// ZNodeTree is the ZooKeeper picture: the ensemble's state (its leader,
// epoch and last zxid, or an election in progress), the lock znode
// /locks/mylock with its ephemeral sequential children in sequence order —
// each with its sequence number, owner and session, the lowest marked as
// the holder — watch arrows from each waiter's znode to the znode it
// watches (to /locks/mylock itself with the herd recipe), and every
// client's session with its Curator connection state and the leader's
// expiry timer. The tree is the one the leader has committed (during an
// election, that of the live server that has committed the most), so a
// znode appears when its create commits and vanishes when its delete or
// its session's closeSession does.
type ZNodeTree struct {
	widget.BaseWidget

	widgets.OnShow

	renderer *zkRenderer // its model, for DrawnHeight
}

// NewZNodeTree returns an empty znode picture; SetSnapshot fills it.
func NewZNodeTree() *ZNodeTree {
	t := &ZNodeTree{}
	t.ExtendBaseWidget(t)
	return t
}

// SetSnapshot shows the ZooKeeper view of a snapshot (mode "zookeeper");
// any other snapshot draws nothing.
func (t *ZNodeTree) SetSnapshot(s *sim.Snapshot) {
	// A new instant has something new: the sessions' expiry counts down.
	if t.Take(s) {
		t.Refresh()
	}
}

// WatchParent is what WatchTarget returns for a watch on the lock znode
// itself (the herd recipe's getChildren watch).
const WatchParent = -1

// WatchNone is what WatchTarget returns for a watch on a path that is
// neither the lock znode nor one of its children.
const WatchNone = -2

// WatchTarget is the index in v.Children of the znode a watch is set on,
// WatchParent for the lock znode itself, WatchNone for anything else.
func WatchTarget(v *zookeepersim.View, w sim.Watch) int {
	if w.Path == v.Parent {
		return WatchParent
	}
	name, ok := strings.CutPrefix(w.Path, v.Parent+"/")
	if !ok {
		return WatchNone
	}
	for i, c := range v.Children {
		if c.Name == name {
			return i
		}
	}
	return WatchNone
}

// WatchSource is the index in v.Children of the znode a waiting client
// queues with: its own child with the highest sequence (an older one
// belongs to a session on its way out), −1 when it has none.
func WatchSource(v *zookeepersim.View, client string) int {
	src := -1
	for i, c := range v.Children {
		if c.Owner == client && (src < 0 || c.Seq > v.Children[src].Seq) {
			src = i
		}
	}
	return src
}

// zkLanes gives each arrow, spanning rows [from, to] (from ≤ to), the
// lowest lane in which it overlaps no other arrow, endpoints included, so
// arrows that meet at a row never share a vertical stroke. It returns the
// lanes and how many there are.
func zkLanes(spans [][2]int) ([]int, int) {
	order := make([]int, len(spans))
	for i := range order {
		order[i] = i
	}
	return widgets.AssignLanes(order, func(i, j int) bool {
		return spans[i][0] <= spans[j][1] && spans[j][0] <= spans[i][1]
	})
}

// zkShortName shortens a protected znode name for display: the guid of
// Curator's _c_<guid>-<name><seq> keeps its first four digits, so the
// prefix still tells nodes apart, and the recipe's name and the sequence
// stay whole (the lock's lock-0000000003, LeaderLatch's latch-0000000002,
// a read lock's __READ__0000000001).
func zkShortName(name string) (prefix, seq string) {
	i := -1
	for _, n := range []string{zookeepersim.LockName, zookeepersim.LatchName, zookeepersim.ReadName, zookeepersim.WriteName} {
		i = max(i, strings.LastIndex(name, n))
	}
	if i < 0 {
		return "", name
	}
	prefix, seq = name[:i], name[i:]
	if g, ok := strings.CutPrefix(prefix, "_c_"); ok && len(g) > 5 {
		prefix = "_c_" + g[:4] + "…-"
	}
	return prefix, seq
}

// zkOrdinal writes 1st, 2nd, 3rd, 4th… for a place in the queue.
func zkOrdinal(n int) string {
	key := "zk.ordinal.th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			key = "zk.ordinal.st"
		case 2:
			key = "zk.ordinal.nd"
		case 3:
			key = "zk.ordinal.rd"
		}
	}
	return i18n.F(key, "n", n)
}

// zkClip shortens s with an ellipsis until it fits width, as FitText
// does, but leaves nothing rather than a lone "…" (or a width of none).
func zkClip(s string, width, size float32, bold bool) string {
	if width <= 0 {
		return ""
	}
	if t := widgets.FitText(s, size, bold, width); t != "…" || s == "…" {
		return t
	}
	return ""
}

// SessionStateColor is the colour of a Curator connection state's pill;
// the state's name is always written in it.
func SessionStateColor(state string) color.NRGBA {
	switch state {
	case zookeepersim.SessionConnected:
		return widgets.ColorReply
	case zookeepersim.SessionSuspended:
		return widgets.ColorWaiting
	case zookeepersim.SessionLost:
		return widgets.ColorViolation
	}
	return widgets.ColorIdle
}

// zkSessionOf is the session a client is on: its only one, or when an old
// one is still on its way out, the one its connection names.
func zkSessionOf(v *zookeepersim.View, client sim.NodeView) (zookeepersim.ZSession, bool) {
	var found []zookeepersim.ZSession
	for _, s := range v.Sessions {
		if s.Owner == client.Name {
			found = append(found, s)
		}
	}
	if len(found) == 0 {
		return zookeepersim.ZSession{}, false
	}
	for _, s := range found {
		if strings.Contains(client.Detail, fmt.Sprintf("%#x", s.ID)) {
			return s, true
		}
	}
	return found[len(found)-1], true
}

// zkOwnerNote says how the owner of the holder's znode stands when the
// znode alone would mislead: it has not been told yet, or it has stopped
// working (SUSPENDED with respectSuspended, or between rounds).
func zkOwnerNote(c zookeepersim.ZNode, owner sim.NodeView) string {
	if !c.Holder || !owner.Client || owner.Crashed {
		return ""
	}
	switch owner.State {
	case sim.StateWaiting:
		return i18n.T("zk.notTold")
	case sim.StateIdle, sim.StateDone:
		return i18n.T("zk.notWorking")
	}
	return ""
}

// zkSessionNote is the session's timer in words: when the leader expires
// it, and what the client's own side says when its connection is down.
func zkSessionNote(z *zookeepersim.View, c sim.NodeView, sess zookeepersim.ZSession, ok bool) string {
	return zkSessionNoteIn(z, c, sess, ok, false)
}

// zkSessionNoteIn is zkSessionNote, in short (without the timeout beside
// the time left) when short is set: the session line of a narrow panel.
func zkSessionNoteIn(z *zookeepersim.View, c sim.NodeView, sess zookeepersim.ZSession, ok, short bool) string {
	var parts []string
	switch {
	case c.Crashed:
		parts = append(parts, i18n.T("cluster.crashed"))
	case c.Paused:
		parts = append(parts, i18n.F("cluster.pausedUntil", "t", widgets.FormatTime(c.Resume)))
	}
	if !c.Crashed && c.Detail != "" && (c.Session == zookeepersim.SessionSuspended || c.Session == zookeepersim.SessionLost || !ok) {
		// The pill beside it already names the state.
		parts = append(parts, strings.TrimPrefix(widgets.Say(c.DetailWords, c.Detail), c.Session+" "))
	}
	switch {
	case !ok:
	case sess.Closing:
		parts = append(parts, i18n.T("zk.session.closing"))
	case z.Electing || z.Leader == "":
		parts = append(parts, i18n.T("zk.session.onHold"))
	case short:
		parts = append(parts, i18n.F("zk.session.expiresInShort", "left", widgets.FormatTime(sess.Left)))
	default:
		parts = append(parts, i18n.F("zk.session.expiresIn", "left", widgets.FormatTime(sess.Left), "timeout", widgets.ShortTime(sess.Timeout)))
	}
	return strings.Join(parts, " · ")
}

// zkSessionFraction is the share of a session's timeout left before the
// leader expires it, 0 to 1: the length of its bar.
func zkSessionFraction(s zookeepersim.ZSession) float32 {
	if s.Timeout <= 0 || s.Left <= 0 || s.Closing {
		return 0
	}
	return float32(min(1, float64(s.Left)/float64(s.Timeout)))
}

// CreateRenderer implements fyne.Widget.
func (t *ZNodeTree) CreateRenderer() fyne.WidgetRenderer {
	// The small print (a session's id and timer, a znode's path prefix,
	// badge and remark) is the theme's caption text.
	caption := t.Theme().Size(theme.SizeNameCaptionText)
	r := &zkRenderer{t: t, caption: caption,
		band:       &canvas.Rectangle{CornerRadius: 4},
		bandText:   widgets.NewText(zkBandSize, true),
		bandText2:  widgets.NewText(zkBandSize, true),
		parent:     &canvas.Rectangle{CornerRadius: 5},
		parentName: widgets.NewText(zkParentSize, true),
		parentNote: widgets.NewText(zkNoteSize, false),
		trunk:      widgets.NewLinePool(),
		rows:       widgets.NewPool(func() *znodeObjects { return newZNodeObjects(caption) }, (*znodeObjects).all),
		arrows:     widgets.NewLinePool(),
		others:     widgets.NewPool(func() *zsessionObjects { return newZSessionObjects(caption) }, (*zsessionObjects).all),
		notes:      widgets.NewTextPool(zkNoteSize, false),
		warnings:   widgets.NewTextPool(zkNoteSize, true),
	}
	r.pools = widgets.Pools{r.trunk, r.rows, r.arrows, r.others, r.notes, r.warnings}
	t.renderer = r
	r.Refresh()
	return r
}

// rowBox is a znode's rectangle in the picture.
type rowBox struct {
	pos  fyne.Position
	size fyne.Size
}

type zkRenderer struct {
	t *ZNodeTree
	// refreshes counts redraws, so a test can tell one that was not needed;
	// builds counts the model's, so one can tell a resize did none.
	refreshes, builds      int
	model                  *zkModel    // of the snapshot shown; nil without a ZooKeeper view
	fg, muted              color.Color // the theme's, as of the last Refresh
	pad                    float32     // the theme's inner padding: the text's inset in a box, times k
	k                      float32     // the picture's scale (zkGeometry.k)
	caption                float32     // the small print's size at scale 1: the theme's caption text, as of the last Refresh
	band, parent           *canvas.Rectangle
	bandText, bandText2    *canvas.Text // the band's line, and its second where it wraps
	parentName, parentNote *canvas.Text
	trunk, arrows          *widgets.Pool[*canvas.Line]
	rows                   *widgets.Pool[*znodeObjects]
	others                 *widgets.Pool[*zsessionObjects]
	notes, warnings        *widgets.Pool[*canvas.Text]
	pools                  widgets.Pools
	objects                []fyne.CanvasObject

	// Geometry of the last frame, for tests: the lock znode's box, each
	// drawn child's in sequence order, and the watch arrows' end points.
	parentBox rowBox
	rowBoxes  []rowBox
	watches   [][2]fyne.Position
}

func (r *zkRenderer) Destroy() {}

// Layout places the pooled objects of the stored model in size; objects
// are made only when a pool has to grow.
func (r *zkRenderer) Layout(size fyne.Size) {
	r.pools.Reset()
	r.rowBoxes, r.watches = r.rowBoxes[:0], r.watches[:0]
	if r.model != nil {
		r.draw(size)
	} else {
		for _, o := range r.fixed() {
			o.Hide()
		}
	}
	if objs := r.pools.Finish(); objs != nil || r.objects == nil {
		r.objects = append(r.fixed(), r.pools.All()...)
		widgets.Repaint(r.t)
	}
}

func (r *zkRenderer) MinSize() fyne.Size {
	em := widgets.TextScale(r.t.Theme())
	return fyne.NewSize(zkMinW*em, zkMinH*em)
}

func (r *zkRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *zkRenderer) fixed() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.band, r.bandText, r.bandText2, r.parent, r.parentName, r.parentNote}
}

// Refresh works out the model of the snapshot shown (SetSnapshot calls it
// only for a new instant) and the theme's colours, then lays them out.
func (r *zkRenderer) Refresh() {
	r.refreshes++
	r.model = nil
	if zk := zookeepersim.ViewOf(r.t.Shown()); zk != nil {
		r.builds++
		m := buildZKModel(r.t.Shown(), zk)
		r.model = &m
	}
	th := r.t.Theme()
	r.fg = widgets.ThemeColor(th, theme.ColorNameForeground)
	r.muted = widgets.ThemeColor(th, theme.ColorNamePlaceHolder)
	r.caption = th.Size(theme.SizeNameCaptionText)
	r.Layout(r.t.Size())
}

// zkArrow is a watch from the znode of row from to row to (or WatchParent).
type zkArrow struct{ from, to, lane int }

// zkModel is what the tree shows of a snapshot, worked out before any
// size is known: the view with its children in sequence order, the
// clients (those without a znode apart), the broken beliefs, the watch
// events in flight, the watch arrows with their lanes, and the band.
type zkModel struct {
	z        zookeepersim.View
	byName   map[string]sim.NodeView
	others   []sim.NodeView // clients without a znode
	warnings []string       // clients that believe they hold a lock they lost
	fired    []string       // clients a watch event is travelling to
	arrows   []zkArrow
	lanes    []int
	nLanes   int
	herd     bool // a watch on the lock znode itself
	bandText string
}

// buildZKModel works out the model of the snapshot s and its view zk.
func buildZKModel(s *sim.Snapshot, zk *zookeepersim.View) zkModel {
	m := zkModel{z: *zk, byName: map[string]sim.NodeView{}}
	z := &m.z
	z.Children = append([]zookeepersim.ZNode(nil), zk.Children...)
	sort.SliceStable(z.Children, func(i, j int) bool { return z.Children[i].Seq < z.Children[j].Seq })
	var clients []sim.NodeView
	for _, n := range s.Nodes {
		m.byName[n.Name] = n
		if n.Client {
			clients = append(clients, n)
			if WatchSource(z, n.Name) < 0 {
				m.others = append(m.others, n)
			}
		}
	}
	m.warnings = zkBrokenBeliefs(z, clients)
	m.fired = zkFiredWatches(s)

	var spans [][2]int
	for _, w := range z.Watches {
		to, from := WatchTarget(z, w), WatchSource(z, w.Client)
		if to == WatchNone || from < 0 || from == to {
			continue
		}
		m.herd = m.herd || to == WatchParent
		m.arrows = append(m.arrows, zkArrow{from: from, to: to})
		spans = append(spans, [2]int{min(from, to), max(from, to)})
	}
	m.lanes, m.nLanes = zkLanes(spans)
	m.bandText = zkBandText(z, s)
	return m
}

// draw places the tree's objects from the stored model and its geometry
// in size.
func (r *zkRenderer) draw(size fyne.Size) {
	th := r.t.Theme()
	fg, muted, m := r.fg, r.muted, r.model
	g := zkLayout(*m, size, th)
	r.pad, r.k = g.pad, g.k
	k, caption := g.k, r.caption*g.grow
	widgets.ResizeTexts(k, map[*canvas.Text]float32{r.bandText: zkBandSize, r.bandText2: zkBandSize,
		r.parentName: zkParentSize, r.parentNote: zkNoteSize})
	z := &m.z
	n := len(z.Children)
	right, rowH, shown := g.right, g.rowH, g.shown

	r.drawBand(z, g.band, g.bandH, size.Width, fg)
	y := g.bandH + zkGap*k

	// The lock znode.
	r.parentBox = rowBox{fyne.NewPos(0, y), fyne.NewSize(right, zkParentH*k)}
	widgets.PlaceBox(r.parent, r.parentBox.pos, r.parentBox.size, widgets.Fade(widgets.ColorServerLink, 0.10), widgets.Fade(widgets.ColorServerLink, 0.7), 1.5*k)
	widgets.PlaceText(r.parentName, z.Parent, fyne.NewPos(r.pad, y+zkParentTextY*k), fg)
	note := i18n.F("zk.parent.children", "n", n)
	switch n {
	case 0:
		note = i18n.T("zk.parent.free")
	case 1:
		note = i18n.T("zk.parent.one")
	}
	switch {
	case m.herd:
		note += " · " + i18n.T("zk.parent.herd")
	case z.ReadWrite:
		note += " · " + i18n.T("zk.parent.readWrite")
	case len(m.arrows) > 0:
		note += " · " + i18n.T("zk.parent.predecessor")
	}
	nx := r.pad + r.parentName.MinSize().Width + zkParentNoteGap*k
	widgets.PlaceText(r.parentNote, zkClip(note, right-nx-r.pad, r.parentNote.TextSize, false), fyne.NewPos(nx, y+zkParentNoteY*k), muted)
	y += (zkParentH + zkGap) * k

	// The children, in sequence order, hanging from a trunk.
	trunkX := float32(zkIndent/2) * k
	lastCenter := float32(-1)
	held := 0 // holders above: several readers may hold at once
	for i, c := range z.Children[:shown] {
		place := i - max(held-1, 0) // its place: the first waiter is 1st in line
		if c.Holder {
			held++
		}
		b := rowBox{fyne.NewPos(zkIndent*k, y), fyne.NewSize(right-zkIndent*k, rowH)}
		r.rowBoxes = append(r.rowBoxes, b)
		owner := m.byName[c.Owner]
		sess, ok := zkSessionOf(z, owner)
		o := r.rows.Next()
		o.resize(k, caption)
		o.place(znodeGeometry(z, c, place, b, owner, sess, ok, zkRowLook{k: k, pad: r.pad, caption: caption, th: th, fg: fg, muted: muted}))
		lastCenter = y + rowH/2
		widgets.PlaceLine(r.trunk.Next(), fyne.NewPos(trunkX, lastCenter), fyne.NewPos(zkIndent*k, lastCenter), muted, k)
		y += rowH + zkRowGap*k
	}
	if lastCenter >= 0 {
		widgets.PlaceLine(r.trunk.Next(), fyne.NewPos(trunkX, r.parentBox.pos.Y+zkParentH*k), fyne.NewPos(trunkX, lastCenter), muted, k)
	}
	if shown < n {
		widgets.PlaceText(r.note(), i18n.F("zk.moreChildren", "n", n-shown),
			fyne.NewPos(zkIndent*k, y), muted)
		y += zkLineH * k
	}

	r.drawArrows(m.arrows, m.lanes, shown, right, g.laneW)

	if fired := m.fired; len(fired) > 0 {
		text := i18n.F("zk.watchEvents", "n", len(fired), "clients", strings.Join(fired, ", "))
		if len(fired) == 1 {
			text = i18n.F("zk.watchEvent", "client", fired[0])
		}
		widgets.PlaceText(r.note(), zkClip(text, size.Width-zkIndent*k, zkNoteSize*k, false), fyne.NewPos(zkIndent*k, y),
			widgets.Readable(widgets.ColorWaiting, th))
		y += zkLineH * k
	}
	for _, w := range m.warnings {
		t := r.warnings.Next()
		widgets.ResizeText(t, zkNoteSize*k)
		widgets.PlaceText(t, zkClip(w, size.Width, zkNoteSize*k, true), fyne.NewPos(0, y), widgets.Readable(widgets.ColorViolation, th))
		y += zkLineH * k
	}
	others, shownOthers := m.others, g.shownOthers
	for i, c := range others[:shownOthers] {
		if i == shownOthers-1 && shownOthers < len(others) {
			widgets.PlaceText(r.note(), i18n.F("zk.moreClients", "n", len(others)-i), fyne.NewPos(0, y), muted)
			break
		}
		o := r.others.Next()
		o.resize(k, caption)
		r.drawOther(o, z, c, y, size.Width, caption, fg, muted)
		y += zkLineH * k
	}
}

// note is the next line of small print under the children, at the
// picture's scale.
func (r *zkRenderer) note() *canvas.Text {
	t := r.notes.Next()
	widgets.ResizeText(t, zkNoteSize*r.k)
	return t
}

// drawArrows draws the watches in lanes right of the rows: out of the
// waiter's row low, into the watched row high (or into the lock znode,
// spread along its side, with the herd recipe).
func (r *zkRenderer) drawArrows(arrows []zkArrow, lanes []int, shown int, right, laneW float32) {
	herd := 0
	for _, a := range arrows {
		if a.from < shown && a.to == WatchParent {
			herd++
		}
	}
	herdAt := 0
	for i, a := range arrows {
		if a.from >= shown || a.to >= shown {
			continue
		}
		src := r.rowBoxes[a.from]
		start := fyne.NewPos(right, src.pos.Y+src.size.Height*0.7)
		var end fyne.Position
		if a.to == WatchParent {
			f := float32(0.5)
			if herd > 1 {
				f = 0.2 + 0.6*float32(herdAt)/float32(herd-1)
			}
			herdAt++
			end = fyne.NewPos(right, r.parentBox.pos.Y+r.parentBox.size.Height*f)
		} else {
			dst := r.rowBoxes[a.to]
			end = fyne.NewPos(right, dst.pos.Y+dst.size.Height*0.3)
		}
		k := r.k
		x := right + zkLaneStart*k + float32(lanes[i])*laneW + laneW/2
		c := widgets.ColorWaiting
		widgets.PlaceLine(r.arrows.Next(), start, fyne.NewPos(x, start.Y), c, 1.5*k)
		widgets.PlaceLine(r.arrows.Next(), fyne.NewPos(x, start.Y), fyne.NewPos(x, end.Y), c, 1.5*k)
		widgets.PlaceLine(r.arrows.Next(), fyne.NewPos(x, end.Y), end, c, 1.5*k)
		widgets.PlaceLine(r.arrows.Next(), end, end.AddXY(zkArrowHeadL*k, -zkArrowHeadW*k), c, 1.5*k)
		widgets.PlaceLine(r.arrows.Next(), end, end.AddXY(zkArrowHeadL*k, zkArrowHeadW*k), c, 1.5*k)
		r.watches = append(r.watches, [2]fyne.Position{start, end})
	}
}

// drawBand is the ensemble's state, on one line or two (lines).
func (r *zkRenderer) drawBand(z *zookeepersim.View, lines []string, h, width float32, fg color.Color) {
	fill, stroke := widgets.Fade(widgets.ColorServerLink, 0.14), widgets.Fade(widgets.ColorServerLink, 0.5)
	if z.Electing {
		fill, stroke = widgets.Fade(widgets.ColorFault, 0.30), widgets.ColorFault
	}
	k := r.k
	widgets.PlaceBox(r.band, fyne.NewPos(0, 0), fyne.NewSize(width, h), fill, stroke, k)
	widgets.PlaceText(r.bandText, lines[0], fyne.NewPos(r.pad, zkBandTextY*k), fg)
	if len(lines) > 1 {
		widgets.PlaceText(r.bandText2, zkClip(lines[1], width-2*r.pad, zkBandSize*k, true), fyne.NewPos(r.pad, (zkBandTextY+zkBandLineH)*k), fg)
	} else {
		r.bandText2.Hide()
	}
}

// zkBandText is the band's words: the leader, its epoch and zxid and the
// quorum a write needs, or the election; and the servers not serving.
func zkBandText(z *zookeepersim.View, s *sim.Snapshot) string {
	var text string
	if z.Electing {
		text = i18n.F("zk.band.election", "zxid", fmt.Sprintf("%#x", z.Zxid))
	} else {
		text = i18n.F("zk.band.leader", "leader", z.Leader, "epoch", z.Epoch, "zxid", fmt.Sprintf("%#x", z.Zxid),
			"quorum", z.Quorum, "n", len(z.Servers))
	}
	var down []string
	for _, sv := range z.Servers {
		if !sv.Serving && sv.Node >= 0 && sv.Node < len(s.Nodes) {
			down = append(down, s.Nodes[sv.Node].Name)
		}
	}
	if len(down) > 0 && len(down) < len(z.Servers) {
		text += " · " + i18n.F("zk.band.notServing", "servers", strings.Join(down, ", "))
	}
	return text
}

// zkFiredWatches names the clients a watch event is travelling to: the
// watches that fired and are not set again yet.
func zkFiredWatches(s *sim.Snapshot) []string {
	var out []string
	for _, m := range s.InFlight {
		if m.Op == zookeepersim.OpWatch && m.To >= 0 && m.To < len(s.Nodes) && s.Nodes[m.To].Client {
			out = append(out, s.Nodes[m.To].Name)
		}
	}
	sort.Strings(out)
	return out
}

// zkBrokenBeliefs spells out every client that believes it holds the lock
// while the tree says otherwise: the moment the lock is broken.
func zkBrokenBeliefs(z *zookeepersim.View, clients []sim.NodeView) []string {
	var out []string
	for _, c := range clients {
		if c.State != sim.StateHolding {
			continue
		}
		own, holds := false, false
		for _, ch := range z.Children {
			if ch.Owner == c.Name {
				own = true
				holds = holds || ch.Holder
			}
		}
		switch {
		case !own:
			out = append(out, "! "+i18n.F(widgets.LeaderWords("zk.broken.gone", c.Candidate), "client", c.Name))
		case !holds:
			out = append(out, "! "+i18n.F(widgets.LeaderWords("zk.broken.notLowest", c.Candidate), "client", c.Name))
		}
	}
	return out
}

func (r *zkRenderer) drawOther(o *zsessionObjects, z *zookeepersim.View, c sim.NodeView, y, width, caption float32, fg, muted color.Color) {
	widgets.PlaceText(o.name, c.Name, fyne.NewPos(0, y), fg)
	x := zkIndent*o.k + widgets.TextWidth("client-00", o.name.TextSize, true)
	x += placePill(o.stateBg, o.state, c.Session, fyne.NewPos(x, y+zkPillY*o.k), o.k) + zkOwnerGap*o.k
	sess, ok := zkSessionOf(z, c)
	lead := widgets.ClientStateText(c)
	if c.State == sim.StateWaiting {
		lead = i18n.T("zk.creating")
		if !ok {
			lead = i18n.T("zk.wants")
		}
	}
	o.placeTimer(zkTimerGeometry(z, c, sess, ok, lead, "", x, y, width, o.k, caption, fg, muted))
}
