package app

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// playTo plays a controller from its cursor to t in window frames, reading
// the snapshot at each frame as the window does.
func playTo(t *testing.T, c *Controller, to time.Duration) {
	t.Helper()
	c.SetSpeed(SpeedReal) // frames of 33 ms of run time; pacing has its own tests
	c.Play()
	for c.Cursor() < to {
		c.Advance(min(FrameInterval, to-c.Cursor()))
		require.NotNil(t, c.Snapshot())
	}
	c.Pause()
	require.Equal(t, to, c.Cursor())
}

// Seeking to t and playing on to t2 shows exactly what playing from 0 to
// t2 shows, and what a fresh simulator run to t2 holds, for every preset;
// stepping back and forth lands on the same instants too.
func TestSeekThenPlayEqualsPlayingStraight(t *testing.T) {
	for _, name := range assets.PresetNames(sim.ModeNames()) {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // controllers and runs share nothing: the presets use both cores
			sc, err := Preset(name)
			require.NoError(t, err)
			load := func() *Controller {
				c := NewController(sc.Mode)
				require.NoError(t, c.Load(sc, name))
				return c
			}
			straight := load()
			end := straight.End()
			t1 := (end / 3).Truncate(time.Millisecond)
			t2 := (2 * end / 3).Truncate(time.Millisecond)

			playTo(t, straight, t2)

			sought := load()
			sought.Seek(end) // wander first: the end, then back to t1
			require.NotNil(t, sought.Snapshot())
			sought.Seek(t1)
			require.NotNil(t, sought.Snapshot())
			playTo(t, sought, t2)
			assert.Equal(t, straight.Snapshot(), sought.Snapshot(), "seek to %v then play to %v", t1, t2)

			fresh, err := sim.New(sc)
			require.NoError(t, err)
			fresh.RunUntil(t2)
			want, got := fresh.Snapshot(), *sought.Snapshot()
			want.Metrics, got.Metrics = sim.Summary{}, sim.Summary{}
			assert.Equal(t, *want, got, "a fresh run to %v", t2)

			// Three steps back and three forward return to the same event.
			sought.Step()
			at := sought.Cursor()
			snap := sought.Snapshot()
			for range 3 {
				sought.StepBack()
			}
			for range 3 {
				sought.Step()
			}
			assert.Equal(t, at, sought.Cursor())
			assert.Equal(t, snap, sought.Snapshot())
		})
	}
}

// traceBefore is the trace of events strictly before t.
func traceBefore(c *Controller, t time.Duration) []sim.TraceEvent {
	var out []sim.TraceEvent
	for _, e := range c.Recording().Trace() {
		if e.At < t {
			out = append(out, e)
		}
	}
	return out
}

// A control moved at t > 0 forks the run: the change goes into the
// scenario at t, everything before t stays as it was, and the status line
// says the old future is gone.
func TestControlMovedMidRunForksTheFuture(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	at := 5 * time.Second
	c.Seek(at)
	oldPast := traceBefore(c, at)
	oldSnap := c.Recording().At(at - time.Millisecond)
	oldSummary := c.Recording().Summary()
	require.Equal(t, 1, oldSummary.StaleWritesAccepted, "redis-gc-pause corrupts the storage")

	require.NoError(t, c.SetControl("Fencing on", func(sc *sim.Scenario) { sc.Fencing = true }))

	assert.False(t, c.Scenario().Fencing, "the scenario from 0 is unchanged")
	require.Len(t, c.Scenario().Changes, 1)
	ch := c.Scenario().Changes[0]
	assert.Equal(t, sim.Duration(at), ch.At)
	file, err := json.Marshal(ch)
	require.NoError(t, err)
	assert.JSONEq(t, `{"at": "5s", "set": {"fencing": true}}`, string(file), "the change as the file has it")
	assert.Equal(t, oldPast, traceBefore(c, at), "the past is kept event for event")
	assert.Equal(t, oldSnap, c.Recording().At(at-time.Millisecond))
	assert.Equal(t, at, c.Cursor(), "the cursor stays at the fork")
	assert.Contains(t, c.Status(), "the old future after it is gone")

	assert.True(t, c.Effective().Fencing, "the controls show fencing on at the fork")
	c.Seek(at - time.Millisecond)
	assert.False(t, c.Effective().Fencing, "and off before it")
	c.Seek(c.End())
	sum := c.Recording().Summary()
	assert.Equal(t, 0, sum.StaleWritesAccepted, "fenced from 5 s on, the stale write is refused")
	assert.Equal(t, 1, sum.StaleWritesRejected)
}

