package widgets

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	zookeepersim "github.com/lockscope/lockscope/sim/zookeeper"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// opReplicate is a long op's name, for a label between two servers.
var opReplicate = sim.NewOp("REPLICATE")

// gcPauseSnapshot is the GC-pause story at 12 s, written by hand: client-1
// paused while it believes it holds token 3, client-2 holding too, a SET
// half-way to redis-1, redis-2 crashed, client-2 cut off from redis-1.
func gcPauseSnapshot() *sim.Snapshot {
	return &sim.Snapshot{
		Mode: "redis", At: 12 * time.Second, End: 30 * time.Second,
		Nodes: []sim.NodeView{
			{Name: "client-1", Client: true, State: sim.StateHolding, Token: 3, Paused: true, Resume: 16 * time.Second, Wall: 12 * time.Second},
			{Name: "client-2", Client: true, State: sim.StateHolding, Token: 4, Wall: 12 * time.Second},
			{Name: "client-3", Client: true, State: sim.StateWaiting, Wall: 12 * time.Second},
			{Name: "redis-1", Role: redis.RoleMaster, Wall: 22 * time.Second, Skew: 10 * time.Second},
			{Name: "redis-2", Role: redis.RoleReplica, Crashed: true, Wall: 12 * time.Second},
		},
		InFlight: []sim.MessageView{{From: 2, To: 3, Op: redis.OpSet, SentAt: 11 * time.Second, DeliverAt: 13 * time.Second}},
		Cuts:     [][]int{{0, 1, 0, 2, 2}},
		Design: &redis.View{Master: 3, Servers: []redis.ServerView{
			{Node: 3, Role: redis.RoleMaster, Counter: 4, Keys: []redis.KeyView{{Key: "lock", Owner: "client-2", Value: "ab12cd34:1", TTL: 10 * time.Second, Left: 8 * time.Second}}},
			{Node: 4, Role: redis.RoleReplica},
		}},
	}
}

func TestClusterLayoutColumns(t *testing.T) {
	for _, tc := range []struct {
		clients, servers int
		size             fyne.Size
	}{
		{2, 1, fyne.NewSize(800, 400)},
		{12, 2, fyne.NewSize(800, 400)},
		{3, 5, fyne.NewSize(500, 300)},
		{200, 1, fyne.NewSize(800, 400)},
	} {
		var nodes []sim.NodeView
		for i := 0; i < tc.clients; i++ {
			nodes = append(nodes, sim.NodeView{Name: sim.ClientName(i), Client: true})
		}
		for i := 0; i < tc.servers; i++ {
			nodes = append(nodes, sim.NodeView{Name: "redis"})
		}
		boxes := clusterLayout(nodes, tc.size)
		for i, b := range boxes {
			assert.GreaterOrEqual(t, b.pos.Y, float32(0), "node %d", i)
			assert.LessOrEqual(t, b.pos.Y+b.size.Height, tc.size.Height, "node %d of %d+%d fits", i, tc.clients, tc.servers)
			if nodes[i].Client {
				assert.Less(t, b.pos.X+b.size.Width, tc.size.Width/2, "clients on the left")
			} else {
				assert.Greater(t, b.pos.X, tc.size.Width/2, "servers on the right")
			}
			for j := 0; j < i; j++ {
				o := boxes[j]
				apart := b.pos.X >= o.pos.X+o.size.Width || o.pos.X >= b.pos.X+b.size.Width ||
					b.pos.Y >= o.pos.Y+o.size.Height || o.pos.Y >= b.pos.Y+b.size.Height
				if !assert.True(t, apart, "nodes %d and %d of %d+%d overlap", j, i, tc.clients, tc.servers) {
					return
				}
			}
		}
	}
}

func TestMessagePosition(t *testing.T) {
	m := sim.MessageView{SentAt: 10 * time.Millisecond, DeliverAt: 14 * time.Millisecond}
	from, to := fyne.NewPos(0, 0), fyne.NewPos(100, 40)
	for _, tc := range []struct {
		at   time.Duration
		want fyne.Position
	}{
		{10 * time.Millisecond, from},
		{11 * time.Millisecond, fyne.NewPos(25, 10)},
		{12 * time.Millisecond, fyne.NewPos(50, 20)},
		{14 * time.Millisecond, to},
		{20 * time.Millisecond, to},
		{0, from},
	} {
		assert.Equal(t, tc.want, MessagePosition(m, from, to, float64(tc.at)), "at %v", tc.at)
	}
}

