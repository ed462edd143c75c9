package zookeeper

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
	zookeepersim "github.com/lockscope/lockscope/sim/zookeeper"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// zkSnapshot records a bundled ZooKeeper preset and rebuilds instant at.
func zkSnapshot(t *testing.T, preset string, at time.Duration) *sim.Snapshot {
	t.Helper()
	sc, err := simtest.Load(preset)
	require.NoError(t, err)
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	s := rec.At(at)
	require.NotNil(t, zookeepersim.ViewOf(s), "%s at %v has a ZooKeeper view", preset, at)
	return s
}

// newZKTree shows snap in a ZNodeTree of the given size, as the window's
// state panel is at 1400×900.
func newZKTree(t *testing.T, snap *sim.Snapshot, size fyne.Size) (*ZNodeTree, *zkRenderer) {
	t.Helper()
	test.NewTempApp(t)
	z := NewZNodeTree()
	w := test.NewTempWindow(t, z)
	w.Resize(size.AddWidthHeight(2*8, 2*8))
	z.Resize(size)
	z.SetSnapshot(snap)
	return z, test.TempWidgetRenderer(t, z).(*zkRenderer)
}

func containsPrefix(xs []string, p string) bool {
	for _, x := range xs {
		if strings.HasPrefix(x, p) {
			return true
		}
	}
	return false
}

func TestWatchTargetAndSource(t *testing.T) {
	v := &zookeepersim.View{Parent: "/locks/mylock", Children: []zookeepersim.ZNode{
		{Name: "_c_a-lock-0000000000", Seq: 0, Owner: "client-1"},
		{Name: "_c_b-lock-0000000001", Seq: 1, Owner: "client-2"},
		{Name: "_c_c-lock-0000000002", Seq: 2, Owner: "client-1"},
	}}
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/locks/mylock", WatchParent},
		{"/locks/mylock/_c_b-lock-0000000001", 1},
		{"/locks/mylock/_c_gone-lock-0000000007", WatchNone},
		{"/locks/other/_c_b-lock-0000000001", WatchNone},
		{"/locks/mylockx", WatchNone},
	} {
		assert.Equal(t, tc.want, WatchTarget(v, sim.Watch{Client: "client-3", Path: tc.path}), tc.path)
	}
	assert.Equal(t, 2, WatchSource(v, "client-1"), "a client's newest znode is the one it queues with")
	assert.Equal(t, 1, WatchSource(v, "client-2"))
	assert.Equal(t, -1, WatchSource(v, "client-9"))
}

func TestZKLanes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spans [][2]int
		lanes []int
		n     int
	}{
		{"none", nil, []int{}, 0},
		{"a queue alternates so arrows meeting at a row do not touch", [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, []int{0, 1, 0, 1}, 2},
		{"the herd needs a lane per waiter", [][2]int{{-1, 1}, {-1, 2}, {-1, 3}}, []int{0, 1, 2}, 3},
		{"apart spans share a lane", [][2]int{{0, 1}, {3, 4}}, []int{0, 0}, 1},
	} {
		lanes, n := zkLanes(tc.spans)
		assert.Equal(t, tc.lanes, lanes, tc.name)
		assert.Equal(t, tc.n, n, tc.name)
	}
}

func TestZKShortNameAndOrdinal(t *testing.T) {
	p, s := zkShortName("_c_27b91446-a0f3-415f-950d-56cb6d8eb446-lock-0000000003")
	assert.Equal(t, "_c_27b9…-", p)
	assert.Equal(t, "lock-0000000003", s)
	p, s = zkShortName("_c_3d9e43d2-5b3e-4c5d-9c59-0a62a63d3906-latch-0000000001")
	assert.Equal(t, "_c_3d9e…-", p, "LeaderLatch's node")
	assert.Equal(t, "latch-0000000001", s)
	p, s = zkShortName("_c_724db140-4a1a-426b-8129-b61f91b7adaa-__READ__0000000004")
	assert.Equal(t, "_c_724d…-", p, "a read lock's node")
	assert.Equal(t, "__READ__0000000004", s)
	p, s = zkShortName("lock-0000000012")
	assert.Equal(t, "", p)
	assert.Equal(t, "lock-0000000012", s)
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd"} {
		assert.Equal(t, want, zkOrdinal(n))
	}
}

