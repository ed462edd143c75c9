package sim

import (
	"math/rand/v2"
	"testing"
)

// TestJitterDrawsWhatInt64NDraws checks that the engine's own draw of a
// message's jitter gives, from the same source, the values and the
// source's state that math/rand/v2's Int64N gives: powers of two, the
// defaults' 2 ms in nanoseconds, and bounds large enough to reject draws.
func TestJitterDrawsWhatInt64NDraws(t *testing.T) {
	for _, n := range []uint64{1, 2, 1 << 20, 3, 1000, 2_000_000, 1<<62 + 1, 1<<63 - 25} {
		var s Sim
		s.pcg = *rand.NewPCG(42, 0x9e3779b97f4a7c15)
		want := rand.New(rand.NewPCG(42, 0x9e3779b97f4a7c15))
		for i := range 2000 {
			got, exp := s.jitter(n), uint64(want.Int64N(int64(n)))
			if got != exp {
				t.Fatalf("n=%d, draw %d: jitter %d, Int64N %d", n, i, got, exp)
			}
		}
		if a, b := s.pcg.Uint64(), want.Uint64(); a != b {
			t.Fatalf("n=%d: the sources differ after the draws: %d, %d", n, a, b)
		}
	}
}
