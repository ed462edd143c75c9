package etcd

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	etcdsim "github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// etcdSnapshot records a preset, changed by edit, and takes its snapshot
// at t.
func etcdSnapshot(t *testing.T, preset string, at time.Duration, edit func(sc *sim.Scenario)) *sim.Snapshot {
	t.Helper()
	sc, err := simtest.Load(preset)
	require.NoError(t, err)
	if edit != nil {
		edit(sc)
	}
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	snap := rec.At(at)
	require.NotNil(t, etcdsim.ViewOf(snap))
	return snap
}

// showEtcd draws snap in a keyspace picture of the given size.
func showEtcd(t *testing.T, snap *sim.Snapshot, size fyne.Size) (*Keys, *etcdRenderer) {
	t.Helper()
	test.NewTempApp(t)
	k := NewKeys()
	w := test.NewTempWindow(t, k)
	w.Resize(size)
	k.Resize(size)
	k.SetSnapshot(snap)
	return k, test.TempWidgetRenderer(t, k).(*etcdRenderer)
}

// containsText reports whether one of the texts contains s.
func containsText(texts []string, s string) bool {
	for _, t := range texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

func TestEtcdKeysQueueInCreateRevisionOrder(t *testing.T) {
	snap := etcdSnapshot(t, "etcd-happy-path", 400*time.Millisecond, nil)
	_, r := showEtcd(t, snap, fyne.NewSize(560, 260))
	m, g := r.model, r.geom
	require.Len(t, m.rows, 4)
	require.Equal(t, 4, g.shown)
	assert.Equal(t, float32(etcdRowH), g.rowH, "four keys fit at full height")
	for i, row := range m.rows {
		assert.Equal(t, int64(i+2), row.key.CreateRev, "rows in create-revision order")
		assert.Equal(t, "client-"+string(rune('1'+i)), row.client)
		assert.Equal(t, i == 0, row.owner, "the oldest key owns the lock")
		frame := r.rows.Used()[i].frame
		assert.InDelta(t, g.rowY(i), frame.Position().Y, 0.01)
		assert.LessOrEqual(t, frame.Position().Y+frame.Size().Height, r.k.Size().Height)
	}
	assert.Equal(t, "OWNER", m.rows[0].tag)
	assert.Equal(t, "waits for rev 2", m.rows[1].tag)
	assert.Equal(t, "waits for rev 4", m.rows[3].tag)

	// Each waiter watches the key just before its own: arrows one row up,
	// queued in one lane because none overlaps another.
	require.Len(t, m.arrows, 3)
	assert.Equal(t, 1, m.lanes)
	for _, a := range m.arrows {
		assert.Equal(t, a.from-1, a.to)
		assert.Less(t, g.arrowY(a.to, false), g.arrowY(a.from, true), "the arrow goes up to the older key")
	}
	assert.Equal(t, 3*5, len(r.lines.Used()), "three segments and a two-stroke head per arrow")
	head := r.lines.Used()[3]
	assert.InDelta(t, g.gutter-3, head.Position2.X, 0.01, "the head touches the watched row")
	assert.InDelta(t, g.arrowY(m.arrows[0].to, false), head.Position2.Y, 0.01)

	shown := widgettest.Texts(r.Objects())
	for _, s := range []string{"/locks/mylock/", "revision 5", "raft term 1 · leader etcd-1", "3 watches",
		"rev 2", "OWNER", "waits for rev 3", "members: etcd-1 leader rev 5 · etcd-2 rev 5 · etcd-3 rev 5"} {
		assert.Contains(t, shown, s)
	}
	lease := leaseHex(m.rows[0].key.Lease)
	assert.Contains(t, shown, "/locks/mylock/"+lease, "the key is the prefix and the lease id in hex")
	assert.Contains(t, shown, "lease "+lease+" · TTL 10 s · keepalive every 3.333 s")
	assert.Empty(t, m.notes, "one holder: nothing to warn about")
}

func TestEtcdKeysHerdWatchesThePrefix(t *testing.T) {
	snap := etcdSnapshot(t, "etcd-happy-path", 400*time.Millisecond, func(sc *sim.Scenario) { etcdsim.Herd.Set(sc, true) })
	_, r := showEtcd(t, snap, fyne.NewSize(560, 260))
	m := r.model
	require.Len(t, m.arrows, 3)
	for _, a := range m.arrows {
		assert.Equal(t, etcdPrefixRow, a.to)
	}
	assert.Equal(t, 1, m.lanes, "the herd's arrows share one trunk to the prefix")
	for _, row := range m.rows[1:] {
		assert.Equal(t, "watches the prefix", row.tag)
	}
	assert.Less(t, r.geom.arrowY(etcdPrefixRow, false), r.geom.rowY(0), "the prefix sits above the keys")
}

func TestEtcdKeysLeaseExpiryViolation(t *testing.T) {
	// Paused (0.5 s to 3.5 s), client-1 still believes: Session.Done()
	// closes only when it wakes.
	snap := etcdSnapshot(t, "etcd-lease-expiry", 3200*time.Millisecond, nil)
	require.Len(t, widgets.Holders(snap), 2)
	_, r := showEtcd(t, snap, fyne.NewSize(560, 220))
	m := r.model
	require.Len(t, m.rows, 1, "client-1's lease was revoked with its key")
	assert.Equal(t, "client-2", m.rows[0].client)
	assert.True(t, m.rows[0].owner)
	assert.Equal(t, int64(3), m.rows[0].key.CreateRev)
	require.Len(t, m.notes, 1)
	assert.Equal(t, "client-1 believes it holds the lock (token 2), but its key is gone: "+
		"CreateRevision(myKey) is 0; nothing checks it before the write", m.notes[0])
	shown := widgettest.Texts(r.Objects())
	assert.True(t, containsText(shown, "client-1 believes it holds the lock"))
	assert.Contains(t, shown, "rev 3")
	assert.False(t, containsText(shown, "/storage/data"), "without fencing the storage is outside etcd")
	for _, s := range []string{"OWNER", "client-2"} {
		assert.Contains(t, shown, s)
	}
	for _, o := range r.notes.Used() {
		for _, l := range o.lines {
			if l.Visible() {
				assert.LessOrEqual(t, l.Position().X+l.MinSize().Width, r.k.Size().Width+1, "a note wraps inside the picture")
			}
		}
	}

	// Awake, told by Session.Done(): no longer a holder, still at work.
	snap = etcdSnapshot(t, "etcd-lease-expiry", 3700*time.Millisecond, nil)
	assert.Equal(t, []string{"client-2"}, widgets.Holders(snap))
	_, r = showEtcd(t, snap, fyne.NewSize(560, 220))
	require.Len(t, r.model.notes, 1)
	assert.Equal(t, "client-1 (token 2) was told by Session.Done() and no longer believes it holds the lock, "+
		"but it works on; nothing checks it before the write", r.model.notes[0])
}

// In an election (etcd's Election) the same notes speak of leading.
func TestEtcdKeysElectionNotesSpeakOfLeading(t *testing.T) {
	snap := etcdSnapshot(t, "etcd-election-paused-leader", 5*time.Second, nil)
	_, r := showEtcd(t, snap, fyne.NewSize(560, 220))
	require.Len(t, r.model.notes, 1)
	assert.Equal(t, "client-1 believes it leads (token 2), but its key is gone: "+
		"CreateRevision(myKey) is 0; nothing checks it before the write", r.model.notes[0])
}

func TestEtcdKeysFencedWriteRefused(t *testing.T) {
	snap := etcdSnapshot(t, "etcd-fenced-txn", 4528*time.Millisecond, nil)
	require.Equal(t, 1, snap.Metrics.StaleWritesRejected)
	require.NotNil(t, etcdsim.ViewOf(snap).Storage)
	_, r := showEtcd(t, snap, fyne.NewSize(560, 220))
	assert.Empty(t, r.model.rows)
	shown := widgettest.Texts(r.Objects())
	assert.Contains(t, shown, "no key under the prefix: the lock is free")
	assert.Contains(t, shown, "/storage/data last put by client-2 at revision 5 · 1 guarded write refused")
	require.Len(t, r.model.notes, 1)
	assert.True(t, strings.HasPrefix(r.model.notes[0], "client-1 (token 2) was told by Session.Done()"), r.model.notes[0])
	assert.True(t, strings.HasSuffix(r.model.notes[0], "so IsOwner refuses its write"), r.model.notes[0])
}

func TestEtcdKeysLeaderless(t *testing.T) {
	snap := etcdSnapshot(t, "etcd-leader-crash", 3500*time.Millisecond, nil)
	require.Empty(t, etcdsim.ViewOf(snap).Leader, "between the crash and the election")
	_, r := showEtcd(t, snap, fyne.NewSize(560, 300))
	shown := widgettest.Texts(r.Objects())
	assert.Contains(t, shown, "raft term 1 · no leader: writes stall, leases frozen")
	assert.True(t, containsText(shown, "etcd-1 down"))
	assert.True(t, containsText(shown, "frozen: no leader"))
	for _, row := range r.model.rows {
		if row.lease != nil {
			assert.True(t, row.lease.Frozen)
			assert.Equal(t, float32(1), LeaseFraction(*row.lease))
		}
	}
}

// leaseView is one key with its lease, Left of 2 s left.
func leaseView(left time.Duration) *sim.Snapshot {
	l := etcdsim.Lease{ID: 0x7ca99b76daa80001, Client: "client-1", TTL: 2 * time.Second, Left: left}
	return &sim.Snapshot{Mode: "etcd", Design: &etcdsim.View{Prefix: etcdsim.Prefix, Leader: "etcd-1", Revision: 2, Term: 1,
		Keys:   []etcdsim.Key{{Key: etcdsim.Prefix + "7ca99b76daa80001", Owner: "client-1", Lease: l.ID, CreateRev: 2, LeaseLeft: left, Holder: true}},
		Leases: []etcdsim.Lease{l}}}
}

func TestEtcdLeaseBarCountsDownAndJumpsBack(t *testing.T) {
	snap := leaseView(300 * time.Millisecond)
	k, r := showEtcd(t, snap, fyne.NewSize(560, 200))
	o := r.rows.Used()[0]
	bar, bg := o.bar, o.barBg
	assert.InDelta(t, bg.Size().Width*0.15, bar.Size().Width, 0.5, "0.3 s of 2 s fills 15 % of the bar")
	assert.Equal(t, widgets.ColorWaiting, bar.FillColor, "a lease about to expire turns amber")
	assert.Equal(t, "300 ms of 2 s", o.left.Text)

	k.SetSnapshot(leaseView(2 * time.Second)) // a keepalive answered
	assert.Same(t, bar, r.rows.Used()[0].bar, "the bar is moved, not rebuilt")
	assert.InDelta(t, bg.Size().Width, bar.Size().Width, 0.5, "a keepalive jumps the bar back to full")
	assert.Equal(t, widgets.ColorOwned, bar.FillColor)

	frozen := leaseView(2 * time.Second)
	etcdsim.ViewOf(frozen).Leader = ""
	etcdsim.ViewOf(frozen).Leases[0].Frozen = true
	k.SetSnapshot(frozen)
	assert.Equal(t, widgets.ColorIdle, bar.FillColor, "no leader: the lease is frozen, drawn grey")
	assert.Equal(t, "frozen: no leader", r.rows.Used()[0].left.Text)

	expired := leaseView(-100 * time.Millisecond)
	etcdsim.ViewOf(expired).Leases[0].Expired = true
	k.SetSnapshot(expired)
	assert.False(t, bar.Visible(), "nothing left")
	assert.Equal(t, "expired, revoke pending", r.rows.Used()[0].left.Text)
}

func TestLeaseFraction(t *testing.T) {
	for _, tc := range []struct {
		l    etcdsim.Lease
		want float32
	}{
		{etcdsim.Lease{TTL: 2 * time.Second, Left: 2 * time.Second}, 1},
		{etcdsim.Lease{TTL: 2 * time.Second, Left: 500 * time.Millisecond}, 0.25},
		{etcdsim.Lease{TTL: 2 * time.Second, Left: -time.Second, Expired: true}, 0},
		{etcdsim.Lease{TTL: 10 * time.Second, Left: 11 * time.Second}, 1}, // restarted by a new leader
		{etcdsim.Lease{TTL: 2 * time.Second, Left: time.Second, Frozen: true}, 1},
		{etcdsim.Lease{}, 0},
	} {
		assert.InDelta(t, tc.want, LeaseFraction(tc.l), 1e-6, "%+v", tc.l)
	}
}

func TestAssignLanes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		arrows []etcdArrow
		lanes  []int
		n      int
	}{
		{"a queue: each to the row above", []etcdArrow{{from: 1, to: 0}, {from: 2, to: 1}, {from: 3, to: 2}}, []int{0, 0, 0}, 1},
		{"the herd: all to the prefix", []etcdArrow{{from: 1, to: etcdPrefixRow}, {from: 2, to: etcdPrefixRow}, {from: 3, to: etcdPrefixRow}}, []int{0, 0, 0}, 1},
		{"a long arrow around a short one", []etcdArrow{{from: 3, to: 0}, {from: 2, to: 1}}, []int{1, 0}, 2},
		{"two to different rows crossing", []etcdArrow{{from: 2, to: 0}, {from: 3, to: 1}}, []int{0, 1}, 2},
		{"none", nil, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := assignLanes(tc.arrows)
			assert.Equal(t, tc.n, n)
			for i, a := range tc.arrows {
				assert.Equal(t, tc.lanes[i], a.lane, "arrow %d", i)
			}
		})
	}
}

