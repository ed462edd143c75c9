package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/widgets"
)

// etcdTab opens the whole window on a test app and returns its etcd tab.
func etcdTab(t *testing.T) (*Window, *tabView) {
	t.Helper()
	a := test.NewTempApp(t)
	w := NewWindow(a)
	t.Cleanup(w.Close)
	v := w.tab("etcd")
	require.NotNil(t, v, "the etcd mode has a tab")
	v.frames = &fakeFrames{}
	w.appTabs.SelectIndex(w.index(v))
	require.Equal(t, "etcd", w.CurrentMode())
	return w, v
}

func TestEtcdTabShowsTheLeaseExpiryViolation(t *testing.T) {
	_, v := etcdTab(t)
	require.Equal(t, "etcd-lease-expiry", v.ctl.Origin(), "the tab opens with Jepsen's set-up")
	assert.Equal(t, "2 s", v.slider("etcdLease").value.Text)
	assert.Equal(t, "3", v.slider("etcdNodes").value.Text)
	assert.Equal(t, "3 s", v.slider("pause").value.Text)
	assert.False(t, v.toggles["etcdFencing"].Checked)
	assert.False(t, v.toggles["etcdHerd"].Checked)

	v.seek(3700 * time.Millisecond)
	snap := v.pics.Cluster.Snapshot()
	assert.Equal(t, []string{"client-1", "client-2"}, widgets.Holders(snap))
	state := shownTexts(v.pics.State)
	assert.Contains(t, state, "OWNER")
	assert.Contains(t, state, "rev 3")
	assert.Contains(t, state, "raft term 1 · leader etcd-1")
	cluster := shownTexts(v.pics.Cluster)
	assert.Contains(t, cluster, "leader", "the cluster view marks the raft leader")
	assert.Contains(t, cluster, "expired", "and client-1's session, closed by a keepalive answered TTL 0")

	v.selectPreset("etcd-fenced-txn")
	require.Equal(t, "etcd-fenced-txn", v.ctl.Origin())
	assert.True(t, v.toggles["etcdFencing"].Checked)
	v.seek(4528 * time.Millisecond)
	assert.Equal(t, 1, v.ctl.Snapshot().Metrics.StaleWritesRejected)
	assert.Contains(t, shownTexts(v.pics.State), "/storage/data last put by client-2 at revision 5 · 1 guarded write refused")
}

func TestEtcdTabTogglesAndSliders(t *testing.T) {
	_, v := etcdTab(t)
	v.toggles["etcdFencing"].SetChecked(true)
	assert.True(t, v.ctl.Scenario().Fencing)
	assert.Equal(t, 0, v.ctl.Recording().Summary().StaleWritesAccepted, "the guarded write saves the data")

	v.toggles["etcdHerd"].SetChecked(true)
	assert.True(t, v.ctl.Scenario().Herd)

	nodes := v.slider("etcdNodes")
	nodes.set(5)
	assert.Equal(t, 5, v.ctl.Scenario().Nodes)
	assert.Len(t, etcd.ViewOf(v.ctl.Snapshot()).Members, 5)

	lease := v.slider("etcdLease")
	lease.set(1)
	assert.Equal(t, sim.Duration(time.Second), v.ctl.Scenario().TTL)
	assert.Equal(t, "1 s → 2 s", lease.value.Text, "etcd raises a 1 s lease to its minimum")
	lease.set(6)
	assert.Equal(t, "6 s", lease.value.Text)
	v.seek(4 * time.Second)
	assert.Len(t, widgets.Holders(v.pics.Cluster.Snapshot()), 1, "a 6 s lease outlives the 3 s pause")
}

func TestEtcdGrantedTTL(t *testing.T) {
	for _, tc := range []struct{ ttl, want time.Duration }{
		{500 * time.Millisecond, 2 * time.Second},
		{time.Second, 2 * time.Second},
		{2 * time.Second, 2 * time.Second},
		{2500 * time.Millisecond, 3 * time.Second}, // WithTTL takes whole seconds
		{60 * time.Second, 60 * time.Second},
	} {
		assert.Equal(t, tc.want, etcd.EtcdGrantedTTL(tc.ttl), "%v", tc.ttl)
	}
}

func TestEtcdProtocolFollowsTheScenario(t *testing.T) {
	sc, err := assets.Preset("etcd-lease-expiry")
	require.NoError(t, err)
	lines := etcdProtocol(sc)
	assert.Equal(t, "session: LeaseGrant TTL 2 s; KeepAlive every 667 ms (TTL/3)", lines[0])
	assert.Contains(t, lines, "wait: watch the delete of the newest older key (waitDeletes), until none is left")
	assert.Contains(t, lines, "write: to a storage outside etcd, no token: it takes every write")
	assert.Contains(t, lines, "unlock: Delete(myKey) · lease revoked 2 s after its last keepalive · 3 members, quorum 2")

	sc = sc.Clone()
	sc.TTL, sc.Herd, sc.Fencing, sc.Nodes = sim.Duration(time.Second), true, true, 5
	lines = etcdProtocol(sc)
	assert.Equal(t, "session: LeaseGrant TTL 1 s, raised to etcd's 2 s minimum; KeepAlive every 667 ms (TTL/3)", lines[0])
	assert.Contains(t, lines, "wait (herd): watch the whole prefix; each delete wakes every waiter")
	assert.Contains(t, lines, "write: Txn If(CreateRevision(myKey) == myRev) Then(Put); token = create revision")
	assert.Contains(t, lines[len(lines)-1], "5 members, quorum 3")
}