func TestClusterViewDrawsTheSnapshot(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(820, 440))
	snap := gcPauseSnapshot()
	v.SetSnapshot(snap)
	r := test.TempWidgetRenderer(t, v).(*clusterRenderer)
	shown := widgettest.Texts(r.Objects())

	for _, s := range []string{"client-1", "holding the lock", "HOLDER #3", "HOLDER #4", "paused until 16.000 s",
		"waiting for the lock", "redis-1", "master", "clock 22.000 s  (+10.000 s)", "crashed", "SET",
		"2 clients believe they hold the lock: client-1, client-2"} {
		assert.Contains(t, shown, s)
	}

	boxes := clusterLayout(snap.Nodes, v.Size())
	paused := r.nodes.items[0]
	assert.True(t, paused.pause1.Visible() && paused.pause2.Visible(), "the paused node shows the pause glyph")
	assert.Equal(t, float32(3.5), paused.frame.StrokeWidth, "the holder is highlighted")
	assert.False(t, r.nodes.items[2].pause1.Visible(), "a running node has no pause glyph")
	crashed := r.nodes.items[4]
	assert.True(t, crashed.cross1.Visible() && crashed.cross2.Visible(), "the crashed node is crossed out")
	assert.Equal(t, boxes[4].pos, crashed.cross1.Position1)

	// The SET is half-way in time, so half-way along its link.
	from, to := linkEnds(boxes[2], boxes[3])
	mid := fyne.NewPos((from.X+to.X)/2, (from.Y+to.Y)/2)
	pill := r.msgs.items[0].pill
	center := pill.Position().Add(fyne.NewPos(pill.Size().Width/2, pill.Size().Height/2))
	assert.InDelta(t, mid.X, center.X, 0.5)
	assert.InDelta(t, mid.Y, center.Y, 0.5)

	// client-2 (group 1) is cut from redis-1 (group 2): its link is dashed.
	dashes := 0
	for _, l := range r.dashes.items[:r.dashes.used] {
		if l.Visible() && l.StrokeColor == Fade(ColorFault, 0.8) {
			dashes++
		}
	}
	assert.Greater(t, dashes, 3, "the cut link is drawn dashed")
}

func TestClusterViewReusesItsObjects(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(820, 440))
	snap := gcPauseSnapshot()
	v.SetSnapshot(snap)
	r := test.TempWidgetRenderer(t, v).(*clusterRenderer)
	before := r.Objects()

	later := gcPauseSnapshot()
	later.At = 12500 * time.Millisecond
	later.Nodes[0].Paused = false
	v.SetSnapshot(later)
	after := r.Objects()
	require.Equal(t, len(before), len(after))
	for i := range before {
		assert.Same(t, before[i], after[i], "object %d is reused, not rebuilt", i)
	}
	assert.False(t, r.nodes.items[0].pause1.Visible(), "the resumed node drops its pause glyph")

	more := gcPauseSnapshot()
	for i := 0; i < 5; i++ {
		more.InFlight = append(more.InFlight, sim.MessageView{From: 3, To: 1, Op: redis.OpOK, SentAt: 11 * time.Second, DeliverAt: 13 * time.Second})
	}
	v.SetSnapshot(more)
	assert.Greater(t, len(r.Objects()), len(after), "the message pool grew")
	assert.Len(t, r.msgs.items, 6)
}

func TestClusterViewTapOffersTheNode(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(820, 440))
	snap := gcPauseSnapshot()
	v.SetSnapshot(snap)
	var got string
	v.OnTapNode = func(node string, _ fyne.Position) { got = node }

	boxes := clusterLayout(snap.Nodes, v.Size())
	test.TapAt(v, boxes[3].center())
	assert.Equal(t, "redis-1", got)

	got = ""
	test.TapAt(v, fyne.NewPos(v.Size().Width/2, 2))
	assert.Empty(t, got, "a tap between nodes offers nothing")
}