func TestZKSessionNote(t *testing.T) {
	z := &zookeepersim.View{Leader: "zk-1"}
	sess := zookeepersim.ZSession{ID: 1, Timeout: 10 * time.Second, Left: 5200 * time.Millisecond}
	connected := sim.NodeView{Name: "client-1", Client: true, Session: zookeepersim.SessionConnected, Detail: "zk-1 · session 0x1"}
	suspended := sim.NodeView{Name: "client-1", Client: true, Session: zookeepersim.SessionSuspended, Detail: "SUSPENDED 109ms of 10s, then LOST"}
	for _, tc := range []struct {
		name string
		z    *zookeepersim.View
		c    sim.NodeView
		s    zookeepersim.ZSession
		ok   bool
		want string
	}{
		{"connected", z, connected, sess, true, "expires in 5.200 s if silent · timeout 10 s"},
		{"suspended: the client's own timer first", z, suspended, sess, true,
			"109ms of 10s, then LOST · expires in 5.200 s if silent · timeout 10 s"},
		{"closing", z, connected, zookeepersim.ZSession{Closing: true, Timeout: 10 * time.Second}, true, "expired: closeSession not yet committed"},
		{"election", &zookeepersim.View{Electing: true}, connected, sess, true, "no leader: expiry on hold"},
		{"no session", z, sim.NodeView{Name: "client-2", Client: true, Session: zookeepersim.SessionLost, Detail: "connecting to zk-2"}, zookeepersim.ZSession{}, false,
			"connecting to zk-2"},
		{"paused", z, sim.NodeView{Name: "client-1", Client: true, Session: zookeepersim.SessionConnected, Paused: true, Resume: 21 * time.Second}, sess, true,
			"paused until 21.000 s · expires in 5.200 s if silent · timeout 10 s"},
	} {
		assert.Equal(t, tc.want, zkSessionNote(tc.z, tc.c, tc.s, tc.ok), tc.name)
	}
	assert.InDelta(t, 0.52, zkSessionFraction(sess), 1e-6)
	assert.Zero(t, zkSessionFraction(zookeepersim.ZSession{Timeout: time.Second, Left: time.Second, Closing: true}))
	assert.Equal(t, float32(1), zkSessionFraction(zookeepersim.ZSession{Timeout: 10 * time.Second, Left: 11550 * time.Millisecond}),
		"a session touched to the next tick boundary has more than its timeout left: the bar is full")
}

// The happy path with four waiters queued: five children in sequence
// order, the lowest the holder, and one watch arrow from each waiter to
// the znode just before its own.
func TestZNodeTreeQueue(t *testing.T) {
	snap := zkSnapshot(t, "zk-happy-path", 600*time.Millisecond)
	require.Len(t, zookeepersim.ViewOf(snap).Children, 5)
	require.Len(t, zookeepersim.ViewOf(snap).Watches, 4)
	z, r := newZKTree(t, snap, fyne.NewSize(560, 280))
	shown := widgettest.Texts(r.Objects())

	for _, s := range []string{"/locks/mylock", "HOLDER · seq 0", "1st in line", "4th in line", "EPHEMERAL",
		"client-1", "client-5", "CONNECTED", "lock-0000000000", "lock-0000000004", "_c_27b9…-"} {
		assert.Contains(t, shown, s)
	}
	assert.True(t, containsPrefix(shown, "leader zk-1 · epoch 1 · zxid 0x10000000a · a write commits on 2 of 3 acks"), "%q", shown)
	assert.True(t, containsPrefix(shown, "persistent · 5 children · each waiter watches the znode just before its own"))
	assert.True(t, containsPrefix(shown, "session 0x100000000000000"))

	require.Len(t, r.rowBoxes, 5, "every child drawn at 560×280")
	assert.Equal(t, float32(zkRowH), r.rowBoxes[0].size.Height, "with its session line")
	for i, b := range r.rowBoxes {
		assert.GreaterOrEqual(t, b.pos.Y, r.parentBox.pos.Y+r.parentBox.size.Height, "child %d under the lock znode", i)
		assert.LessOrEqual(t, b.pos.Y+b.size.Height, z.Size().Height, "child %d fits", i)
		if i > 0 {
			assert.Greater(t, b.pos.Y, r.rowBoxes[i-1].pos.Y+r.rowBoxes[i-1].size.Height, "children in sequence order, apart")
		}
	}
	holder := r.rows.Used()[0]
	assert.Equal(t, float32(2.5), holder.frame.StrokeWidth, "the holder is highlighted")
	assert.Equal(t, widgets.ColorHolding, holder.badgeBg.FillColor)

	// Each arrow leaves a waiter's row and enters the row just above it.
	require.Len(t, r.watches, 4)
	for i, w := range r.watches {
		from, to := r.rowBoxes[i+1], r.rowBoxes[i]
		assert.True(t, w[0].Y > from.pos.Y && w[0].Y < from.pos.Y+from.size.Height, "watch %d starts at its waiter", i)
		assert.True(t, w[1].Y > to.pos.Y && w[1].Y < to.pos.Y+to.size.Height, "watch %d ends at the predecessor", i)
		assert.Equal(t, to.pos.X+to.size.Width, w[1].X, "watch %d points at the predecessor's side", i)
	}
}

