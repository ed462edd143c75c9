package sim_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

// TestDashboardOfThePresets: the dashboard says what each preset is
// about: Redis's and Redlock's waiters retry (contention near 1), the
// queues of ZooKeeper and etcd never fail a try and grant in request
// order, the herd costs messages, an expiring lease shows as a failed
// renewal and an expiry while held.
func TestDashboardOfThePresets(t *testing.T) {
	for _, tc := range []struct {
		preset string
		check  func(t *testing.T, m sim.Metrics)
	}{
		{"redis-gc-pause", func(t *testing.T, m sim.Metrics) {
			assert.Equal(t, 2, m.Run.Acquisitions)
			assert.Greater(t, m.Run.FailedTries, 50, "client-2 retries every ~100 ms for 10 s")
			assert.Greater(t, *m.Run.ContentionRatio, 0.9)
			assert.Equal(t, 1, m.Run.ExpiredWhileHeld)
			assert.Equal(t, 1, m.Clients[0].ExpiredWhileHeld, "client-1's lease, while it believed")
			assert.Nil(t, m.Run.RenewalSuccessRate, "no watchdog: nothing renews")
			assert.Greater(t, m.Run.HoldTime.MaxMs, 15000.0, "client-1 believed through its 15 s pause")
			assert.Equal(t, 0, m.Clients[0].FailedTries)
		}},
		{"redis-watchdog-freeze", func(t *testing.T, m sim.Metrics) {
			require.NotNil(t, m.Run.RenewalSuccessRate)
			assert.Positive(t, m.Run.Renewals)
			assert.Less(t, *m.Run.RenewalSuccessRate, 1.0, "the frozen watchdog's renewal failed")
		}},
		{"redis-happy-path", func(t *testing.T, m sim.Metrics) {
			assert.Positive(t, m.Fairness.Inversions, "jittered retries: a later asker may win")
		}},
		{"zk-happy-path", func(t *testing.T, m sim.Metrics) {
			assert.Equal(t, 5, m.Run.Acquisitions)
			assert.Equal(t, 0, m.Run.FailedTries, "a queue: no try fails")
			assert.Equal(t, 0.0, *m.Run.ContentionRatio)
			assert.Equal(t, 0, m.Fairness.Inversions, "granted in request order")
			assert.Equal(t, 1.0, *m.Run.AcquireSuccessRate)
		}},
		{"etcd-happy-path", func(t *testing.T, m sim.Metrics) {
			assert.Equal(t, 0, m.Fairness.Inversions)
			require.NotNil(t, m.Run.RenewalSuccessRate)
			assert.Equal(t, 1.0, *m.Run.RenewalSuccessRate, "every keepalive answered")
		}},
		{"etcd-lease-expiry", func(t *testing.T, m sim.Metrics) {
			require.NotNil(t, m.Run.RenewalSuccessRate)
			assert.Less(t, *m.Run.RenewalSuccessRate, 1.0, "the paused holder's keepalives stop")
			assert.Equal(t, 1, m.Run.ExpiredWhileHeld)
		}},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			rec, err := sim.Record(simtest.Preset(t, tc.preset, nil))
			require.NoError(t, err)
			m := rec.Metrics(rec.End())
			sum := rec.Summary()
			assert.Equal(t, sum.Acquisitions, m.Run.Acquisitions)
			assert.Equal(t, sum.ExpiredWhileHeld, m.Run.ExpiredWhileHeld)
			assert.Equal(t, m.Run.Acquisitions+m.Run.GaveUp+m.Run.Waiting, m.Run.Rounds)
			assert.Equal(t, m.Run.Acquisitions+m.Run.FailedTries, m.Run.Tries)
			require.NotNil(t, m.MessagesPerAcquisition)
			assert.InDelta(t, float64(sum.Messages)/float64(sum.Acquisitions), *m.MessagesPerAcquisition, 0.001)
			assert.InDelta(t, float64(sum.Acquisitions)/rec.End().Seconds(), m.GrantsPerSecond, 0.001)
			n := 0
			for _, c := range m.Clients {
				n += c.Acquisitions
			}
			assert.Equal(t, m.Run.Acquisitions, n, "the clients add up to the run")
			assert.Equal(t, m.Run.Acquisitions, m.Run.AcquireLatency.Count)
			total := 0
			for _, b := range m.Run.AcquireLatency.Histogram {
				total += b.Count
			}
			assert.Equal(t, m.Run.AcquireLatency.Count, total, "the histogram holds the sample")
			tc.check(t, m)
		})
	}
}

// TestDashboardUpToTheCursor: at an instant the dashboard counts what
// happened by then, as the summary does.
func TestDashboardUpToTheCursor(t *testing.T) {
	rec, err := sim.Record(simtest.Preset(t, "redis-gc-pause", nil))
	require.NoError(t, err)
	before := rec.Metrics(5 * time.Second)
	assert.Equal(t, 1, before.Run.Acquisitions)
	assert.Equal(t, 1, before.Run.Waiting, "client-2 still asking")
	require.NotNil(t, before.Run.AcquireSuccessRate)
	assert.Equal(t, 1.0, *before.Run.AcquireSuccessRate, "of the rounds that ended, all got the lock")
	assert.Equal(t, 0, before.Run.ExpiredWhileHeld)
	after := rec.Metrics(rec.End())
	assert.Greater(t, after.Run.FailedTries, before.Run.FailedTries)
	assert.Nil(t, rec.Metrics(0).MessagesPerAcquisition, "nothing acquired at 0")
	// Messages per acquisition counts the messages sent by the instant.
	at := 5 * time.Second
	require.NotNil(t, before.MessagesPerAcquisition)
	assert.Equal(t, float64(rec.At(at).Metrics.Messages), *before.MessagesPerAcquisition, "one acquisition by 5 s")
}

func TestDistributionAndInversions(t *testing.T) {
	d := sim.DistributionOf([]float64{0.5, 3, 3, 10, 1000})
	assert.Equal(t, 5, d.Count)
	assert.Equal(t, 3.0, d.P50Ms)
	assert.Equal(t, 1000.0, d.MaxMs)
	assert.Equal(t, 1000.0, d.P99Ms)
	require.NotEmpty(t, d.Histogram)
	assert.Equal(t, sim.Bin{FromMs: 0, ToMs: 1, Count: 1}, d.Histogram[0])
	assert.Equal(t, sim.Bin{FromMs: 2, ToMs: 4, Count: 2}, d.Histogram[2])
	last := d.Histogram[len(d.Histogram)-1]
	assert.Equal(t, sim.Bin{FromMs: 512, ToMs: 1024, Count: 1}, last)
	assert.Equal(t, sim.Distribution{Histogram: []sim.Bin{}}, sim.DistributionOf(nil))

	for _, tc := range []struct {
		asked []time.Duration
		want  int
	}{
		{nil, 0},
		{[]time.Duration{1, 2, 3}, 0},
		{[]time.Duration{3, 2, 1}, 3},
		{[]time.Duration{1, 3, 2, 4}, 1},
		{[]time.Duration{2, 2, 1}, 2},
	} {
		assert.Equal(t, tc.want, sim.Inversions(tc.asked), "%v", tc.asked)
	}
}
