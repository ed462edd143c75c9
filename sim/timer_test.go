package sim_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// timerMode is a test mode whose only client sets a work timer (execution
// time, frozen by a pause) and cancels it at a given instant, so the
// engine's timer bookkeeping is seen on its own.
type timerMode struct{}

func (timerMode) Name() string                                  { return "timer-test" }
func (timerMode) Defaults(sc *sim.Scenario)                     {}
func (timerMode) Validate(sc *sim.Scenario) error               { return nil }
func (timerMode) Servers(sc *sim.Scenario) []string             { return []string{"server-1"} }
func (timerMode) NewServer(sc *sim.Scenario, i int) sim.Process { return &timerProc{} }
func (timerMode) NewClient(sc *sim.Scenario, i int) sim.Process { return &timerProc{client: true} }
func (timerMode) CanFailover(sc *sim.Scenario, node string) error {
	return nil
}
func (timerMode) Failover(s *sim.Sim, node sim.NodeID) {}
func (timerMode) View(s *sim.Sim, snap *sim.Snapshot)  {}

// Traits: the test mode reads the fields that have no refusal words of
// their own, so it need not say why it refuses them.
func (timerMode) Traits() sim.Traits {
	return sim.Traits{Fields: []string{"fencing", "replica", "plainDel", "watchdog"}}
}

// timerCancelAt is when the client cancels its work timer.
var timerCancelAt time.Duration

// The test process's timer kinds.
var (
	timerTestWork   = sim.NewTimerKind("work")
	timerTestOther  = sim.NewTimerKind("other")
	timerTestCancel = sim.NewTimerKind("cancel")
)

type timerProc struct {
	client bool
	work   sim.TimerID
	fired  []sim.TimerKind
}

func (p *timerProc) Start(ctx sim.Ctx) {
	if !p.client {
		return
	}
	p.work = ctx.Exec(2*time.Second, sim.Timer{Kind: timerTestWork})
	// A second frozen timer, so that the two come back from a pause in
	// other places of the queue than they were set in.
	ctx.Exec(4*time.Second, sim.Timer{Kind: timerTestOther})
	ctx.After(timerCancelAt, sim.Timer{Kind: timerTestCancel})
}

func (p *timerProc) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {}

func (p *timerProc) Fire(ctx sim.Ctx, t sim.Timer) {
	p.fired = append(p.fired, t.Kind)
	if t.Kind == timerTestCancel {
		ctx.Cancel(p.work)
	}
}

func (p *timerProc) Crash(ctx sim.Ctx)                 {}
func (p *timerProc) Restart(ctx sim.Ctx, persist bool) {}
func (p *timerProc) Clone() sim.Process                { c := *p; return &c }

// TestCancelFindsTimerWherever: a timer is cancelled whether it is queued,
// frozen by a pause, or queued again after the pause (where it lies at
// another place in the queue than when it was set).
func TestCancelFindsTimerWherever(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cancelAt time.Duration
		pause    bool
		want     []sim.TimerKind
	}{
		{"queued", time.Second, false, []sim.TimerKind{timerTestCancel, timerTestOther}},
		{"never cancelled", 4500 * time.Millisecond, false, []sim.TimerKind{timerTestWork, timerTestOther, timerTestCancel}},
		// Paused from 1 s to 2 s: the work is frozen with 1 s left.
		{"cancelled when the pause ends", 1500 * time.Millisecond, true, []sim.TimerKind{timerTestCancel, timerTestOther}},
		{"queued again after the pause", 2500 * time.Millisecond, true, []sim.TimerKind{timerTestCancel, timerTestOther}},
		{"fired before the cancel", 3500 * time.Millisecond, true, []sim.TimerKind{timerTestWork, timerTestCancel, timerTestOther}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			timerCancelAt = tc.cancelAt
			sc, err := sim.Defaults("timer-test")
			require.NoError(t, err)
			sc.Clients, sc.Duration = 1, sim.Duration(10*time.Second)
			if tc.pause {
				sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Pause: sim.ClientName(0), For: sim.Duration(time.Second)}}
			}
			s, err := sim.New(sc)
			require.NoError(t, err)
			s.Run()
			assert.Equal(t, tc.want, s.Nodes[0].Proc.(*timerProc).fired)
		})
	}
}
