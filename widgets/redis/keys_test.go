package redis

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	redissim "github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// keysSnapshot is the GC-pause story's two Redis servers at 12 s, written
// by hand: redis-1, the master, its clock 10 s ahead, holding client-2's
// key with 8 s of 10 s left and its fencing counter at 4; redis-2, the
// replica, crashed.
func keysSnapshot() *sim.Snapshot {
	return &sim.Snapshot{
		Mode: "redis", At: 12 * time.Second, End: 30 * time.Second,
		Nodes: []sim.NodeView{
			{Name: "redis-1", Role: redissim.RoleMaster, Wall: 22 * time.Second, Skew: 10 * time.Second},
			{Name: "redis-2", Role: redissim.RoleReplica, Crashed: true, Wall: 12 * time.Second},
		},
		Design: &redissim.View{Master: 0, Servers: []redissim.ServerView{
			{Node: 0, Role: redissim.RoleMaster, Counter: 4, Keys: []redissim.KeyView{{Key: "lock", Owner: "client-2", Value: "ab12cd34:1", TTL: 10 * time.Second, Left: 8 * time.Second}}},
			{Node: 1, Role: redissim.RoleReplica},
		}},
	}
}

func TestTTLFraction(t *testing.T) {
	for _, tc := range []struct {
		left, ttl time.Duration
		want      float32
	}{
		{10 * time.Second, 10 * time.Second, 1},
		{5 * time.Second, 10 * time.Second, 0.5},
		{0, 10 * time.Second, 0},
		{-time.Second, 10 * time.Second, 0},
		{20 * time.Second, 10 * time.Second, 1}, // a clock jumped back
		{time.Second, 0, 0},
	} {
		assert.InDelta(t, tc.want, TTLFraction(redissim.KeyView{Left: tc.left, TTL: tc.ttl}), 1e-6, "%v of %v", tc.left, tc.ttl)
	}
}

func TestRedisKeysBarJumpsBackOnRenewal(t *testing.T) {
	test.NewTempApp(t)
	k := NewKeys()
	w := test.NewTempWindow(t, k)
	w.Resize(fyne.NewSize(560, 300))
	snap := keysSnapshot()
	key := &redissim.ViewOf(snap).Servers[0].Keys[0]
	key.Left = 1500 * time.Millisecond
	k.SetSnapshot(snap)
	r := test.TempWidgetRenderer(t, k).(*keysRenderer)
	require.Equal(t, 1, len(r.keys.Used()))
	bar := r.keys.Used()[0].bar
	bg := r.keys.Used()[0].barBg
	low := bar.Size().Width
	assert.InDelta(t, bg.Size().Width*0.15, low, 0.5, "1.5 s of 10 s left fills 15 % of the bar")
	assert.Equal(t, widgets.ColorWaiting, bar.FillColor, "a nearly expired key turns amber")

	// A watchdog PEXPIRE: the next instant's snapshot (a snapshot on show
	// is never changed in place; the same one again draws nothing new).
	snap = keysSnapshot()
	redissim.ViewOf(snap).Servers[0].Keys[0].Left = 10 * time.Second
	k.SetSnapshot(snap)
	assert.Same(t, bar, r.keys.Used()[0].bar, "the bar is moved, not rebuilt")
	assert.InDelta(t, bg.Size().Width, bar.Size().Width, 0.5, "renewal jumps the bar back to full")
	assert.Equal(t, widgets.ColorOwned, bar.FillColor)

	shown := widgettest.Texts(r.Objects())
	for _, s := range []string{"redis-1", "master · clients use it", "fencing counter 4",
		`lock = "ab12cd34:1"   owner client-2`, "10.000 s of 10.000 s left",
		"set with PX 10000 · expires when redis-1's clock reads 32.000 s",
		"redis-2", "down: the keys it held in memory are gone"} {
		assert.Contains(t, shown, s)
	}
}

func TestRedisKeysFreeLock(t *testing.T) {
	test.NewTempApp(t)
	k := NewKeys()
	w := test.NewTempWindow(t, k)
	w.Resize(fyne.NewSize(560, 200))
	snap := keysSnapshot()
	redissim.ViewOf(snap).Servers = redissim.ViewOf(snap).Servers[:1]
	redissim.ViewOf(snap).Servers[0].Keys = nil
	k.SetSnapshot(snap)
	r := test.TempWidgetRenderer(t, k).(*keysRenderer)
	assert.Contains(t, widgettest.Texts(r.Objects()), "lock — no key: the lock is free")
	assert.Zero(t, len(r.keys.Used()))
	assert.NotContains(t, widgettest.Texts(r.Objects()), "master · clients use it", "one server needs no pointer to the master")

	k.SetSnapshot(&sim.Snapshot{Mode: "redlock"})
	assert.Empty(t, widgettest.Texts(r.Objects()), "a snapshot without a Redis view draws nothing")
}

