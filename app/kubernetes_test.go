package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	kubernetessim "github.com/lockscope/lockscope/sim/kubernetes"
)

// RenewDeadline and RetryPeriod at 0 run with client-go's defaults in
// proportion to LeaseDuration; their sliders say the figure, and follow
// LeaseDuration when it moves.
func TestKubernetesAutoPeriodsSayTheirFigures(t *testing.T) {
	_, v := openTab(t, "kubernetes")
	require.Equal(t, "k8s-paused-leader", v.ctl.Origin())
	deadline, retry := v.slider(kubernetessim.RenewDeadline.Key), v.slider(kubernetessim.RetryPeriod.Key)
	assert.Equal(t, "auto 10 s", deadline.value.Text)
	assert.Equal(t, "auto 2 s", retry.value.Text)

	v.slider("ttl").set(30)
	assert.Equal(t, "auto 20 s", deadline.value.Text)
	assert.Equal(t, "auto 4 s", retry.value.Text)
	v.slider("ttl").set(7)
	assert.Equal(t, "auto 4.667 s", deadline.value.Text)
	assert.Equal(t, "auto 933 ms", retry.value.Text)
	assert.GreaterOrEqual(t, deadline.value.Size().Width, deadline.value.MinSize().Width, "the widest figure fits its cell")

	deadline.set(5)
	assert.Equal(t, "5 s", deadline.value.Text, "a set period is its own figure")
	assert.Equal(t, "auto 933 ms", retry.value.Text)
}

// The Kubernetes tab is leader election: its pictures speak of leaders.
func TestKubernetesTabSpeaksOfLeaders(t *testing.T) {
	_, v := openTab(t, "kubernetes")
	v.seek(31 * time.Second)
	cluster := shownTexts(v.pics.Cluster)
	assert.Contains(t, cluster, "2 clients believe they lead: client-1, client-2")
	assert.Contains(t, cluster, "leading")
	assert.NotContains(t, cluster, "holding the lock")
	timeline := shownTexts(v.pics.Timeline)
	assert.Contains(t, timeline, "two leaders")
	assert.Contains(t, timeline, "2 leaders · 19.003 s")
	assert.Contains(t, shownTexts(v.pics.Metrics), "! 2 LEADERS · DATA SAFE so far")
}