func TestEtcdKeysCrowdedRowsStayInside(t *testing.T) {
	snap := etcdSnapshot(t, "etcd-happy-path", 900*time.Millisecond, func(sc *sim.Scenario) {
		sc.Clients, sc.Stagger = 12, sim.Duration(20*time.Millisecond)
	})
	for _, h := range []float32{420, 200, 120} {
		_, r := showEtcd(t, snap, fyne.NewSize(520, h))
		g := r.geom
		require.Len(t, r.model.rows, 12, "twelve sessions, twelve keys")
		if h == 420 {
			assert.Equal(t, 12, g.shown)
		}
		if h < 420 {
			assert.Equal(t, float32(etcdRowSmallH), g.rowH, "thin rows when space is short")
		}
		for _, o := range r.rows.Used() {
			assert.LessOrEqual(t, o.frame.Position().Y+o.frame.Size().Height, h+0.5, "height %v", h)
		}
		if g.shown < 12 {
			assert.True(t, containsText(widgettest.Texts(r.Objects()), "more rows"), "height %v says what it left out", h)
		}
	}
}

func TestEtcdKeysOtherModesDrawNothing(t *testing.T) {
	k, r := showEtcd(t, leaseView(time.Second), fyne.NewSize(560, 200))
	require.NotEmpty(t, widgettest.Texts(r.Objects()))
	k.SetSnapshot(&sim.Snapshot{Mode: "redis"})
	assert.Empty(t, widgettest.Texts(r.Objects()))
	k.SetSnapshot(nil)
	assert.Empty(t, widgettest.Texts(r.Objects()))
}

