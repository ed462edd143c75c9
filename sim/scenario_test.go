package sim_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

func TestParseScenarioDefaults(t *testing.T) {
	sc, err := sim.ParseScenario([]byte(`{"mode": "redis"}`))
	require.NoError(t, err)
	assert.Equal(t, 10*time.Second, sc.TTL.D())
	assert.Equal(t, 2, sc.Clients)
	assert.Equal(t, 1, sc.Rounds)
	assert.Nil(t, sc.Option("driftFactor"), "redis has no drift factor: it is redlock's")
	assert.Nil(t, sc.Option("respectSuspended"), "nor a ConnectionStateListener: it is zookeeper's")
	assert.Equal(t, []string{"replica", "failoverAfter", "sentinels", "downAfter", "watchdog", "plainDel", "client", "reenter", "readers"}, optionKeys(sc.Mode))
	assert.Equal(t, sim.Duration(3*time.Second), redis.FailoverAfter.Of(sc))
	rl, err := sim.ParseScenario([]byte(`{"mode": "redlock"}`))
	require.NoError(t, err)
	assert.Equal(t, 0.01, redlock.DriftFactor.Of(rl))
	assert.Equal(t, 5, redlock.Nodes.Of(rl))
	zk, err := sim.ParseScenario([]byte(`{"mode": "zookeeper"}`))
	require.NoError(t, err)
	assert.True(t, zookeeper.RespectSuspended.Of(zk))

	sc, err = sim.ParseScenario([]byte(`{"mode": "redis", "rounds": 0, "ttl": "250ms", "latency": 5}`))
	require.NoError(t, err)
	assert.Equal(t, 0, sc.Rounds, "an explicit 0 is kept: until the end")
	assert.Equal(t, 250*time.Millisecond, sc.TTL.D())
	assert.Equal(t, 5*time.Millisecond, sc.Latency.D(), "a bare number is milliseconds")
}

func TestParseScenarioErrorsNameTheField(t *testing.T) {
	tests := []struct {
		doc  string
		want string
	}{
		{`[]`, "scenario: not a JSON object"},
		{`{"mode": "redis"`, "scenario: not a JSON object"},
		{`{}`, "mode: missing"},
		{`{"mode": "memcached"}`, `mode: unknown mode "memcached"`},
		{`{"mode": "redis", "ttl": "5x"}`, `ttl: want a duration such as "10s", got "5x"`},
		{`{"mode": "redis", "ttl": "-1s"}`, "ttl: -1s is negative"},
		{`{"mode": "redis", "ttl": "0s"}`, "ttl: must be more than 0"},
		{`{"mode": "redis", "duration": "25h"}`, "duration: 25h0m0s is longer than 24h0m0s"},
		{`{"mode": "redis", "clients": 201}`, "clients: 201, want 1 to 200"},
		{`{"mode": "redis", "clients": "two"}`, "clients: want int, got string"},
		{`{"mode": "redis", "colour": "red"}`, "colour: unknown field"},
		{`{"mode": "redis", "herd": true}`, "herd: only zookeeper and etcd"},
		{`{"mode": "redis", "faults": {}}`, "faults: want a list of faults"},
		{`{"mode": "redis", "faults": [{"pause": "client-1", "for": "1s"}]}`, "faults[0].at: missing"},
		{`{"mode": "redis", "faults": [{"at": "1s", "pause": "client-1", "for": "1s"}, {"at": "1s", "pause": "client-1", "for": "1s"}, {"at": "oops", "crash": "redis-1"}]}`, `faults[2].at: want a duration`},
		{`{"mode": "redis", "faults": [{"at": "1s", "pause": "client-9", "for": "1s"}]}`, `faults[0].pause: unknown node "client-9"`},
		{`{"mode": "redis", "faults": [{"at": "1s", "pause": "client-1"}]}`, "faults[0].for: a pause needs a length"},
		{`{"mode": "redis", "faults": [{"at": "1s", "crash": "redis-1", "pause": "client-1", "for": "1s"}]}`, "faults[0]: want exactly one of"},
		{`{"mode": "redis", "faults": [{"at": "1s", "failover": "redis-1"}]}`, "faults[0].failover: failover needs a replica"},
		{`{"mode": "redis", "faults": [{"at": "1s", "partition": [["client-1"], ["client-1", "redis-1"]], "for": "1s"}]}`, `faults[0].partition: "client-1" is in two groups`},
		{`{"mode": "redis", "faults": [{"at": "1s", "crash": "redis-1", "whence": "now"}]}`, "faults[0].whence: unknown field"},
		{`{"mode": "redis", "faults": [{"at": "1s", "when": "granted", "pause": "client-1", "for": "1s"}]}`, "faults[0].when: give either at or when, not both"},
		{`{"mode": "redis", "faults": [{"when": "later", "pause": "client-1", "for": "1s"}]}`, `faults[0].when: "later" is not a step (one of granted, before-write)`},
		{`{"mode": "redis", "faults": [{"when": "granted", "crash": "redis-1"}]}`, `faults[0].crash: "redis-1" is not a client`},
		{`{"mode": "redis", "faults": [{"when": "granted", "pause": "storage", "for": "1s"}]}`, `faults[0].pause: "storage" is not a client`},
		{`{"mode": "redis", "faults": [{"when": "granted", "partition": [["client-1"]], "for": "1s"}]}`, `faults[0].partition: a fault with "when" is a pause, crash or clockJump of one client`},
		{`{"mode": "redis", "faults": [{"at": "1s", "round": 2, "pause": "client-1", "for": "1s"}]}`, `faults[0].round: a round needs "when"`},
		{`{"mode": "redis", "faults": [{"when": "before-write", "round": -1, "pause": "client-1", "for": "1s"}]}`, `faults[0].round: -1 is negative`},
		{`{"mode": "redis", "checkValidity": true}`, "checkValidity: only for redlock"},
		{`{"mode": "redis", "faults": [` + strings.Repeat(`{"at": "1s", "crash": "redis-1"},`, sim.MaxFaults) + `{"at": "1s", "crash": "redis-1"}]}`, "faults: 10001 faults, at most 10000"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := sim.ParseScenario([]byte(tt.doc))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "\n", "one line")
		})
	}
}

