package widgets

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
)

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
		assert.InDelta(t, tc.want, TTLFraction(redis.KeyView{Left: tc.left, TTL: tc.ttl}), 1e-6, "%v of %v", tc.left, tc.ttl)
	}
}

func TestRedisKeysBarJumpsBackOnRenewal(t *testing.T) {
	test.NewTempApp(t)
	k := NewRedisKeys()
	w := test.NewTempWindow(t, k)
	w.Resize(fyne.NewSize(560, 300))
	snap := gcPauseSnapshot()
	key := &redis.ViewOf(snap).Servers[0].Keys[0]
	key.Left = 1500 * time.Millisecond
	k.SetSnapshot(snap)
	r := test.TempWidgetRenderer(t, k).(*keysRenderer)
	require.Equal(t, 1, r.keys.used)
	bar := r.keys.items[0].bar
	bg := r.keys.items[0].barBg
	low := bar.Size().Width
	assert.InDelta(t, bg.Size().Width*0.15, low, 0.5, "1.5 s of 10 s left fills 15 % of the bar")
	assert.Equal(t, ColorWaiting, bar.FillColor, "a nearly expired key turns amber")

	// A watchdog PEXPIRE: the next instant's snapshot (a snapshot on show
	// is never changed in place; the same one again draws nothing new).
	snap = gcPauseSnapshot()
	redis.ViewOf(snap).Servers[0].Keys[0].Left = 10 * time.Second
	k.SetSnapshot(snap)
	assert.Same(t, bar, r.keys.items[0].bar, "the bar is moved, not rebuilt")
	assert.InDelta(t, bg.Size().Width, bar.Size().Width, 0.5, "renewal jumps the bar back to full")
	assert.Equal(t, ColorOwned, bar.FillColor)

	shown := texts(r.Objects())
	for _, s := range []string{"redis-1", "master · clients use it", "fencing counter 4",
		`lock = "ab12cd34:1"   owner client-2`, "10.000 s of 10.000 s left",
		"set with PX 10000 · expires when redis-1's clock reads 32.000 s",
		"redis-2", "down: the keys it held in memory are gone"} {
		assert.Contains(t, shown, s)
	}
}

func TestRedisKeysFreeLock(t *testing.T) {
	test.NewTempApp(t)
	k := NewRedisKeys()
	w := test.NewTempWindow(t, k)
	w.Resize(fyne.NewSize(560, 200))
	snap := gcPauseSnapshot()
	redis.ViewOf(snap).Servers = redis.ViewOf(snap).Servers[:1]
	redis.ViewOf(snap).Servers[0].Keys = nil
	k.SetSnapshot(snap)
	r := test.TempWidgetRenderer(t, k).(*keysRenderer)
	assert.Contains(t, texts(r.Objects()), "lock — no key: the lock is free")
	assert.Zero(t, r.keys.used)
	assert.NotContains(t, texts(r.Objects()), "master · clients use it", "one server needs no pointer to the master")

	k.SetSnapshot(&sim.Snapshot{Mode: "redlock"})
	assert.Empty(t, texts(r.Objects()), "a snapshot without a Redis view draws nothing")
}