// The keyspace draws lease countdowns that move with every instant;
// handed the same snapshot again, it draws nothing.
func TestKeysDrawTheSameSnapshotOnce(t *testing.T) {
	widgettest.AssertDrawsEachSnapshotOnce(t, "etcd-happy-path", NewKeys(),
		func(r fyne.WidgetRenderer) int { return r.(*etcdRenderer).refreshes })
}

// A resize places the rows again from the model the last instant built.
func TestKeysResizeLaysOutWithoutRebuilding(t *testing.T) {
	widgettest.AssertResizeLaysOutWithoutRebuilding(t, "etcd-lease-expiry", 8*time.Second, NewKeys(),
		func(r fyne.WidgetRenderer) int { return r.(*etcdRenderer).builds })
}

// On a large screen the rows and their words grow with the panel (its
// 1258×487 at 2560×1440 left four 36-point rows in 12-point type at the
// top); at the panel of a 1400×900 window they keep their sizes.
func TestKeysGrowOnALargeScreen(t *testing.T) {
	snap := etcdSnapshot(t, "etcd-happy-path", 400*time.Millisecond, nil)
	_, small := showEtcd(t, snap, etcdRefSize)
	assert.Equal(t, float32(1), small.geom.k)
	assert.Equal(t, float32(etcdRowH), small.geom.rowH, "the reference size keeps the rows' height")
	assert.Equal(t, float32(12), small.rows.Used()[0].owner.TextSize)

	_, large := showEtcd(t, snap, fyne.NewSize(1258, 487))
	g := large.geom
	assert.InDelta(t, 1.8, g.k, 0.01)
	assert.InDelta(t, etcdRowH*g.k, g.rowH, 0.01, "the rows grow")
	require.Equal(t, 4, g.shown, "and still all fit")
	assert.InDelta(t, etcdHeadH*g.k+etcdMembersH*g.k, g.rowsY, 0.01)
	assert.Greater(t, g.gutter, small.geom.gutter, "so do the watch arrows' lanes")
	o := large.rows.Used()[0]
	assert.InDelta(t, etcdLineSize*g.k, o.owner.TextSize, 0.01, "the words grow with them")
	assert.InDelta(t, large.caption*g.k, o.tag.TextSize, 0.01)
	assert.InDelta(t, etcdHeadSize*g.k, large.head.TextSize, 0.01)
	last := large.rows.Used()[3].frame
	assert.LessOrEqual(t, last.Position().Y+last.Size().Height, float32(487), "inside the panel")
}