// showSnapshot draws snap and gives the renderer and the nodes' boxes.
func showSnapshot(t *testing.T, v *ClusterView, snap *sim.Snapshot) (*clusterRenderer, []box) {
	t.Helper()
	v.SetSnapshot(snap)
	return test.TempWidgetRenderer(t, v).(*clusterRenderer), clusterLayout(snap.Nodes, v.Size())
}

// assertLabelsClearTheBoxes checks that no message's label the renderer
// shows covers a node's box.
func assertLabelsClearTheBoxes(t *testing.T, r *clusterRenderer, boxes []box, name string) {
	t.Helper()
	for _, o := range r.msgs.items[:r.msgs.used] {
		p, s := o.pill.Position(), o.pill.Size()
		for i, b := range boxes {
			apart := p.X >= b.pos.X+b.size.Width || p.X+s.Width <= b.pos.X || p.Y >= b.pos.Y+b.size.Height || p.Y+s.Height <= b.pos.Y
			assert.True(t, apart, "%s: %s's label %v %v covers node %d %v", name, o.text.Text, p, s, i, b)
		}
	}
}

// A message's label never covers a node: just sent, just arriving, between
// servers stacked in one column, in a wide and a narrow view.
func TestClusterMessageLabelsClearTheBoxes(t *testing.T) {
	test.NewTempApp(t)
	for _, size := range []fyne.Size{fyne.NewSize(820, 440), fyne.NewSize(560, 200)} {
		v := NewClusterView()
		w := test.NewTempWindow(t, v)
		w.Resize(size)
		snap := gcPauseSnapshot()
		snap.InFlight = []sim.MessageView{
			{From: 2, To: 3, Op: redis.OpSet, SentAt: 12 * time.Second, DeliverAt: 13 * time.Second},  // just sent
			{From: 3, To: 0, Op: sim.OpReadOK, SentAt: 11 * time.Second, DeliverAt: 12 * time.Second}, // arriving
			{From: 3, To: 4, Op: opReplicate, SentAt: 11 * time.Second, DeliverAt: 13 * time.Second},  // server to server
		}
		r, boxes := showSnapshot(t, v, snap)
		require.Equal(t, 3, r.msgs.used)
		assertLabelsClearTheBoxes(t, r, boxes, fmt.Sprint(size))
	}
}

// Every line of a node's text lies inside its box, whatever the box's size.
func TestClusterNodeTextStaysInItsBox(t *testing.T) {
	test.NewTempApp(t)
	for _, size := range []fyne.Size{fyne.NewSize(900, 330), fyne.NewSize(900, 360), fyne.NewSize(1100, 420), fyne.NewSize(700, 300)} {
		v := NewClusterView()
		w := test.NewTempWindow(t, v)
		w.Resize(size)
		snap := gcPauseSnapshot()
		r, boxes := showSnapshot(t, v, snap)
		for i, o := range r.nodes.items[:len(snap.Nodes)] {
			b := boxes[i]
			for _, tx := range o.lines {
				if !tx.Visible() {
					continue
				}
				ms := tx.MinSize()
				assert.LessOrEqual(t, tx.Position().Y+ms.Height, b.pos.Y+b.size.Height, "%v: %q below node %d's box", size, tx.Text, i)
				assert.LessOrEqual(t, tx.Position().X+ms.Width, b.pos.X+b.size.Width, "%v: %q past node %d's box", size, tx.Text, i)
			}
		}
	}
}

// Servers in two columns closer than a label is wide (ZooKeeper's three
// servers and the storage in a 1024×768 window): a PING between two of
// them side by side stands beside the pair, not over their names.
func TestClusterMessageBetweenNeighbouringColumnsClearsThem(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(560, 140))
	snap := &sim.Snapshot{Mode: "zookeeper", At: time.Second, End: 10 * time.Second,
		Nodes: []sim.NodeView{
			{Name: "client-1", Client: true}, {Name: "client-2", Client: true},
			{Name: "zk-1", Role: zookeepersim.RoleLeader}, {Name: "zk-2", Role: zookeepersim.RoleFollower}, {Name: "zk-3", Role: zookeepersim.RoleFollower}, {Name: "storage", Role: sim.RoleStorage},
		},
		InFlight: []sim.MessageView{{From: 2, To: 3, Op: zookeepersim.OpPing, SentAt: 0, DeliverAt: 2 * time.Second}},
	}
	r, boxes := showSnapshot(t, v, snap)
	require.Less(t, boxes[2].pos.X+boxes[2].size.Width, boxes[3].pos.X+1, "zk-1 and zk-2 side by side")
	require.InDelta(t, boxes[2].pos.Y, boxes[3].pos.Y, 1)
	require.Equal(t, 1, r.msgs.used)
	assertLabelsClearTheBoxes(t, r, boxes, "")
}

