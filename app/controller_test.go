package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
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
	c.SetSpeed(Speed10)
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

func TestControllerSpeedStops(t *testing.T) {
	c := NewController("redis")
	assert.Equal(t, SpeedStory, c.Speed())
	c.SetSpeed(Speed(99))
	assert.Equal(t, SpeedStory, c.Speed(), "no such stop")
	assert.Equal(t, SpeedStory, SpeedStory.next(false))
	assert.Equal(t, SpeedFastest, SpeedFastest.next(true))
	for _, sp := range Speeds {
		got, ok := ParseSpeed(sp.String())
		assert.True(t, ok)
		assert.Equal(t, sp, got)
		assert.True(t, i18n.Has(i18n.English, "speed."+sp.String()) && i18n.Has(i18n.Chinese, "speed."+sp.String()), sp)
	}
	_, ok := ParseSpeed("0.5")
	assert.False(t, ok)

	// A run with captions plays as a story; one without, at its pace; a
	// stop the user chose stays whatever is loaded.
	require.NoError(t, c.LoadPreset("redis-gc-pause"))
	assert.Equal(t, SpeedStory, c.Speed())
	sc := c.Scenario().Clone()
	sc.Captions = nil
	require.NoError(t, c.Load(sc, "no captions"))
	assert.Equal(t, SpeedPaced, c.Speed())
	require.NoError(t, c.LoadPreset("redis-gc-pause"))
	assert.Equal(t, SpeedStory, c.Speed())
	c.SetStoryStops(false)
	assert.Equal(t, SpeedPaced, c.Speed(), "story stops off: the same pace, no stops")
	c.SetStoryStops(true)
	c.SetSpeed(Speed100)
	require.NoError(t, c.LoadPreset("redis-happy-path"))
	assert.Equal(t, Speed100, c.Speed())
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

func TestPaceWords(t *testing.T) {
	for _, tc := range []struct {
		rate float64
		want string
	}{
		{1, "in real time"},
		{0.999, "in real time"},
		{10, "10 s of the run every second"},
		{2.5, "2.5 s of the run every second"},
		{100, "1.7 min of the run every second"},
		{10000, "2.8 h of the run every second"},
		{0.5, "1 s of the run every 2 s"},
		{0.25, "1 s of the run every 4 s"},
		{0.0067, "10 ms of the run every 1.5 s"},
		{0.00033, "1 ms of the run every 3 s"},
		{0, "time stands still"},
	} {
		assert.Equal(t, tc.want, PaceWords(tc.rate), "%v", tc.rate)
	}
	i18n.Set(i18n.Chinese)
	defer i18n.Set(i18n.English)
	assert.Equal(t, "每 2 s 播放运行中的 1 s", PaceWords(0.5))
	assert.NotContains(t, PaceWords(0.0041), "×", "no factor wording")
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

// At the run's own pace every key message of a run stays on the cluster
// view for at least the dwell (0.3 s), frame after frame, however short
// its trip, and the whole run plays in about what its pacing says; the
// status line says how fast time passes, in words.
func TestPacedPlaybackShowsEveryKeyMessage(t *testing.T) {
	c := loaded(t, "redis-happy-path")
	c.SetSpeed(SpeedPaced)
	type msg struct {
		from, to int
		sent     time.Duration
	}
	frames := map[msg]int{}
	c.Play()
	n := 0
	for ; c.Playing(); n++ {
		for _, m := range c.Snapshot().InFlight {
			frames[msg{m.From, m.To, m.SentAt}]++
		}
		assert.NotContains(t, c.Status(), "×")
		c.Advance(FrameInterval)
	}
	assert.Equal(t, c.End(), c.Cursor())
	played := time.Duration(n) * FrameInterval
	sum := c.pace().Summary()
	assert.InDelta(t, sum.Seconds, played.Seconds(), FrameInterval.Seconds()*2, "the run takes what its pacing says")
	assert.GreaterOrEqual(t, played, 20*time.Second)
	assert.LessOrEqual(t, played, 60*time.Second)
	want := int(sim.StoryPace.KeyDwell/FrameInterval) - 1
	keys := 0
	for _, f := range c.Recording().Flights() {
		if !f.Key || len(f.Shown) == 0 {
			continue
		}
		keys++
		assert.GreaterOrEqual(t, frames[msg{int(f.From), int(f.To), f.Sent}], want,
			"%+v is on show for at least %d frames", f, want)
	}
	require.Greater(t, keys, 5)

	c.Seek(0)
	c.Play()
	assert.Contains(t, c.Status(), "of the run every", "the pace in words")

	// At real time playback is uniform, messages or not.
	f := c.Recording().Flights()[0]
	c.SetSpeed(SpeedReal)
	c.Seek(f.Sent)
	c.Play()
	assert.Equal(t, 1.0, c.Rate())
	assert.Contains(t, c.Status(), "in real time")
	c.Advance(FrameInterval)
	assert.Equal(t, f.Sent+FrameInterval, c.Cursor())

	// As fast as possible: the whole run in FastestRun.
	c.SetSpeed(SpeedFastest)
	c.Seek(0)
	c.Play()
	c.Advance(FastestRun / 2)
	assert.Equal(t, c.End()/2, c.Cursor())
}

// TestStoryStopsAtEachCaption: the story holds at each caption's instant
// until Space (Play) or → (Step) goes on, and plays the whole preset in
// 20 to 60 s of frames besides.
func TestStoryStopsAtEachCaption(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	require.Equal(t, SpeedStory, c.Speed())
	var want []time.Duration
	for _, cp := range c.Scenario().Captions {
		if cp.At.D() > 0 {
			want = append(want, cp.At.D())
		}
	}
	require.Greater(t, len(want), 2)
	var stops []time.Duration
	frames := 0
	c.Play()
	for c.Cursor() < c.End() && frames < 10_000 {
		c.Advance(FrameInterval)
		frames++
		if c.AtStoryStop() {
			require.False(t, c.Playing())
			stops = append(stops, c.Cursor())
			assert.Contains(t, c.Status(), "Space or → goes on")
			c.Advance(time.Second)
			assert.Equal(t, stops[len(stops)-1], c.Cursor(), "held until told")
			if len(stops)%2 == 0 {
				c.Step() // → goes on
			} else {
				c.TogglePlay() // Space goes on
			}
			require.True(t, c.Playing())
			require.False(t, c.AtStoryStop())
		}
	}
	assert.Equal(t, want, stops)
	played := time.Duration(frames) * FrameInterval
	assert.GreaterOrEqual(t, played, 20*time.Second)
	assert.LessOrEqual(t, played, 60*time.Second)

	c.SetSpeed(SpeedPaced)
	c.Seek(0)
	c.Play()
	for c.Playing() {
		c.Advance(FrameInterval)
		require.False(t, c.AtStoryStop(), "free play ignores the stops")
	}
}

// TestJumpMoments: N and Shift+N go through the run's moments of interest,
// saying which.
func TestJumpMoments(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	ms := c.Moments()
	require.NotEmpty(t, ms)
	var seen []time.Duration
	for c.JumpMoment(true) {
		seen = append(seen, c.Cursor())
		assert.Contains(t, c.Note(), widgets.FormatTime(c.Cursor()))
	}
	assert.Equal(t, i18n.T("status.noMoment"), c.Note())
	require.NotEmpty(t, seen)
	for i := 1; i < len(seen); i++ {
		require.Greater(t, seen[i], seen[i-1])
	}
	for _, m := range ms {
		assert.Contains(t, seen, m.At)
		assert.NotEqual(t, sim.MomentCaption, m.Kind)
	}
	grant := c.Timeline().Grants[1].At
	assert.Contains(t, seen, grant, "the second grant")
	for i := len(seen) - 2; i >= 0; i-- {
		require.True(t, c.JumpMoment(false))
		assert.Equal(t, seen[i], c.Cursor())
	}
	assert.False(t, c.JumpMoment(false))
}