// A release under the herd recipe: every waiter watches the lock znode,
// so every arrow ends on it; a moment later the fired watches are on
// their way to all four waiters at once.
func TestZNodeTreeHerd(t *testing.T) {
	snap := zkSnapshot(t, "zk-herd", 1031*time.Millisecond)
	_, r := newZKTree(t, snap, fyne.NewSize(560, 280))
	require.Len(t, r.watches, 4)
	pb := r.parentBox
	for i, w := range r.watches {
		assert.True(t, w[1].Y > pb.pos.Y && w[1].Y < pb.pos.Y+pb.size.Height, "herd watch %d ends on %s", i, zookeepersim.ViewOf(snap).Parent)
		assert.Equal(t, pb.pos.X+pb.size.Width, w[1].X)
	}
	shown := widgettest.Texts(r.Objects())
	assert.True(t, containsPrefix(shown, "persistent · 5 children · every waiter watches its children (herd)"), "%q", shown)
	assert.Contains(t, shown, "not working", "the released holder's znode is still there while its delete commits")

	snap = zkSnapshot(t, "zk-herd", 1040*time.Millisecond)
	_, r = newZKTree(t, snap, fyne.NewSize(560, 280))
	assert.Empty(t, r.watches, "the watches fired: ZooKeeper's watches are one-shot")
	assert.Contains(t, widgettest.Texts(r.Objects()), "3 watch events on the wire, to client-2, client-3, client-5",
		"client-4 already has its own: it is on the leader")
	assert.Len(t, r.rowBoxes, 4, "client-1's znode is gone")
}

// A partitioned holder: SUSPENDED with its client-side countdown while
// the leader's timer runs; later its znode is gone and client-2 holds.
func TestZNodeTreeSessionExpiry(t *testing.T) {
	snap := zkSnapshot(t, "zk-session-expiry", 6800*time.Millisecond)
	_, r := newZKTree(t, snap, fyne.NewSize(560, 280))
	shown := widgettest.Texts(r.Objects())
	assert.Contains(t, shown, "SUSPENDED")
	assert.True(t, containsPrefix(shown, "109ms of 10s, then LOST · expires in 5."), "%q", shown)
	_, wide := newZKTree(t, snap, fyne.NewSize(760, 280))
	assert.Contains(t, widgettest.Texts(wide.Objects()), "109ms of 10s, then LOST · expires in 5.200 s if silent · timeout 10 s",
		"the client's own countdown to LOST, then the leader's to expiry")
	assert.NotContains(t, shown, "not working", "respectSuspended: the worker reads the flag only before its write")

	snap = zkSnapshot(t, "zk-session-expiry", 12100*time.Millisecond)
	_, r = newZKTree(t, snap, fyne.NewSize(560, 280))
	shown = widgettest.Texts(r.Objects())
	require.Len(t, r.rowBoxes, 1)
	assert.Contains(t, shown, "HOLDER · seq 1")
	assert.Contains(t, shown, "client-2")
	assert.Contains(t, shown, "no session", "client-1's session is gone from the ensemble")
	assert.True(t, containsPrefix(shown, "told it may have lost the lock · 5.409s of 10s, then LOST"),
		"told SUSPENDED, it no longer believes, and is still working: it reads the flag at the end of its work: %q", shown)
}

