package sweep

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// TestSettleVerdictGivesTheFullRunsVerdict: the sweep's run stops at the
// first event after which every client is done and nothing is on its way to
// the storage (Sim.SettleVerdict); what the sweep reads of it is what the same
// run played to its end says, in every mode, with the pause before the write
// and mid-work, over pauses that end before, during and after the other
// client's turn, and with three clients.
func TestSettleVerdictGivesTheFullRunsVerdict(t *testing.T) {
	stopped := 0 // runs that stopped before their events ran out
	for _, mode := range sim.ModeNames() {
		for _, v := range []struct {
			pauseAt string
			set     func(*sim.Scenario)
		}{
			{PauseBeforeWrite, func(*sim.Scenario) {}},
			{PauseMidWork, func(*sim.Scenario) {}},
			{PauseBeforeWrite, func(sc *sim.Scenario) { sc.Clients = 3 }},
		} {
			base, err := Base(mode)
			require.NoError(t, err)
			v.set(base)
			x, err := ParseAxis("ttl=1s:30s:4")
			require.NoError(t, err)
			y, err := ParseAxis("pause=0s:20s:5")
			require.NoError(t, err)
			sw := &Sweep{Base: base, X: x, Y: y, Seeds: 3, PauseAt: v.pauseAt}
			for _, xv := range x.Values {
				for _, yv := range y.Values {
					for seed := int64(1); seed <= 3; seed++ {
						at := fmt.Sprintf("%s %s clients %d ttl %v pause %v seed %d", mode, v.pauseAt, base.Clients, xv, yv, seed)
						sc := sw.CellScenario(xv, yv, seed, false)
						full, err := sim.New(sc)
						require.NoError(t, err)
						want := full.Run()
						early := sim.NewVerdictRun(sc, false)
						end := early.SettleVerdict()
						if early.Steps() < full.Steps() {
							stopped++
						}
						got := early.Check.Summary(end)
						assert.Equal(t, want.Grants, got.Grants, at)
						assert.Equal(t, want.Acquisitions, got.Acquisitions, at)
						assert.Equal(t, want.Violations, got.Violations, at)
						assert.Equal(t, want.Writes, got.Writes, at)
						assert.Equal(t, want.StaleWritesAccepted, got.StaleWritesAccepted, at)
						assert.Equal(t, want.Safe, got.Safe, at)
						assert.Equal(t, want.AcquireLatencyP50Ms, got.AcquireLatencyP50Ms, at)
						assert.Equal(t, want.AcquireLatencyP99Ms, got.AcquireLatencyP99Ms, at)
						require.Equal(t, len(full.Check.Grants()), len(early.Check.Grants()), at)
						for i, g := range full.Check.Grants() {
							assert.Equal(t, g.At-g.Asked, early.Check.Grants()[i].At-early.Check.Grants()[i].Asked, at)
						}
					}
				}
			}
		}
	}
	assert.Positive(t, stopped, "no run stopped early: the test would show nothing")
}
