package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

func loaded(t *testing.T, preset string) *Controller {
	t.Helper()
	c := NewController("redis")
	require.NoError(t, c.LoadPreset(preset))
	return c
}

func TestControllerLoadsPaused(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	assert.True(t, c.Loaded())
	assert.Equal(t, "redis-gc-pause", c.Origin())
	assert.Equal(t, time.Duration(0), c.Cursor())
	assert.False(t, c.Playing())
	assert.Equal(t, 30*time.Second, c.End())
	assert.Equal(t, []string{"client-1", "client-2"}, c.Timeline().Clients)
	require.NotNil(t, c.Snapshot())
	assert.Equal(t, time.Duration(0), c.Snapshot().At)

	err := c.Load(&sim.Scenario{Mode: "zookeeper"}, "x")
	assert.Error(t, err, "a tab takes only its own mode")
	assert.Equal(t, "redis-gc-pause", c.Origin(), "and keeps what it had")
	assert.Error(t, c.LoadPreset("no-such-preset"))
	assert.Equal(t, "redis-gc-pause", c.Origin())
}

func TestControllerSnapshotAtTwelveSecondsHasTwoHolders(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	c.Seek(12 * time.Second)
	snap := c.Snapshot()
	holders := 0
	for _, n := range snap.Nodes {
		if n.State == sim.StateHolding {
			holders++
		}
	}
	assert.Equal(t, 2, holders)
	assert.Equal(t, 1, snap.Metrics.Violations)
	assert.Same(t, snap, c.Snapshot(), "the snapshot is built once per cursor")
}

func TestControllerEditKeepsTheCursor(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	c.Seek(12 * time.Second)
	before := c.Recording()
	require.NoError(t, c.Edit("TTL 20 s", func(sc *sim.Scenario) { sc.TTL = sim.Duration(20 * time.Second) }))
	assert.NotSame(t, before, c.Recording(), "the run is recorded again")
	assert.Equal(t, 12*time.Second, c.Cursor())
	assert.Equal(t, sim.Duration(20*time.Second), c.Scenario().TTL)
	assert.Equal(t, 0, c.Snapshot().Metrics.Violations, "a 20 s lease outlives the 15 s pause up to 12 s")
	assert.Contains(t, c.Status(), "TTL 20 s")

	err := c.Edit("clients 0", func(sc *sim.Scenario) { sc.Clients = 0 })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "clients")
	assert.Equal(t, 2, c.Scenario().Clients, "a bad edit changes nothing")
	assert.Equal(t, sim.Duration(20*time.Second), c.Scenario().TTL)
}

func TestControllerEditDoesNotTouchThePreset(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	sc := c.Scenario()
	require.NoError(t, c.Edit("fencing on", func(sc *sim.Scenario) { sc.Fencing = true }))
	assert.False(t, sc.Fencing, "edits go to a copy")
	assert.True(t, c.Scenario().Fencing)
}

func TestControllerInjectFaultAtTheCursor(t *testing.T) {
	c := loaded(t, "redis-happy-path")
	c.Seek(2345678 * time.Microsecond)
	n := len(c.Scenario().Faults)
	require.NoError(t, c.InjectFault(sim.Fault{Crash: "redis-1"}))
	require.Len(t, c.Scenario().Faults, n+1)
	f := c.Scenario().Faults[n]
	assert.Equal(t, sim.Duration(2345*time.Millisecond), f.At, "at the cursor, to the millisecond")
	for _, n := range c.Snapshot().Nodes {
		if n.Name == "redis-1" {
			assert.True(t, n.Crashed, "the fault shows at once")
		}
	}
	assert.Contains(t, c.Note(), "crash redis-1 at 2.345 s")

	err := c.InjectFault(sim.Fault{Failover: "redis-1"})
	require.Error(t, err, "no replica to fail over to")
	assert.Contains(t, err.Error(), "failover")
	assert.Len(t, c.Scenario().Faults, n+1)
}

func TestControllerStepsAndPlays(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	rec := c.Recording()
	c.Step()
	first := c.Cursor()
	assert.Equal(t, rec.Next(0), first)
	assert.Positive(t, first)
	c.Step()
	assert.Greater(t, c.Cursor(), first)
	c.StepBack()
	assert.Equal(t, first, c.Cursor())

	c.Play()
	require.True(t, c.Playing())
	c.SetSpeed(10)
	c.SetSlowForMessages(false)
	c.Advance(100 * time.Millisecond)
	assert.Equal(t, first+time.Second, c.Cursor(), "10× for 100 ms is one simulated second")
	c.Step()
	assert.False(t, c.Playing(), "stepping pauses")

	c.Play()
	c.Advance(time.Hour)
	assert.Equal(t, c.End(), c.Cursor(), "playback stops at the end")
	assert.False(t, c.Playing())
	c.Play()
	assert.Equal(t, time.Duration(0), c.Cursor(), "play at the end starts again")
	c.TogglePlay()
	assert.False(t, c.Playing())
	c.Advance(time.Second)
	assert.Equal(t, time.Duration(0), c.Cursor(), "a paused run does not move")

	c.Seek(5 * time.Second)
	c.Reset()
	assert.Equal(t, time.Duration(0), c.Cursor())
	c.Seek(-time.Second)
	assert.Equal(t, time.Duration(0), c.Cursor())
	c.Seek(time.Hour)
	assert.Equal(t, c.End(), c.Cursor())
}

