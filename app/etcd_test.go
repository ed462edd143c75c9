package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/widgets"
)

// etcdTab opens the whole window on a test app and returns its etcd tab.
func etcdTab(t *testing.T) (*Window, *tabView) {
	t.Helper()
	return openTab(t, "etcd")
}

func TestEtcdTabShowsTheLeaseExpiryViolation(t *testing.T) {
	_, v := etcdTab(t)
	require.Equal(t, "etcd-lease-expiry", v.ctl.Origin(), "the tab opens with Jepsen's set-up")
	assert.Equal(t, "2 s", v.slider("ttl").value.Text)
	assert.Equal(t, "3", v.slider("nodes").value.Text)
	assert.Equal(t, "3 s", v.slider("pause").value.Text)
	assert.False(t, v.controls.toggles["fencing"].Checked)
	assert.False(t, v.controls.toggles["herd"].Checked)

	v.seek(3200 * time.Millisecond)
	assert.Equal(t, []string{"client-1", "client-2"}, widgets.Holders(v.pics.Cluster.Snapshot()), "paused, client-1 still believes")
	v.seek(3700 * time.Millisecond)
	snap := v.pics.Cluster.Snapshot()
	assert.Equal(t, []string{"client-2"}, widgets.Holders(snap), "awake, client-1 was told by Session.Done()")
	state := shownTexts(v.pics.State)
	assert.Contains(t, state, "OWNER")
	assert.Contains(t, state, "rev 3")
	assert.Contains(t, state, "raft term 1 · leader etcd-1")
	cluster := shownTexts(v.pics.Cluster)
	assert.Contains(t, cluster, "leader", "the cluster view marks the raft leader")
	assert.Contains(t, cluster, "expired", "and client-1's session, closed by a keepalive answered TTL 0")
	assert.Contains(t, cluster, "told it may have lost the lock", "client-1's state, in words")

	v.toolbar.selectPreset("etcd-fenced-txn")
	require.Equal(t, "etcd-fenced-txn", v.ctl.Origin())
	assert.True(t, v.controls.toggles["fencing"].Checked)
	v.seek(4528 * time.Millisecond)
	assert.Equal(t, 1, v.ctl.Snapshot().Metrics.StaleWritesRejected)
	assert.Contains(t, shownTexts(v.pics.State), "/storage/data last put by client-2 at revision 5 · 1 guarded write refused")
}

func TestEtcdTabTogglesAndSliders(t *testing.T) {
	_, v := etcdTab(t)
	v.controls.toggles["fencing"].SetChecked(true)
	assert.True(t, v.ctl.Scenario().Fencing)
	assert.Equal(t, 0, v.ctl.Recording().Summary().StaleWritesAccepted, "the guarded write saves the data")

	v.controls.toggles["herd"].SetChecked(true)
	assert.True(t, isOn(v.ctl.Scenario(), "herd"))

	nodes := v.slider("nodes")
	nodes.set(5)
	assert.Equal(t, 5, count(v.ctl.Scenario(), "nodes"))
	assert.Len(t, etcd.ViewOf(v.ctl.Snapshot()).Members, 5)

	lease := v.slider("ttl")
	lease.set(1)
	assert.Equal(t, sim.Duration(time.Second), v.ctl.Scenario().TTL)
	assert.Equal(t, "1 s → 2 s", lease.value.Text, "etcd raises a 1 s lease to its minimum")
	lease.set(6)
	assert.Equal(t, "6 s", lease.value.Text)
	v.seek(4 * time.Second)
	assert.Len(t, widgets.Holders(v.pics.Cluster.Snapshot()), 1, "a 6 s lease outlives the 3 s pause")
}

// Settings saved before the etcd tab's lease, members, latency, herd and
// fencing were the shared controls (keyed etcdLease, etcdNodes, ...) are
// still restored, under the controls' keys now.
func TestEtcdSettingsSavedUnderFormerKeysAreRestored(t *testing.T) {
	a := appWithSavedTab(t, "etcd", "etcd-lease-expiry", "etcdLease=6;etcdNodes=5;etcdLatency=40", "etcdFencing=1;etcdHerd=1")
	w := NewWindow(a)
	defer w.Close()
	sc := w.tab("etcd").ctl.Scenario()
	assert.Equal(t, sim.Duration(6*time.Second), sc.TTL)
	assert.Equal(t, 5, count(sc, "nodes"))
	assert.Equal(t, sim.Duration(40*time.Millisecond), sc.Latency)
	assert.True(t, sc.Fencing)
	assert.True(t, isOn(sc, "herd"))
}
