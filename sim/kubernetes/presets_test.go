package kubernetes_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim/simtest"
)

// TestPresetsTellWhatTheirCaptionsSay: each Kubernetes preset's outcome,
// as its captions and docs/designs.md tell it: who leads when, how long
// two believed they led, and what the storage took.
func TestPresetsTellWhatTheirCaptionsSay(t *testing.T) {
	for _, tc := range []struct {
		preset            string
		grants            []string      // who led, in order
		takeover          time.Duration // the second leader's grant, 0 for none
		severalHolders    time.Duration // both believed they led this long
		staleAccepted     int
		staleRefused      int
		violations        int
		takeoverTolerance time.Duration
	}{
		{"k8s-paused-leader", []string{"client-1", "client-2"}, 21 * time.Second, 19 * time.Second, 4, 0, 1, 100 * time.Millisecond},
		{"k8s-paused-leader-fenced", []string{"client-1", "client-2"}, 21 * time.Second, 19 * time.Second, 0, 4, 1, 100 * time.Millisecond},
		{"k8s-fast-clock", []string{"client-1", "client-2"}, 16880 * time.Millisecond, 9930 * time.Millisecond, 5, 0, 1, 100 * time.Millisecond},
		{"k8s-cut-off", []string{"client-1", "client-2"}, 23 * time.Second, 0, 0, 0, 0, 100 * time.Millisecond},
		{"k8s-shutdown-hooks", []string{"client-1", "client-2"}, 20850 * time.Millisecond, 0, 1, 0, 0, 100 * time.Millisecond},
		{"k8s-release-on-cancel", []string{"client-1", "client-3", "client-2"}, 4900 * time.Millisecond, 0, 0, 0, 0, 100 * time.Millisecond},
		{"k8s-etcd-leader-crash", []string{"client-1"}, 0, 0, 0, 0, 0, 0},
		{"k8s-clock-jump", []string{"client-1"}, 0, 0, 0, 0, 0, 0},
		{"k8s-monotonic-jump", []string{"client-1", "client-2"}, 4639 * time.Millisecond, 1961 * time.Millisecond, 2, 0, 1, 10 * time.Millisecond},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			sum, rec := simtest.Run(t, simtest.Preset(t, tc.preset, nil))
			var who []string
			for _, g := range rec.Checker().Grants() {
				who = append(who, rec.Checker().NodeName(g.Client))
			}
			assert.Equal(t, tc.grants, who)
			if tc.takeover > 0 {
				require.GreaterOrEqual(t, len(rec.Checker().Grants()), 2)
				assert.InDelta(t, tc.takeover.Seconds(), rec.Checker().Grants()[1].At.Seconds(), tc.takeoverTolerance.Seconds())
			}
			m := rec.Metrics(rec.End())
			assert.InDelta(t, tc.severalHolders.Seconds(), m.SeveralHoldersMs/1000, 0.05, "both believed they led")
			assert.Equal(t, tc.staleAccepted, sum.StaleWritesAccepted)
			assert.Equal(t, tc.staleRefused, sum.StaleWritesRejected)
			assert.Equal(t, tc.violations, sum.Violations)
		})
	}
}
