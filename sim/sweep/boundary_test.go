package sweep_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

// TestDefaultGridBoundaryPerMode sweeps each mode over the trade-off
// view's default grid (ttl 1–30 s × pause 0–20 s, the pause striking the
// first holder after its last check, just before it sends its write) and
// holds every cell to the mode's analytic boundary: with fencing off a
// paused holder that outlives its lease corrupts the data, Redlock and
// ZooKeeper included; one that does not is safe; with fencing on no cell
// is unsafe in Redis, ZooKeeper and etcd.
func TestDefaultGridBoundaryPerMode(t *testing.T) {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	// lease is how long the holder's claim survives its silence, from the
	// moment it stops (ms), and since when: Redis and Redlock keys count
	// from the grant, so the work counts too; ZooKeeper sessions and etcd
	// leases are kept alive while the holder runs, so only the pause does.
	type bounds struct {
		safeBelow, unsafeAbove float64 // in ms of "exposure"
	}
	tests := []struct {
		mode    string
		fencing bool
		bounds  func(ttl, work float64) bounds
		exposed func(pause, work float64) float64
	}{
		{"redis", false, func(ttl, work float64) bounds {
			// the key expires ttl after the grant; the next retry (≤150 ms) gets in
			return bounds{ttl - 100, ttl + 300}
		}, func(p, w float64) float64 { return p + w }},
		{"redlock", false, func(ttl, work float64) bounds {
			return bounds{ttl - 100, ttl + 400}
		}, func(p, w float64) float64 { return p + w }},
		{"zookeeper", false, func(ttl, work float64) bounds {
			// the session expires a session timeout after the last ping
			// (pings every third of it), at the leader's next tick
			s := ms(zookeeper.SessionTimeout(time.Duration(ttl) * time.Millisecond))
			return bounds{2 * s / 3, s + ms(zookeeper.TickTime) + 500}
		}, func(p, w float64) float64 { return p }},
		{"etcd", false, func(ttl, work float64) bounds {
			// the lease (whole seconds, at least the minimum) expires a TTL
			// after the last keepalive (every third of it), at the lessor's
			// next 500 ms tick
			l := math.Max(math.Ceil(ttl/1000)*1000, ms(etcd.MinLeaseTTL))
			return bounds{2 * l / 3, l + 1000}
		}, func(p, w float64) float64 { return p }},
		{"redis", true, nil, nil},
		{"zookeeper", true, nil, nil},
		{"etcd", true, nil, nil},
	}
	for _, tt := range tests {
		name := tt.mode
		if tt.fencing {
			name += "/fencing"
		}
		t.Run(name, func(t *testing.T) {
			base, err := sweep.Base(tt.mode)
			require.NoError(t, err)
			base.Fencing = tt.fencing
			sw := &sweep.Sweep{Base: base, X: axis(t, "ttl=1s:30s:30"), Y: axis(t, "pause=0s:20s:21"), Seeds: 2}
			work := ms(base.Work.D())
			unsafe := 0
			for _, c := range runSweep(t, sw, 0) {
				if c.UnsafeRate > 0 {
					unsafe++
				}
				if tt.fencing {
					assert.Zero(t, c.UnsafeRate, "ttl %v pause %v: fencing refuses every stale write", c.X, c.Y)
					continue
				}
				b, e := tt.bounds(c.X, work), tt.exposed(c.Y, work)
				switch {
				case e >= b.unsafeAbove:
					assert.Equal(t, 1.0, c.UnsafeRate, "ttl %v pause %v must be unsafe", c.X, c.Y)
				case e <= b.safeBelow:
					assert.Zero(t, c.UnsafeRate, "ttl %v pause %v must be safe", c.X, c.Y)
				}
			}
			if !tt.fencing {
				assert.Greater(t, unsafe, 150, "a paused holder outlives its lease in many cells")
			}
		})
	}
}