func TestControlMovedAtZeroEditsTheScenario(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	require.NoError(t, c.SetControl("Fencing on", func(sc *sim.Scenario) { sc.Fencing = true }))
	assert.True(t, c.Scenario().Fencing)
	assert.Empty(t, c.Scenario().Changes)
}

// A field that shapes the whole run (the clients) cannot change mid-run:
// it edits the scenario from 0, and the status line says why.
func TestWholeRunFieldEditsFromZero(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	c.Seek(5 * time.Second)
	require.NoError(t, c.SetControl("Clients 3", func(sc *sim.Scenario) { sc.Clients = 3 }))
	assert.Equal(t, 3, c.Scenario().Clients)
	assert.Empty(t, c.Scenario().Changes)
	assert.Contains(t, c.Note(), "clients shapes the whole run")

	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	require.NoError(t, c.SetControl("客户端 2", func(sc *sim.Scenario) { sc.Clients = 2 }))
	assert.Contains(t, c.Note(), "客户端数", "the field in the reader's words")
	assert.NotContains(t, c.Note(), "clients")
}

// A second fork of the same field before an earlier one drops the later
// change: it belonged to the future the new fork replaces.
func TestForkDropsTheOldFutureOfTheField(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	c.Seek(8 * time.Second)
	require.NoError(t, c.SetControl("TTL 20 s", func(sc *sim.Scenario) { sc.TTL = sim.Duration(20 * time.Second) }))
	require.NoError(t, c.SetControl("Work 2 s", func(sc *sim.Scenario) { sc.Work = sim.Duration(2 * time.Second) }))
	require.Len(t, c.Scenario().Changes, 1, "two controls at one instant are one change")
	assert.Equal(t, []string{"ttl", "work"}, c.Scenario().Changes[0].Set.Fields())

	c.Seek(3 * time.Second)
	require.NoError(t, c.SetControl("TTL 15 s", func(sc *sim.Scenario) { sc.TTL = sim.Duration(15 * time.Second) }))
	chs := c.Scenario().Changes
	require.Len(t, chs, 2)
	assert.Equal(t, sim.Duration(3*time.Second), chs[0].At)
	assert.Equal(t, sim.Duration(8*time.Second), chs[1].At)
	assert.Equal(t, []string{"work"}, chs[1].Set.Fields(), "the later TTL belonged to the old future")

	c.Seek(9 * time.Second)
	assert.Equal(t, sim.Duration(15*time.Second), c.Effective().TTL)
	assert.Equal(t, sim.Duration(2*time.Second), c.Effective().Work)
	require.NoError(t, c.Scenario().Validate())
}

// A fault injected at t keeps the past too.
func TestFaultInjectedMidRunKeepsThePast(t *testing.T) {
	c := loaded(t, "redis-happy-path")
	at := 2500 * time.Millisecond
	c.Seek(at)
	oldPast := traceBefore(c, at)
	require.NoError(t, c.InjectFault(sim.Fault{Pause: "client-2", For: sim.Duration(15 * time.Second)}))
	assert.Equal(t, oldPast, traceBefore(c, at))
	assert.Contains(t, c.Status(), "the old future after it is gone")
	f := c.Scenario().Faults[len(c.Scenario().Faults)-1]
	assert.Equal(t, sim.Duration(at), f.At)
}

// Every preset narrates itself with three to six captions in time order,
// and each tab shows the caption of the cursor's time.
func TestEveryPresetHasCaptionsAndEveryTabShowsThem(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	for _, name := range assets.PresetNames(sim.ModeNames()) {
		sc, err := Preset(name)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, len(sc.Captions), 3, name)
		assert.LessOrEqual(t, len(sc.Captions), 6, name)
		v := w.tab(sc.Mode)
		if v == nil {
			continue
		}
		require.NoError(t, w.Load(sc, name))
		for _, cp := range sc.Captions {
			v.seek(cp.At.D())
			shown, ok := v.ctl.Caption()
			require.True(t, ok)
			assert.Equal(t, cp.At, shown.At, "%s at %v", name, cp.At.D())
			assert.Contains(t, v.pics.Caption.String(), shown.Text, "%s shows its caption above the timeline", name)
		}
	}
}