// The keys picture draws TTL countdowns that move with every instant;
// handed the same snapshot again, it draws nothing.
func TestKeysDrawTheSameSnapshotOnce(t *testing.T) {
	widgettest.AssertDrawsEachSnapshotOnce(t, "redis-gc-pause", NewKeys(),
		func(r fyne.WidgetRenderer) int { return r.(*keysRenderer).refreshes })
}

// A resize places the cards again from the model the last instant built.
func TestKeysResizeLaysOutWithoutRebuilding(t *testing.T) {
	widgettest.AssertResizeLaysOutWithoutRebuilding(t, "redis-gc-pause", 12*time.Second, NewKeys(),
		func(r fyne.WidgetRenderer) int { return r.(*keysRenderer).builds })
}

// The model says what each card shows before any size is known: the
// master in use marked among several servers, a crashed server's and a
// free lock's note instead of keys, each key's line, time left and bar.
func TestKeysModel(t *testing.T) {
	snap := keysSnapshot()
	v := redissim.ViewOf(snap)
	m := buildKeysModel(v.Servers, snap.Nodes, v.Master)
	require.Len(t, m.cards, 2)
	master, replica := m.cards[0], m.cards[1]
	assert.Equal(t, "redis-1", master.node.Name)
	assert.True(t, master.inUse, "clients use the master, one of two servers")
	assert.Equal(t, "master · clients use it", master.role)
	assert.Equal(t, "fencing counter 4", master.counter)
	assert.Empty(t, master.note)
	require.Len(t, master.keys, 1)
	assert.Equal(t, `lock = "ab12cd34:1"   owner client-2`, master.keys[0].line)
	assert.Equal(t, "8.000 s of 10.000 s left", master.keys[0].left)
	assert.InDelta(t, 0.8, master.keys[0].fraction, 1e-6)
	assert.Contains(t, master.keys[0].deadline, "expires when redis-1's clock reads 30.000 s")
	assert.False(t, replica.inUse)
	assert.Equal(t, "down: the keys it held in memory are gone", replica.note)
	assert.Empty(t, replica.keys)

	alone := buildKeysModel(v.Servers[:1], snap.Nodes, v.Master)
	assert.False(t, alone.cards[0].inUse, "one server needs no pointer to the master")
	assert.Equal(t, "master", alone.cards[0].role)
	free := []redissim.ServerView{{Node: 0, Role: redissim.RoleMaster}}
	assert.Equal(t, "lock — no key: the lock is free", buildKeysModel(free, snap.Nodes, 0).cards[0].note)
	assert.Empty(t, buildKeysModel(nil, snap.Nodes, -1).cards)
}

// The geometry shares the height among the cards, none taller than a
// header and the most keys a card lists (two at most), lists on a card only the keys that fit, and drops
// a card's clock when the role and the counter leave it no room.
func TestKeysLayout(t *testing.T) {
	test.NewTempApp(t)
	snap := keysSnapshot()
	v := redissim.ViewOf(snap)
	m := buildKeysModel(v.Servers, snap.Nodes, v.Master)

	g := keysLayout(m, fyne.NewSize(560, 1000), theme.DefaultTheme())
	assert.Equal(t, float32(cardHeadH+keyRowH+cardPad), g.cardH, "a tall picture: cards as high as the most keys one lists, one here")
	require.Len(t, g.cards, 2)
	assert.Equal(t, float32(0), g.cards[0].y)
	assert.Equal(t, g.cardH+theme.InnerPadding(), g.cards[1].y)
	assert.Equal(t, 1, g.cards[0].rows)
	assert.Equal(t, 0, g.cards[1].rows, "a server that is down lists no keys")
	assert.True(t, g.cards[0].showClock)
	assert.Less(t, g.cards[0].roleX+g.cards[0].roleW, g.cards[0].counterX)

	short := keysLayout(m, fyne.NewSize(560, 120), theme.DefaultTheme())
	assert.Equal(t, (120-theme.InnerPadding())/float32(2), short.cardH, "two cards share a short picture")
	assert.Equal(t, 0, short.cards[0].rows, "no room for a key under the header")

	narrow := keysLayout(m, fyne.NewSize(200, 300), theme.DefaultTheme())
	assert.False(t, narrow.cards[0].showClock, "no room for the clock")
	assert.Equal(t, float32(40), narrow.barW, "the bar keeps a length to read")
}

