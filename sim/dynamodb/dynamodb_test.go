package dynamodb_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/dynamodb"
	"github.com/lockscope/lockscope/sim/simtest"
)

// traced reports whether the node traced an event of the kind whose note
// contains part.
func traced(rec *sim.Recording, node, kind string) bool {
	for _, e := range rec.Trace() {
		if e.Node == node && e.Kind.String() == kind {
			return true
		}
	}
	return false
}

func TestDynamoDBPresets(t *testing.T) {
	tests := []struct {
		preset string
		edit   func(*sim.Scenario)
		check  func(t *testing.T, sum sim.Summary, rec *sim.Recording)
	}{
		{"dynamodb-happy-path", nil, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			assert.Equal(t, 6, sum.Acquisitions)
			assert.Zero(t, sum.Violations)
			assert.True(t, sum.Safe)
		}},
		{"dynamodb-paused-holder", nil, func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
			g, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok, "client-2 takes the item over")
			assert.GreaterOrEqual(t, g.AtMs, 20000.0, "not before client-2 saw the version unchanged a whole leaseDuration")
			assert.Less(t, g.AtMs, 21500.0, "at its first read after that")
			assert.GreaterOrEqual(t, sum.Violations, 1)
			assert.Equal(t, 1, sum.StaleWritesAccepted)
			assert.False(t, sum.Safe)
			assert.True(t, traced(rec, "client-1", "heartbeat"), "client-1's heartbeat thread finds its lock expired")
		}},
		{"dynamodb-paused-holder", func(sc *sim.Scenario) { sc.Faults[0].For = sim.Duration(15 * time.Second) }, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			assert.Zero(t, sum.Violations, "a pause shorter than the lease: the heartbeat after it changes the version first")
			assert.True(t, sum.Safe)
		}},
		{"dynamodb-fast-clock", nil, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			g, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok)
			assert.Less(t, g.AtMs, 17000.0, "client-2's fast clock takes over before client-1 resumes")
			assert.GreaterOrEqual(t, sum.Violations, 1)
			assert.Equal(t, 1, sum.StaleWritesAccepted)
		}},
		{"dynamodb-fast-clock", func(sc *sim.Scenario) { sc.ClockDrift = 0 }, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			assert.Zero(t, sum.Violations, "with clocks that agree the 16 s pause is safe")
			assert.True(t, sum.Safe)
		}},
		{"dynamodb-version-guards-only-the-lock", nil, func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
			assert.Equal(t, 1, sum.StaleWritesAccepted, "the write after the check lands")
			assert.False(t, sum.Safe)
			assert.True(t, traced(rec, "dynamodb-1", "condition"), "the table refuses client-1's late calls")
		}},
		{"dynamodb-session-monitor", nil, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			assert.Zero(t, sum.StaleWritesAccepted, "the callback stops the worker before its write")
			assert.Zero(t, sum.Violations)
			assert.True(t, sum.Safe)
		}},
		{"dynamodb-session-monitor", func(sc *sim.Scenario) { dynamodb.SafeTime.Set(sc, 0) }, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			assert.GreaterOrEqual(t, sum.Violations, 1, "without the monitor the cut-off holder works on")
			assert.False(t, sum.Safe)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			sum, rec := simtest.Run(t, simtest.Preset(t, tt.preset, tt.edit))
			tt.check(t, sum, rec)
		})
	}
}