// The rows' lengths and words follow the theme's text size: in a theme
// whose text and captions are twice the default's, at the same size, the
// rows, the header and the arrows' gutter are twice as large, and so are
// the words, the small print at the theme's caption size.
func TestKeysGrowWithTheThemesText(t *testing.T) {
	snap := etcdSnapshot(t, "etcd-happy-path", 400*time.Millisecond, nil)
	size := fyne.NewSize(680, 900)
	_, base := showEtcd(t, snap, size)

	a := test.NewTempApp(t)
	a.Settings().SetTheme(widgettest.LargeText())
	k := NewKeys()
	w := test.NewTempWindow(t, k)
	w.Resize(size)
	k.Resize(size)
	k.SetSnapshot(snap)
	large := test.TempWidgetRenderer(t, k).(*etcdRenderer)

	assert.Equal(t, 2*base.geom.k, large.geom.k)
	assert.Equal(t, base.geom.grow, large.geom.grow, "the panel's size scales as before")
	assert.Equal(t, 2*base.geom.rowH, large.geom.rowH)
	assert.Equal(t, 2*base.geom.rowsY, large.geom.rowsY)
	assert.Equal(t, 2*base.geom.gutter, large.geom.gutter)
	assert.Equal(t, base.geom.shown, large.geom.shown, "every row still fits")
	bo, lo := base.rows.Used()[0], large.rows.Used()[0]
	assert.Equal(t, 2*bo.owner.TextSize, lo.owner.TextSize)
	assert.Equal(t, 2*bo.tag.TextSize, lo.tag.TextSize)
	assert.Equal(t, 2*base.head.TextSize, large.head.TextSize)
	assert.Equal(t, 2*bo.frame.Size().Height, lo.frame.Size().Height)
	assert.Equal(t, fyne.NewSize(2*etcdMinW, 2*etcdMinH), large.MinSize())
}

