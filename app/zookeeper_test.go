package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/zookeeper"
	zookeeperwidget "github.com/lockscope/lockscope/widgets/zookeeper"
)

// zkTab opens the whole window on a test app and returns its ZooKeeper tab.
func zkTab(t *testing.T) *tabView {
	t.Helper()
	_, v := openTab(t, "zookeeper")
	return v
}

func joined(xs []string) string { return strings.Join(xs, "\n") }

func TestZKTabShowsTheQueue(t *testing.T) {
	v := zkTab(t)
	assert.Equal(t, "zk-happy-path", v.ctl.Origin(), "the tab opens on the happy path")
	for _, p := range []string{"zk-happy-path", "zk-herd", "zk-gc-pause", "zk-session-expiry", "zk-minority-partition", "zk-leader-crash"} {
		assert.Contains(t, v.toolbar.presetSlugs, p)
	}
	_, ok := v.pics.State.(*zookeeperwidget.ZNodeTree)
	require.True(t, ok, "the state picture is the znode tree")

	v.seek(600 * time.Millisecond) // four waiters queued behind client-1
	state := shownTexts(v.pics.State)
	for _, s := range []string{"/locks/mylock", "HOLDER · seq 0", "1st in line", "2nd in line", "3rd in line", "4th in line"} {
		assert.Contains(t, state, s)
	}
	assert.Contains(t, joined(state), "each waiter watches the znode just before its own")
	cluster := shownTexts(v.pics.Cluster)
	assert.Contains(t, cluster, "leader", "the cluster marks the leader")
	assert.Contains(t, cluster, "follower")

	// The herd toggle re-records with every waiter on the lock znode.
	v.controls.toggles["herd"].SetChecked(true)
	require.True(t, isOn(v.ctl.Scenario(), "herd"))
	assert.Equal(t, 600*time.Millisecond, v.ctl.Cursor(), "the cursor stays")
	assert.Contains(t, joined(shownTexts(v.pics.State)), "every waiter watches its children (herd)")
	for _, w := range zookeeper.ViewOf(v.ctl.Snapshot()).Watches {
		assert.Equal(t, zookeeper.LockPath, w.Path, "%s watches the lock znode", w.Client)
	}
	assert.Equal(t, 16, v.ctl.Recording().Summary().WatchNotifications, "(n−1)² for five clients")
}

func TestZKTabSliders(t *testing.T) {
	v := zkTab(t)
	session := v.slider("ttl")
	require.NotNil(t, session)
	assert.Equal(t, "10 s", session.value.Text)
	session.set(60)
	assert.Equal(t, sim.Duration(60*time.Second), v.ctl.Scenario().TTL, "the scenario keeps what the client asks for")
	assert.Equal(t, "60→40 s", session.value.Text, "the slider shows what the server grants")
	v.seek(600 * time.Millisecond)
	for _, s := range zookeeper.ViewOf(v.ctl.Snapshot()).Sessions {
		assert.Equal(t, 40*time.Second, s.Timeout, "%s's session is clamped to 20 ticks", s.Owner)
	}

	servers := v.slider("nodes")
	require.NotNil(t, servers)
	servers.set(5)
	assert.Equal(t, 5, count(v.ctl.Scenario(), "nodes"))
	snap := v.ctl.Snapshot()
	assert.Len(t, zookeeper.ViewOf(snap).Servers, 5)
	assert.Equal(t, 3, zookeeper.ViewOf(snap).Quorum)
	assert.Contains(t, joined(shownTexts(v.pics.State)), "a write commits on 3 of 5 acks")

	latency := v.slider("latency")
	require.NotNil(t, latency)
	v.seek(0) // at 0 a control edits the whole run; later it forks from the cursor
	latency.set(20)
	assert.Equal(t, sim.Duration(20*time.Millisecond), v.ctl.Scenario().Latency)
	for _, key := range []string{"work", "pause", "clients"} {
		assert.NotNil(t, v.slider(key), key)
	}
}

// The partitioned holder goes SUSPENDED; with respectSuspended it is told
// (its belief ends before client-2's grant: no overlap) and its worker
// reads the listener's flag before writing and does not write (the data
// is safe); without it the stale write is taken.
func TestZKTabSessionExpiry(t *testing.T) {
	v := zkTab(t)
	v.toolbar.selectPreset("zk-session-expiry")
	require.Equal(t, "zk-session-expiry", v.ctl.Origin())
	stop := v.controls.toggles["respectSuspended"]
	require.True(t, stop.Checked)
	assert.Zero(t, v.ctl.Recording().Summary().StaleWritesAccepted)
	assert.True(t, v.ctl.Recording().Summary().Safe)
	assert.Zero(t, v.ctl.Recording().Summary().Violations, "told SUSPENDED, client-1 no longer believed when client-2 was granted")

	v.seek(6800 * time.Millisecond)
	assert.Contains(t, shownTexts(v.pics.Cluster), zookeeper.SessionSuspended, "the client's box names its connection state")
	state := shownTexts(v.pics.State)
	assert.Contains(t, state, zookeeper.SessionSuspended)
	assert.NotContains(t, state, "not working", "the worker reads the flag only before its write")

	v.seek(0) // at 0 a control edits the whole run; later it forks from the cursor
	stop.SetChecked(false)
	require.False(t, isOn(v.ctl.Scenario(), "respectSuspended"))
	assert.Equal(t, 1, v.ctl.Recording().Summary().StaleWritesAccepted, "CURATOR-206: the holder keeps working and writes")

}

// A holder paused past its session writes after its successor: the
// znode sequence as fencing token turns that write away.
func TestZKTabFencing(t *testing.T) {
	v := zkTab(t)
	v.toolbar.selectPreset("zk-gc-pause")
	sum := v.ctl.Recording().Summary()
	require.False(t, sum.Safe)
	assert.Equal(t, 1, sum.StaleWritesAccepted)

	v.controls.toggles["fencing"].SetChecked(true)
	require.True(t, v.ctl.Scenario().Fencing)
	sum = v.ctl.Recording().Summary()
	assert.True(t, sum.Safe, "the znode sequence fences the late write")
	assert.Equal(t, 1, sum.StaleWritesRejected)

	v.seek(22 * time.Second) // client-1 resumed, believing it still holds
	assert.Contains(t, shownTexts(v.pics.State), "! client-1 believes it holds the lock, but its znode is gone (its session expired)")
}

func TestZKTabElection(t *testing.T) {
	v := zkTab(t)
	v.toolbar.selectPreset("zk-leader-crash")
	v.seek(3100 * time.Millisecond)
	assert.True(t, zookeeper.ViewOf(v.ctl.Snapshot()).Electing)
	assert.Contains(t, joined(shownTexts(v.pics.State)), "ELECTION: no established leader — writes stall")
	v.seek(5 * time.Second)
	assert.Contains(t, joined(shownTexts(v.pics.State)), "leader zk-3 · epoch 2")
}