func TestZNodeTreeElectionAndBrokenBelief(t *testing.T) {
	snap := zkSnapshot(t, "zk-leader-crash", 3100*time.Millisecond)
	_, r := newZKTree(t, snap, fyne.NewSize(560, 280))
	shown := widgettest.Texts(r.Objects())
	assert.True(t, containsPrefix(shown, "ELECTION: no established leader — writes stall · last zxid 0x100000008"), "%q", shown)
	assert.True(t, containsPrefix(shown, "95ms of 10s, then LOST · no leader: expiry"), "%q", shown)
	_, wide := newZKTree(t, snap, fyne.NewSize(760, 280))
	assert.Contains(t, widgettest.Texts(wide.Objects()), "95ms of 10s, then LOST · no leader: expiry on hold")
	assert.Contains(t, widgettest.Texts(wide.Objects()), "CLOSED", "client-1 closed its handle after its round (its closeSession was zxid 0x100000008)")
	assert.Equal(t, widgets.ColorFault, r.band.StrokeColor)

	// client-1 still believes it holds after its session expired.
	snap = zkSnapshot(t, "zk-gc-pause", 22*time.Second)
	snap.Nodes[0].State = sim.StateHolding
	_, r = newZKTree(t, snap, fyne.NewSize(560, 280))
	assert.Contains(t, widgettest.Texts(r.Objects()), "! client-1 believes it holds the lock, but its znode is gone (its session expired)")

	// A LeaderLatch candidate believes it leads.
	snap.Nodes[0].Candidate = true
	_, r = newZKTree(t, snap, fyne.NewSize(560, 280))
	assert.Contains(t, widgettest.Texts(r.Objects()), "! client-1 believes it leads, but its latch node is gone (its session expired)")
}

// Twelve clients do not fit at full height: rows go slim, then the rest is
// summed up in a line, and nothing is drawn outside the widget.
func TestZNodeTreeCrowded(t *testing.T) {
	snap := zkSnapshot(t, "zk-happy-path", 0)
	v := zookeepersim.ViewOf(snap)
	v.Children, v.Watches = nil, nil
	for i := 0; i < 12; i++ {
		c := sim.ClientName(i)
		v.Children = append(v.Children, zookeepersim.ZNode{Name: "_c_0123abcd-lock-000000000" + string(rune('a'+i)), Seq: int64(i), Owner: c, Ephemeral: true, Holder: i == 0})
		if i > 0 {
			v.Watches = append(v.Watches, sim.Watch{Client: c, Path: v.Parent + "/" + v.Children[i-1].Name})
		}
	}
	z, r := newZKTree(t, snap, fyne.NewSize(560, 280))
	require.NotEmpty(t, r.rowBoxes)
	assert.Less(t, len(r.rowBoxes), 12)
	assert.Equal(t, float32(zkRowSlimH), r.rowBoxes[0].size.Height)
	assert.True(t, containsPrefix(widgettest.Texts(r.Objects()), "… and "), "the children not drawn are counted")
	for _, o := range r.Objects() {
		if o.Visible() {
			assert.LessOrEqual(t, o.Position().Y, z.Size().Height, "%T at %v", o, o.Position())
		}
	}
	assert.Len(t, r.watches, len(r.rowBoxes)-1, "arrows only between drawn children")
}

func TestZNodeTreeReusesItsObjects(t *testing.T) {
	snap := zkSnapshot(t, "zk-happy-path", 600*time.Millisecond)
	z, r := newZKTree(t, snap, fyne.NewSize(560, 280))
	before := r.Objects()
	z.SetSnapshot(zkSnapshot(t, "zk-happy-path", 700*time.Millisecond))
	after := r.Objects()
	require.Equal(t, len(before), len(after))
	for i := range before {
		assert.Same(t, before[i], after[i], "object %d is reused, not rebuilt", i)
	}

	z.SetSnapshot(&sim.Snapshot{Mode: "redis"})
	assert.Empty(t, widgettest.Texts(r.Objects()), "a snapshot without a ZooKeeper view draws nothing")
}

