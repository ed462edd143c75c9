package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// TestSettleWaitsForRequestsInFlight: a crashed client counts as done, but
// a write it sent before it crashed is still on its way to the storage (here
// held in the paused storage's backlog) and is judged when it lands: Settle
// must not stop before it does, or the stale write goes unseen.
func TestSettleWaitsForRequestsInFlight(t *testing.T) {
	sc, err := sim.ParseScenario([]byte(`{"mode":"zookeeper","seed":1,"duration":"60s","clients":2,"rounds":1,
		"work":"2s","tries":0,
		"faults":[{"when":"before-write","pause":"client-1","for":"15s"},
		          {"at":"16900ms","pause":"storage","for":"20s"},
		          {"at":"17500ms","crash":"client-1"}]}`))
	require.NoError(t, err)
	full, err := sim.New(sc)
	require.NoError(t, err)
	want := full.Run()
	require.Equal(t, 1, want.StaleWritesAccepted, "client-1's write, sent before its crash, lands stale: %+v", want)
	early, err := sim.New(sc)
	require.NoError(t, err)
	end := early.Settle()
	got := early.Check.Summary(end)
	assert.Equal(t, want.Writes, got.Writes)
	assert.Equal(t, want.StaleWritesAccepted, got.StaleWritesAccepted)
	assert.Equal(t, want.LostUpdates, got.LostUpdates)
	assert.Equal(t, want.Safe, got.Safe)
	assert.Less(t, early.Steps(), full.Steps(), "it still stops once the write has landed")
}