// Messages sent at once on links that share a place for their labels (a
// leader's heartbeats to two followers, beside the pair in a 1024-point
// window) stand apart, and still clear the nodes.
func TestClusterMessageLabelsStandApart(t *testing.T) {
	test.NewTempApp(t)
	for _, size := range []fyne.Size{fyne.NewSize(490, 140), fyne.NewSize(560, 200), fyne.NewSize(820, 440)} {
		v := NewClusterView()
		w := test.NewTempWindow(t, v)
		w.Resize(size)
		snap := &sim.Snapshot{Mode: "zookeeper", At: time.Second, End: 10 * time.Second,
			Nodes: []sim.NodeView{
				{Name: "client-1", Client: true}, {Name: "client-2", Client: true},
				{Name: "zk-1", Role: zookeepersim.RoleLeader}, {Name: "zk-2", Role: zookeepersim.RoleFollower}, {Name: "zk-3", Role: zookeepersim.RoleFollower}, {Name: "storage", Role: sim.RoleStorage},
			},
			InFlight: []sim.MessageView{
				{From: 2, To: 3, Op: zookeepersim.OpPing, SentAt: time.Second, DeliverAt: 2 * time.Second},
				{From: 2, To: 4, Op: zookeepersim.OpPing, SentAt: time.Second, DeliverAt: 2 * time.Second},
			},
		}
		r, boxes := showSnapshot(t, v, snap)
		require.Equal(t, 2, r.msgs.used)
		a, b := r.msgs.items[0].pill, r.msgs.items[1].pill
		apart := !(box{a.Position(), a.Size()}).overlaps(box{b.Position(), b.Size()})
		assert.True(t, apart, "%v: the two PINGs' labels overlap: %v %v and %v %v", size, a.Position(), a.Size(), b.Position(), b.Size())
		assertLabelsClearTheBoxes(t, r, boxes, fmt.Sprint(size))
	}
}

// On a large screen the cluster's boxes and their words grow with the
// panel (its 1480×560 at 2560×1440 left 240-point boxes in 13-point type
// in a wide empty panel); up to the reference size they keep their own.
func TestClusterGrowsOnALargeScreen(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	snap := gcPauseSnapshot()
	type look struct{ boxW, boxH, name, badge, msgH float32 }
	lookAt := func(size fyne.Size) look {
		w.Resize(size)
		v.Resize(size)
		r, boxes := showSnapshot(t, v, snap)
		var l look
		for _, b := range boxes {
			l.boxW, l.boxH = max(l.boxW, b.size.Width), max(l.boxH, b.size.Height)
		}
		l.name = r.nodes.items[0].lines[0].TextSize
		l.badge = r.nodes.items[0].badgeText.TextSize
		for _, m := range r.msgs.items {
			if m.pill.Visible() {
				l.msgH = m.pill.Size().Height
			}
		}
		return l
	}
	small := lookAt(fyne.NewSize(800, 340))
	assert.Equal(t, look{nodeMaxW, small.boxH, 13, 11, 16}, small, "the reference sizes")
	large := lookAt(fyne.NewSize(1480, 560))
	k := clusterScale(fyne.NewSize(1480, 560))
	assert.InDelta(t, 1.55, k, 0.01)
	assert.InDelta(t, nodeMaxW*k, large.boxW, 0.01, "the boxes grow")
	assert.Greater(t, large.boxH, small.boxH)
	assert.InDelta(t, 13*k, large.name, 0.01, "and their words")
	assert.InDelta(t, 11*k, large.badge, 0.01)
	assert.InDelta(t, 16*k, large.msgH, 0.01, "and the messages' labels")
	assert.Equal(t, float32(clusterMaxScale), clusterScale(fyne.NewSize(4000, 2000)), "up to a limit")
}