// The band over the tree is read whole where the panel is narrow but has
// the height (the ZooKeeper tab at 1024×768: "… a write commits on 2 …"):
// it takes a second line; a panel without the height keeps one line,
// ending in "…".
func TestZNodeTreeBandWrapsWhereThereIsRoom(t *testing.T) {
	snap := zkSnapshot(t, "zk-session-expiry", 45*time.Second)
	const whole = "leader zk-1 · epoch 1 · zxid 0x100000008 · a write commits on 2 of 3 acks"
	_, r := newZKTree(t, snap, fyne.NewSize(380, 150))
	assert.True(t, r.bandText2.Visible(), "two lines")
	assert.Equal(t, whole, r.bandText.Text+" "+r.bandText2.Text)
	assert.LessOrEqual(t, r.bandText.MinSize().Width, 380-2*theme.InnerPadding())
	assert.GreaterOrEqual(t, r.band.Size().Height, r.bandText2.Position().Y+r.bandText2.MinSize().Height-2, "inside the band")
	assert.GreaterOrEqual(t, r.parentBox.pos.Y, r.band.Size().Height, "the lock znode below the band")

	_, wide := newZKTree(t, snap, fyne.NewSize(760, 150))
	assert.Equal(t, whole, wide.bandText.Text, "one line where it fits")
	assert.False(t, wide.bandText2.Visible())

	_, low := newZKTree(t, zkSnapshot(t, "zk-herd", 3*time.Second), fyne.NewSize(380, 130))
	assert.False(t, low.bandText2.Visible(), "no room for a second line under a crowded tree")
	assert.True(t, strings.HasSuffix(low.bandText.Text, "…"), low.bandText.Text)
}

// The tree draws session countdowns that move with every instant; handed
// the same snapshot again, it draws nothing.
func TestTreeDrawsTheSameSnapshotOnce(t *testing.T) {
	widgettest.AssertDrawsEachSnapshotOnce(t, "zk-happy-path", NewZNodeTree(),
		func(r fyne.WidgetRenderer) int { return r.(*zkRenderer).refreshes })
}

// A resize places the tree again from the model the last instant built.
func TestZNodeTreeResizeLaysOutWithoutRebuilding(t *testing.T) {
	widgettest.AssertResizeLaysOutWithoutRebuilding(t, "zk-herd", 8*time.Second, NewZNodeTree(),
		func(r fyne.WidgetRenderer) int { return r.(*zkRenderer).builds })
}

// A Chinese window shows the ZooKeeper runs' node details in Chinese: the
// translated sentence is drawn, the English one is not.
func TestTreeDetailsAreChinese(t *testing.T) {
	widgettest.AssertShownInChinese(t, []widgettest.ChineseCase{
		{Preset: "zk-session-expiry", At: 16500 * time.Millisecond, Want: []string{"已 9.809s（共 10s），之后 LOST"}},
		{Preset: "zk-leader-crash", At: 10 * time.Second, Want: []string{"选举中 · 第 2 轮 · zxid 0x100000008"}},
	}, func() []widgettest.Picture { return []widgettest.Picture{widgets.NewClusterView(), NewZNodeTree()} },
		func(*sim.Snapshot) []string { return nil })
}

// In the state panel of a 1024-point window (about 430 points wide) the
// session line under a child says when the session expires whole: it
// leaves out the timeout, then the id's label, then the bar, before it
// shortens the words with "…" ("expires in 6.000 s if silen…" before).
func TestZNodeTreeSessionLineFitsANarrowPanel(t *testing.T) {
	snap := zkSnapshot(t, "zk-session-expiry", 6*time.Second)
	for _, c := range []struct {
		width float32
		want  string
	}{
		{760, "expires in 6.000 s if silent · timeout 10 s"},
		{430, "expires in 6.000 s if silent"},
		{330, "expires in 6.000 s if silent"}, // the event log open beside it
	} {
		_, r := newZKTree(t, snap, fyne.NewSize(c.width, 280))
		shown := widgettest.Texts(r.Objects())
		assert.Contains(t, shown, c.want, "%v: %q", c.width, shown)
		for _, s := range shown {
			if strings.HasPrefix(s, "expires in") {
				assert.NotContains(t, s, "…", "%v", c.width)
			}
		}
	}
}

// The tree clips a line as FitText does, but draws nothing rather than a
// lone "…".
func TestZKClip(t *testing.T) {
	s := "client-1's session expires in 6.000 s if silent"
	full := widgets.TextWidth(s, 11.5, false)
	assert.Equal(t, s, zkClip(s, full, 11.5, false))
	assert.Equal(t, widgets.FitText(s, 11.5, false, full/2), zkClip(s, full/2, 11.5, false))
	assert.Empty(t, zkClip(s, 1, 11.5, false), "not even a letter fits")
	assert.Empty(t, zkClip(s, 0, 11.5, false))
}

