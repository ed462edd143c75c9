package sim_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// monoMode is a test mode whose only client sets one timer of each kind
// at 0 s (10 s on its monotonic clock, 8 s of work, 13 s on its wall
// clock) and notes, as each fires, the true time and its monotonic clock.
type monoMode struct{ timerMode }

func (monoMode) Name() string                                  { return "monotonic-test" }
func (monoMode) NewClient(sc *sim.Scenario, i int) sim.Process { return &monoProc{} }

var (
	monoAfter = sim.NewTimerKind("after")
	monoWork  = sim.NewTimerKind("work")
	monoWall  = sim.NewTimerKind("wall")
)

// monoFiring is one timer's firing: its kind, the true time, and what the
// client's monotonic clock read.
type monoFiring struct {
	kind       sim.TimerKind
	at, onMono time.Duration
}

type monoProc struct{ fired []monoFiring }

func (p *monoProc) Start(ctx sim.Ctx) {
	ctx.After(10*time.Second, sim.Timer{Kind: monoAfter})
	ctx.Exec(8*time.Second, sim.Timer{Kind: monoWork})
	ctx.AtWall(13*time.Second, sim.Timer{Kind: monoWall})
}

func (p *monoProc) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {}

func (p *monoProc) Fire(ctx sim.Ctx, t sim.Timer) {
	p.fired = append(p.fired, monoFiring{t.Kind, ctx.Now(), ctx.Mono()})
}

func (p *monoProc) Crash(ctx sim.Ctx)                 {}
func (p *monoProc) Restart(ctx sim.Ctx, persist bool) {}
func (p *monoProc) Clone() sim.Process                { c := *p; return &c }

// TestAMonotonicStepMovesTheTimersOnThatClock: a jump of the wall clock
// moves only what was set for a wall-clock time; a step of the monotonic
// clock (Fault.Monotonic) moves the timers set for a time on it, at once
// when the step has passed them, and later when it goes back, and what
// the clock reads; the work, which is execution, moves with neither.
func TestAMonotonicStepMovesTheTimersOnThatClock(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name      string
		by        time.Duration
		monotonic bool
		want      []monoFiring // in the order they fire
	}{
		{"no jump", 0, false, []monoFiring{{monoWork, 8 * s, 8 * s}, {monoAfter, 10 * s, 10 * s}, {monoWall, 13 * s, 13 * s}}},
		{"wall +4 s", 4 * s, false, []monoFiring{{monoWork, 8 * s, 8 * s}, {monoWall, 9 * s, 9 * s}, {monoAfter, 10 * s, 10 * s}}},
		{"monotonic +4 s", 4 * s, true, []monoFiring{{monoAfter, 6 * s, 10 * s}, {monoWork, 8 * s, 12 * s}, {monoWall, 9 * s, 13 * s}}},
		{"monotonic +20 s, past the timers", 20 * s, true, []monoFiring{{monoAfter, 2 * s, 22 * s}, {monoWall, 2 * s, 22 * s}, {monoWork, 8 * s, 28 * s}}},
		{"monotonic -3 s", -3 * s, true, []monoFiring{{monoWork, 8 * s, 5 * s}, {monoAfter, 13 * s, 10 * s}, {monoWall, 16 * s, 13 * s}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := sim.Defaults("monotonic-test")
			require.NoError(t, err)
			sc.Clients, sc.Duration = 1, sim.Duration(20*time.Second)
			if tc.by != 0 {
				sc.Faults = []sim.Fault{{At: sim.Duration(2 * s), ClockJump: sim.ClientName(0), By: sim.Duration(tc.by), Monotonic: tc.monotonic}}
			}
			run, err := sim.New(sc)
			require.NoError(t, err)
			run.Run()
			assert.Equal(t, tc.want, run.Nodes[0].Proc.(*monoProc).fired)
			if tc.by != 0 {
				marks := run.Check.Faults()
				require.Len(t, marks, 1)
				assert.Equal(t, tc.monotonic, marks[0].Monotonic, "the timeline's mark says which clocks moved")
			}
		})
	}
}

// TestMonotonicIsOnlyForAClockJump: "monotonic" on any other fault is
// refused, naming the fault.
func TestMonotonicIsOnlyForAClockJump(t *testing.T) {
	sc, err := sim.Defaults("monotonic-test")
	require.NoError(t, err)
	sc.Clients = 1
	sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Pause: sim.ClientName(0), For: sim.Duration(time.Second), Monotonic: true}}
	assert.ErrorContains(t, sc.Validate(), "faults[0].monotonic: only for a clockJump")
}