// Five clients tiled in two columns (zk-happy-path in a 1024×768 window):
// a CONNECT just sent by client-1, in the first column, has its label in
// the aisle between the clients and the servers, not over client-2's box
// in the second column, which its link crosses.
func TestClusterMessageFromATiledClientClearsItsNeighbour(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(560, 130))
	snap := &sim.Snapshot{Mode: "zookeeper", At: 6 * time.Millisecond, End: 10 * time.Second,
		Nodes: []sim.NodeView{
			{Name: "client-1", Client: true}, {Name: "client-2", Client: true}, {Name: "client-3", Client: true},
			{Name: "client-4", Client: true}, {Name: "client-5", Client: true},
			{Name: "zk-1", Role: zookeepersim.RoleLeader}, {Name: "zk-2", Role: zookeepersim.RoleFollower}, {Name: "zk-3", Role: zookeepersim.RoleFollower}, {Name: "storage", Role: sim.RoleStorage},
		},
		InFlight: []sim.MessageView{{From: 0, To: 5, Op: zookeepersim.OpConnect, SentAt: 5 * time.Millisecond, DeliverAt: 7 * time.Millisecond}},
	}
	r, boxes := showSnapshot(t, v, snap)
	require.Less(t, boxes[0].pos.X+boxes[0].size.Width, boxes[1].pos.X+1, "client-1 and client-2 side by side")
	require.Equal(t, 1, r.msgs.used)
	assertLabelsClearTheBoxes(t, r, boxes, "")
}

// Redlock's five masters and the storage tiled in a 1024×768 window: a
// server's role is shown whole or left out, never cut ("redis-1 ma…"),
// and its name whole, also in the narrower cluster beside the event log
// ("redis…"); a ZooKeeper server's role that fits stays.
func TestClusterSlimServerRoleIsWholeOrNothing(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	snap := &sim.Snapshot{Mode: "redlock", End: 10 * time.Second,
		Nodes: []sim.NodeView{{Name: "client-1", Client: true}, {Name: "client-2", Client: true},
			{Name: "redis-1", Role: redis.RoleMaster}, {Name: "redis-2", Role: redis.RoleMaster}, {Name: "redis-3", Role: redis.RoleMaster},
			{Name: "redis-4", Role: redis.RoleMaster}, {Name: "redis-5", Role: redis.RoleMaster}, {Name: "storage", Role: sim.RoleStorage}},
	}
	var r *clusterRenderer
	for _, size := range []fyne.Size{fyne.NewSize(560, 130), fyne.NewSize(368, 138)} {
		w.Resize(size)
		v.SetSnapshot(snap)
		r = test.TempWidgetRenderer(t, v).(*clusterRenderer)
		require.Less(t, clusterLayout(snap.Nodes, v.Size())[2].size.Height, float32(nodeTwoLinesH), "slim tiles")
		for i, o := range r.nodes.items[2:len(snap.Nodes)] {
			for _, tx := range o.lines {
				assert.False(t, tx.Visible() && strings.HasSuffix(tx.Text, "…"), "%v: server %d shows %q", size, i+2, tx.Text)
			}
			assert.Equal(t, snap.Nodes[i+2].Name, o.lines[0].Text, "%v: the name whole", size)
		}
	}

	w.Resize(fyne.NewSize(560, 130))
	snap = &sim.Snapshot{Mode: "zookeeper", End: 10 * time.Second,
		Nodes: []sim.NodeView{{Name: "client-1", Client: true}, {Name: "client-2", Client: true},
			{Name: "zk-1", Role: zookeepersim.RoleLeader}, {Name: "zk-2", Role: zookeepersim.RoleFollower}, {Name: "zk-3", Role: zookeepersim.RoleFollower}, {Name: "storage", Role: sim.RoleStorage}},
	}
	v.SetSnapshot(snap)
	assert.Contains(t, widgettest.Texts(r.Objects()), i18n.Term("leader"))
}

// The cluster view follows Fyne's idiom: Refresh takes the theme for the
// snapshot on show and lays out; a resize only places the nodes, links and
// messages again.
func TestClusterViewResizeLaysOutWithoutRebuilding(t *testing.T) {
	widgettest.AssertResizeLaysOutWithoutRebuilding(t, "redis-gc-pause", 12*time.Second, NewClusterView(),
		func(r fyne.WidgetRenderer) int { return r.(*clusterRenderer).refreshes })
}