// The model holds the queue in sequence order with one arrow per waiter
// (each to the znode before its own, in two lanes), before any size
// is known; the layout gives the children full rows where there is room,
// slim ones, then as many as fit, and the arrows their gutter.
func TestZKModelAndLayout(t *testing.T) {
	snap := widgettest.SnapshotAt(t, "zk-happy-path", 600*time.Millisecond)
	m := buildZKModel(snap, zookeepersim.ViewOf(snap))
	require.Len(t, m.z.Children, 5)
	for i := 1; i < len(m.z.Children); i++ {
		assert.Less(t, m.z.Children[i-1].Seq, m.z.Children[i].Seq, "children in sequence order")
	}
	assert.Len(t, m.arrows, 4, "each waiter watches the znode before its own")
	assert.False(t, m.herd)
	assert.Equal(t, 2, m.nLanes, "arrows meeting at a row never share a lane: a queue takes two")
	assert.Empty(t, m.others, "every client has a znode")
	assert.NotEmpty(t, m.bandText)

	tall := zkLayout(m, fyne.NewSize(560, 600), theme.DefaultTheme())
	assert.Equal(t, float32(zkRowH), tall.rowH)
	assert.Equal(t, 5, tall.shown)
	assert.Equal(t, float32(zkLaneW), tall.laneW)
	assert.Equal(t, float32(560-2-2*zkLaneW-8), tall.right, "the boxes end left of the lanes")
	assert.Len(t, tall.band, 1)

	slim := zkLayout(m, fyne.NewSize(560, zkBandH+zkGap+zkParentH+zkGap+5*(zkRowSlimH+zkRowGap)), theme.DefaultTheme())
	assert.Equal(t, float32(zkRowSlimH), slim.rowH, "slim rows where full ones do not fit")
	assert.Equal(t, 5, slim.shown)

	short := zkLayout(m, fyne.NewSize(560, 120), theme.DefaultTheme())
	assert.Equal(t, float32(zkRowSlimH), short.rowH)
	assert.Less(t, short.shown, 5, "as many as fit, the rest counted")

	narrow := zkLayout(m, fyne.NewSize(60, 600), theme.DefaultTheme())
	assert.Equal(t, float32(60*0.2/2), narrow.laneW, "the lanes take at most a fifth of the width")
}

// On a large screen the band, the lock znode, its children and their
// words grow with the panel (its 1258×578 at 2560×1440 left 35-point rows
// in 12-point type at the top); at the panel of a 1400×900 window they
// keep their sizes.
func TestZNodeTreeGrowsOnALargeScreen(t *testing.T) {
	snap := zkSnapshot(t, "zk-happy-path", 3*time.Second)
	_, small := newZKTree(t, snap, zkRefSize)
	g := zkLayout(*small.model, zkRefSize, test.NewTheme())
	assert.Equal(t, float32(1), g.grow)
	assert.Equal(t, float32(zkParentH), small.parentBox.size.Height, "the reference size keeps the lock znode's height")
	require.NotEmpty(t, small.rowBoxes)
	assert.Equal(t, float32(zkNameSize), small.rows.Used()[0].name.TextSize)

	size := fyne.NewSize(1258, 578)
	_, large := newZKTree(t, snap, size)
	k := large.k
	assert.InDelta(t, 1.8, k, 0.01)
	assert.InDelta(t, zkParentH*k, large.parentBox.size.Height, 0.01, "the lock znode grows")
	require.Len(t, large.rowBoxes, len(small.rowBoxes), "and shows the same children")
	assert.Greater(t, large.rowBoxes[0].size.Height, 1.5*small.rowBoxes[0].size.Height, "so do its children")
	assert.InDelta(t, zkNameSize*k, large.rows.Used()[0].name.TextSize, 0.01, "and their words")
	assert.InDelta(t, zkBandSize*k, large.bandText.TextSize, 0.01)
	last := large.rowBoxes[len(large.rowBoxes)-1]
	assert.LessOrEqual(t, last.pos.Y+last.size.Height, size.Height, "inside the panel")
}