func TestScenarioRoundTrip(t *testing.T) {
	for _, name := range simtest.PresetNames() {
		t.Run(name, func(t *testing.T) {
			sc, err := simtest.Load(name)
			require.NoError(t, err)
			b, err := sc.Marshal()
			require.NoError(t, err)
			back, err := sim.ParseScenario(b)
			require.NoError(t, err)
			assert.Equal(t, sc, back)
			again, err := back.Marshal()
			require.NoError(t, err)
			assert.Equal(t, string(b), string(again))
		})
	}
}

func TestScenarioCloneIsDeep(t *testing.T) {
	sc, err := sim.ParseScenario([]byte(`{"mode": "redis", "faults": [{"at": "1s", "partition": [["client-1"]], "for": "2s"}]}`))
	require.NoError(t, err)
	c := sc.Clone()
	c.Faults[0].Partition[0][0] = "client-2"
	c.Faults = append(c.Faults, sim.Fault{})
	assert.Equal(t, "client-1", sc.Faults[0].Partition[0][0])
	assert.Len(t, sc.Faults, 1)
}

func FuzzParseScenario(f *testing.F) {
	for _, name := range simtest.PresetNames() {
		b, _ := assets.PresetFile(name)
		f.Add(b)
	}
	f.Add([]byte(`{"mode": "redis", "faults": [{"at": "1s"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := sim.ParseScenario(data)
		if err != nil {
			msg := err.Error()
			if !strings.Contains(msg, ":") || strings.Contains(msg, "\n") {
				t.Fatalf("error does not name a field on one line: %q", msg)
			}
			return
		}
		if sc.Duration.D() > time.Minute || sc.Clients > 20 || len(sc.Faults) > 50 {
			return // valid but too slow to run inside a fuzz iteration
		}
		s, err := sim.New(sc)
		if err != nil {
			t.Fatalf("parsed scenario fails New: %v", err)
		}
		s.Run()
	})
}

func TestChangeForksTheFuture(t *testing.T) {
	base := simtest.Preset(t, "redis-gc-pause", nil)
	forked := base.Clone()
	forked.Changes = []sim.Change{change(t, `{"at": "500ms", "set": {"fencing": true}}`)}
	require.NoError(t, forked.Validate())
	a, err := sim.Record(base)
	require.NoError(t, err)
	b, err := sim.Record(forked)
	require.NoError(t, err)
	assert.Equal(t, a.At(400*time.Millisecond), b.At(400*time.Millisecond), "the past is kept")
	sum := b.Summary()
	assert.Equal(t, 1, sum.StaleWritesRejected, "from 500 ms on the storage checks tokens")
	assert.True(t, sum.Safe)

	_, err = sim.ParseScenario([]byte(`{"mode": "redis", "changes": [{"at": "1s", "set": {"clients": 3}}]}`))
	assert.ErrorContains(t, err, "changes[0].set.clients: cannot change during a run", "refused as the file is read")
	bad := base.Clone()
	bad.Changes = []sim.Change{change(t, `{"at": "1s", "set": {"ttl": "-1s"}}`)}
	assert.ErrorContains(t, bad.Validate(), "changes[0].set: ttl: -1s is negative")
}

// change is one entry of a scenario file's changes, read as the file is.
func change(t *testing.T, entry string) sim.Change {
	t.Helper()
	var ch sim.Change
	require.NoError(t, json.Unmarshal([]byte(entry), &ch))
	return ch
}

// optionKeys are the keys of the options mode declares, in its order.
func optionKeys(mode string) []string {
	var out []string
	for _, o := range sim.OptionsOf(mode) {
		out = append(out, o.Key)
	}
	return out
}

// A run elects a leader where its design says so: the Kubernetes Lease
// always, ZooKeeper and etcd in election use; the summary, the timeline
// and each client's view carry it.
func TestElectsWhereTheDesignSays(t *testing.T) {
	for _, c := range []struct {
		preset string
		elects bool
	}{
		{"redis-gc-pause", false},
		{"redlock-happy-path", false},
		{"zk-happy-path", false},
		{"zk-leader-latch", true},
		{"etcd-happy-path", false},
		{"etcd-election", true},
		{"k8s-paused-leader", true},
		{"dynamodb-happy-path", false},
	} {
		t.Run(c.preset, func(t *testing.T) {
			sc, err := simtest.Load(c.preset)
			require.NoError(t, err)
			assert.Equal(t, c.elects, sim.Elects(sc))
			rec, err := sim.Record(sc)
			require.NoError(t, err)
			defer rec.Close()
			assert.Equal(t, c.elects, rec.Summary().Election)
			assert.Equal(t, c.elects, rec.Timeline().Election)
			snap := rec.At(rec.End() / 2)
			for _, n := range snap.Nodes {
				assert.Equal(t, c.elects && n.Client, n.Candidate, n.Name)
			}
		})
	}
}