// The keyspace says how tall it draws, so the notes under it start there
// (issue 16): a free lock, a queue of keys with a lease expired, a herd.
func TestEtcdKeysDrawnHeight(t *testing.T) {
	for _, c := range []struct {
		preset string
		at     time.Duration
	}{{"etcd-lease-expiry", 15 * time.Second}, {"etcd-lease-expiry", 3 * time.Second}, {"etcd-happy-path", 2 * time.Second}} {
		widgettest.AssertDrawnHeight(t, c.preset, c.at, NewKeys(), 680)
	}
}

// The header's term and leader end at the panel's edge, with "…" where
// they do not fit, in the narrow panel of a 1024×768 window with the
// event log open (it ran "leader etcd-1" under the panel's border).
func TestEtcdKeysHeaderStaysInside(t *testing.T) {
	snap := etcdSnapshot(t, "etcd-lease-expiry", 15*time.Second, nil)
	for _, w := range []float32{310, 280, 520} {
		_, r := showEtcd(t, snap, fyne.NewSize(w, 150))
		require.False(t, r.term.Hidden)
		assert.LessOrEqual(t, r.term.Position().X+r.term.MinSize().Width, w+0.5, "width %v: %q", w, r.term.Text)
		assert.True(t, strings.HasPrefix(r.term.Text, "raft term"), "width %v: %q", w, r.term.Text)
	}
}