// The clients without a znode take the height the children leave, beyond
// a third of the panel: at zk-happy-path's end, in the panel of a
// 1600×1000 window (700×170), all five are named, where two and "… and 3
// more clients" were, over 60 points left empty; a lower panel still
// counts those it leaves out.
func TestZNodeTreeNamesTheClientsWithoutAZnodeThatFit(t *testing.T) {
	snap := zkSnapshot(t, "zk-happy-path", 10*time.Second)
	require.Empty(t, zookeepersim.ViewOf(snap).Children, "every client closed its session")
	more := i18n.F("zk.moreClients", "n", 3)
	z, r := newZKTree(t, snap, fyne.NewSize(700, 170))
	texts := widgettest.Texts(r.Objects())
	for i := range 5 {
		assert.Contains(t, texts, sim.ClientName(i))
	}
	assert.False(t, containsPrefix(texts, more[:len("… and")]), "no client left out: %q", texts)
	for _, o := range r.Objects() {
		if o.Visible() {
			assert.LessOrEqual(t, o.Position().Y+o.MinSize().Height, z.Size().Height, "%T %v inside the panel", o, o.Position())
		}
	}

	_, r = newZKTree(t, snap, fyne.NewSize(700, 120))
	texts = widgettest.Texts(r.Objects())
	assert.Contains(t, texts, more, "those that do not fit are counted")
	assert.Contains(t, texts, sim.ClientName(1))
}

// The tree's lengths and words follow the theme's text size: in a theme
// whose text and captions are twice the default's, at the same size, the
// band, the lock znode, the children's rows, the arrows' lanes and the
// words are twice as large, the small print at the theme's caption size.
func TestZNodeTreeGrowsWithTheThemesText(t *testing.T) {
	snap := zkSnapshot(t, "zk-happy-path", 3*time.Second)
	size := fyne.NewSize(680, 900)
	_, base := newZKTree(t, snap, size)
	require.NotEmpty(t, base.rowBoxes)

	z, large := newZKTree(t, snap, size)
	fyne.CurrentApp().Settings().SetTheme(widgettest.LargeText())
	z.Refresh()
	gb, gl := zkLayout(*base.model, size, theme.DefaultTheme()), zkLayout(*large.model, size, widgettest.LargeText())
	assert.Equal(t, 2*gb.k, gl.k)
	assert.Equal(t, gb.grow, gl.grow, "the panel's size scales as before")
	assert.GreaterOrEqual(t, gl.bandH, 2*gb.bandH, "the band at least twice as high (its words may take two lines)")
	assert.Equal(t, 2*gb.rowH, gl.rowH)
	assert.Equal(t, 2*gb.laneW, gl.laneW)
	assert.Equal(t, gb.shown, gl.shown, "every child still fits")

	assert.Equal(t, 2*base.parentBox.size.Height, large.parentBox.size.Height)
	require.Len(t, large.rowBoxes, len(base.rowBoxes))
	assert.Equal(t, 2*base.rowBoxes[0].size.Height, large.rowBoxes[0].size.Height)
	bo, lo := base.rows.Used()[0], large.rows.Used()[0]
	assert.Equal(t, 2*bo.name.TextSize, lo.name.TextSize)
	assert.Equal(t, 2*bo.seq.TextSize, lo.seq.TextSize)
	assert.Equal(t, 2*bo.prefix.TextSize, lo.prefix.TextSize, "the small print at the theme's caption")
	assert.Equal(t, 2*base.bandText.TextSize, large.bandText.TextSize)
	assert.Equal(t, fyne.NewSize(2*zkMinW, 2*zkMinH), large.MinSize())
}

// The znode tree says how tall it draws, so the notes under it start
// there (issue 16).
func TestZNodeTreeDrawnHeight(t *testing.T) {
	widgettest.AssertDrawnHeight(t, "zk-herd", 3*time.Second, NewZNodeTree(), 680)
	widgettest.AssertDrawnHeight(t, "zk-session-expiry", 45*time.Second, NewZNodeTree(), 680)
}

// A watch event in flight to a client names it, whatever else flies: a
// watch is told by its op, not by the text drawn on it.
func TestZKFiredWatchesByOp(t *testing.T) {
	s := &sim.Snapshot{
		Nodes: []sim.NodeView{{Name: "client-1", Client: true}, {Name: "client-2", Client: true}, {Name: "zk-1"}, {Name: "zk-2"}},
		InFlight: []sim.MessageView{
			{From: 2, To: 1, Op: zookeepersim.OpWatch},
			{From: 2, To: 0, Op: zookeepersim.OpPong},
			{From: 2, To: 3, Op: zookeepersim.OpWatch}, // not to a client
			{From: 3, To: 0, Op: zookeepersim.OpWatch},
		},
	}
	assert.Equal(t, []string{"client-1", "client-2"}, zkFiredWatches(s))
}