// On a large screen the cards and their words grow with the panel (its
// 1060×560 at 2560×1440 left a 158-point card in 13-point type at the top
// of the panel); at the panel of a 1400×900 window they keep their sizes.
func TestKeysGrowOnALargeScreen(t *testing.T) {
	snap := keysSnapshot()
	v := redissim.ViewOf(snap)
	m := buildKeysModel(v.Servers, snap.Nodes, v.Master)
	small := keysLayout(m, fyne.NewSize(560, 280), theme.DefaultTheme())
	assert.Equal(t, float32(1), small.k)
	large := keysLayout(m, fyne.NewSize(1060, 560), theme.DefaultTheme())
	assert.InDelta(t, 1060.0/keysRefW, large.k, 0.01)
	assert.Greater(t, large.cardH, 1.5*small.cardH, "the cards grow")
	assert.LessOrEqual(t, large.cardH, (cardHeadH+cardMaxBody+cardPad)*large.k)
	assert.Equal(t, 1, large.cards[0].rows, "and still list their key")

	test.NewTempApp(t)
	k := NewKeys()
	w := test.NewTempWindow(t, k)
	w.Resize(fyne.NewSize(1080, 580))
	k.Resize(fyne.NewSize(1060, 560))
	k.SetSnapshot(snap)
	r := test.TempWidgetRenderer(t, k).(*keysRenderer)
	assert.InDelta(t, keysTitleSize*large.k, r.cards.Used()[0].title.TextSize, 0.01, "the words grow with them")
	assert.InDelta(t, keysLineSize*large.k, r.keys.Used()[0].line.TextSize, 0.01)
}

// The cards' lengths and words follow the theme's text size: in a theme
// whose text is twice the default's, at the same size, a card is twice as
// tall, its role pill further right and wider, and its TTL bar shorter
// for the wider "left" beside it.
func TestKeysGrowWithTheThemesText(t *testing.T) {
	snap := keysSnapshot()
	v := redissim.ViewOf(snap)
	m := buildKeysModel(v.Servers, snap.Nodes, v.Master)
	size := fyne.NewSize(560, 1000)
	base := keysLayout(m, size, theme.DefaultTheme())
	large := keysLayout(m, size, widgettest.LargeText())
	assert.Equal(t, 2*base.cardH, large.cardH)
	assert.Equal(t, 2*base.u, large.u)
	assert.Greater(t, large.cards[0].roleX, 1.8*base.cards[0].roleX, "the text's width grows about as its size")
	assert.Greater(t, large.cards[0].roleW, 1.8*base.cards[0].roleW)
	assert.Less(t, large.barW, base.barW)
	assert.Equal(t, base.cards[0].rows, large.cards[0].rows, "the key still fits its taller card")

	a := test.NewTempApp(t)
	a.Settings().SetTheme(widgettest.LargeText())
	k := NewKeys()
	w := test.NewTempWindow(t, k)
	w.Resize(fyne.NewSize(580, 420))
	k.Resize(size)
	k.SetSnapshot(snap)
	r := test.TempWidgetRenderer(t, k).(*keysRenderer)
	assert.Equal(t, fyne.NewSize(2*keysMinW, 2*keysMinH), r.MinSize())
	assert.Equal(t, float32(2*keysTitleSize), r.cards.Used()[0].title.TextSize, "the words grow with the text")
	assert.Equal(t, float32(2*keysLineSize), r.keys.Used()[0].line.TextSize)
}

// The key cards say how tall they draw, so the notes under them start
// there (issue 16).
func TestRedisKeysDrawnHeight(t *testing.T) {
	widgettest.AssertDrawnHeight(t, "redis-gc-pause", 30*time.Second, NewKeys(), 600)
	widgettest.AssertDrawnHeight(t, "redis-failover", 3*time.Second, NewKeys(), 600)
}

// Two servers' cards sharing a short box (the tab at 1024×768 with a
// replica) have no room for a key's row: a card holding the lock says its
// key and what is left of its TTL in one line instead of looking empty,
// and a down server's note stays inside its card; nothing ends below the
// box.
func TestSqueezedCardsSayTheirKeyInOneLine(t *testing.T) {
	texts := widgettest.InShortBox(t, NewKeys(), fyne.NewSize(480, 95), widgettest.SnapshotAt(t, "redis-renewal-never-rescheduled", 24500*time.Millisecond))
	assert.Contains(t, texts, "down: the keys it held in memory are gone")
	found := false
	for _, s := range texts {
		found = found || strings.HasPrefix(s, `lock = "`) && strings.Contains(s, "owner client-1 · 15.") && strings.HasSuffix(s, "of 30.000 s left")
	}
	assert.True(t, found, "redis-2's key in one line: %v", texts)
}