func TestControllerSpeedIsClamped(t *testing.T) {
	c := NewController("redis")
	assert.Equal(t, 1.0, c.Speed())
	c.SetSpeed(1e6)
	assert.Equal(t, float64(MaxSpeed), c.Speed())
	c.SetSpeed(0)
	assert.Equal(t, float64(MinSpeed), c.Speed())
}

func TestControllerCaptionFollowsTheCursor(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	for _, tc := range []struct {
		at   time.Duration
		want string
	}{
		{0, "client-1 takes the lock"},
		{999 * time.Millisecond, "client-1 takes the lock"},
		{time.Second, "GC pause"},
		{12 * time.Second, "two clients now believe"},
		{25 * time.Second, "stale write"},
	} {
		c.Seek(tc.at)
		cp, ok := c.Caption()
		require.True(t, ok)
		assert.Contains(t, cp.Text, tc.want, "at %v", tc.at)
	}
	none := NewController("redis")
	_, ok := none.Caption()
	assert.False(t, ok)
}

func TestFormatSpeed(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{1, "1×"}, {2.5, "2.5×"}, {31.6, "32×"}, {100, "100×"}, {0.5, "0.5×"}, {0.0126, "0.013×"}, {0.01, "0.01×"},
	} {
		assert.Equal(t, tc.want, FormatSpeed(tc.x))
	}
}

func TestStepDeltaMovesAHundredthOfTheRun(t *testing.T) {
	c := NewController("redis")
	require.NoError(t, c.LoadPreset("redis-gc-pause"))
	c.Play()
	c.StepDelta()
	assert.False(t, c.Playing())
	assert.Equal(t, 300*time.Millisecond, c.Cursor(), "30 s run: Δt = 300 ms")
	for i := 0; i < 200; i++ {
		c.StepDelta()
	}
	assert.Equal(t, c.End(), c.Cursor(), "stops at the end")
}

// At 1× with the default settings every message of a run stays on the
// cluster view for the flight time, frame after frame, however short its
// trip; between messages the run plays at the speed.
func TestControllerSlowsWhileMessagesFly(t *testing.T) {
	c := loaded(t, "redis-happy-path")
	require.True(t, c.SlowForMessages(), "on by default")
	require.Equal(t, 1.0, c.Speed())
	const upTo = 3 * time.Second
	type msg struct {
		from, to int
		sent     time.Duration
	}
	frames := map[msg]int{}
	c.Play()
	slowed := false
	for c.Playing() && c.Cursor() < upTo {
		for _, m := range c.Snapshot().InFlight {
			frames[msg{m.From, m.To, m.SentAt}]++
		}
		if c.Rate() < 1 {
			slowed = true
			assert.Contains(t, c.Status(), "while messages fly", "the status line says the clock is slowed")
		}
		c.Advance(FrameInterval)
	}
	require.True(t, slowed)
	want := int(MessageFlightTime/FrameInterval) - 1
	n := 0
	for _, f := range c.Recording().Flights() {
		if f.Due >= upTo || len(f.Shown) == 0 {
			continue
		}
		n++
		assert.GreaterOrEqual(t, frames[msg{int(f.From), int(f.To), f.Sent}], want,
			"%+v is on show for at least %d frames at 1×", f, want)
	}
	require.Greater(t, n, 5, "messages in the first seconds")

	// Between messages the clock runs at the speed.
	var quiet time.Duration
	for _, at := range c.Recording().EventTimes() {
		if at > time.Second && c.pace().Share(at) == 1 && c.pace().Share(at+time.Millisecond) == 1 {
			quiet = at
			break
		}
	}
	require.Positive(t, quiet)
	c.Seek(quiet)
	c.Play()
	assert.Equal(t, 1.0, c.Rate())
	assert.NotContains(t, c.Status(), "while messages fly")
	c.Advance(time.Millisecond)
	assert.Equal(t, quiet+time.Millisecond, c.Cursor())

	// Turned off, playback is uniform at the speed, messages or not.
	f := c.Recording().Flights()[0]
	c.SetSlowForMessages(false)
	c.Seek(f.Sent)
	c.Play()
	assert.Equal(t, 1.0, c.Rate())
	c.Advance(FrameInterval)
	assert.Equal(t, f.Sent+FrameInterval, c.Cursor())
}
