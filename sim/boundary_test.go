package sim_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// TestFencedPauseIsRefused is the example: client-1 pauses 8 s in
// its 5 s of work under a 10 s lease. client-2 is granted at 10 s and its
// read raises the storage's token to 2, so client-1's write (token 1),
// arriving at 13 s, is refused. Without fencing it is accepted, and
// client-2's write, based on a read from before it, loses it.
func TestFencedPauseIsRefused(t *testing.T) {
	doc := `{"mode":"redis","ttl":"10s","work":"5s","fencing":%v,"faults":[{"at":"1s","pause":"client-1","for":"8s"}]}`
	for _, fencing := range []bool{true, false} {
		sc, err := sim.ParseScenario([]byte(fmt.Sprintf(doc, fencing)))
		require.NoError(t, err)
		rec, err := sim.Record(sc)
		require.NoError(t, err)
		sum := rec.Summary()
		w := rec.Checker().Writes()
		require.Len(t, w, 2)
		first := w[0]
		assert.Equal(t, sim.NodeID(0), first.Client, "client-1's write arrives first")
		assert.InDelta(t, float64(13*time.Second), float64(first.At), float64(20*time.Millisecond))
		assert.True(t, first.Stale)
		assert.Equal(t, !fencing, first.Accepted)
		assert.Equal(t, fencing, sum.Safe)
		if fencing {
			assert.Equal(t, 1, sum.StaleWritesRejected)
			assert.Zero(t, sum.LostUpdates)
			continue
		}
		assert.Equal(t, 1, sum.StaleWritesAccepted)
		assert.Equal(t, 1, sum.LostUpdates, "client-2 read before client-1's write and overwrites it")
		assert.True(t, w[1].Lost)
	}
}
