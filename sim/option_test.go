package sim_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

// fileKeys are the top-level members of a scenario file, in order.
func fileKeys(t *testing.T, doc []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	_, err := dec.Token() // {
	require.NoError(t, err)
	var out []string
	for dec.More() {
		k, err := dec.Token()
		require.NoError(t, err)
		out = append(out, k.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return out
}

// A design's options are members of the file like the fields every
// design has, flat, in the design's order before the faults; another
// design's are not written.
func TestOptionsAreFlatMembersOfTheFile(t *testing.T) {
	shared := []string{"mode", "seed", "duration", "clients", "stagger", "rounds", "ttl", "work", "think",
		"latency", "jitter", "fencing", "clockDrift", "tries", "retryDelay"}
	for mode, own := range map[string][]string{
		"redis":     {"replica", "failoverAfter", "sentinels", "downAfter", "watchdog", "plainDel", "client", "reenter", "readers"},
		"redlock":   {"nodes", "driftFactor", "contextTimeout", "checkValidity", "watchdog", "sequential", "readTimeout"},
		"zookeeper": {"nodes", "respectSuspended", "herd", "use", "leadPeriods", "reenter", "readers"},
		"etcd":      {"nodes", "preVote", "herd", "use", "leadPeriods", "reenter", "readers"},
	} {
		sc, err := sim.Defaults(mode)
		require.NoError(t, err)
		doc, err := sc.Marshal()
		require.NoError(t, err)
		want := append(append(append([]string{}, shared...), own...), "faults")
		assert.Equal(t, want, fileKeys(t, doc), mode)
		back, err := sim.ParseScenario(doc)
		require.NoError(t, err)
		assert.Equal(t, sc, back, mode)
	}
}

// The files LockScope wrote before a design's settings were its own
// (every field of every design, testdata/written-before-options, made by
// `lockscope break --out`) load unchanged: the design's own values are
// kept, the others' (their zero, or one every design ignores) dropped.
func TestFilesWrittenBeforeTheOptionsLoad(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "written-before-options", "*.lockscope.json"))
	require.NoError(t, err)
	require.Len(t, files, 4)
	for _, f := range files {
		doc, err := os.ReadFile(f)
		require.NoError(t, err)
		require.Contains(t, fileKeys(t, doc), "contextTimeout", "%s has every design's fields", f)
		sc, err := sim.ParseScenario(doc)
		require.NoError(t, err, f)
		again, err := sc.Marshal()
		require.NoError(t, err)
		back, err := sim.ParseScenario(again)
		require.NoError(t, err)
		assert.Equal(t, sc, back, f)
		switch sc.Mode {
		case "redis":
			assert.True(t, redis.Replica.Of(sc), f)
			assert.Equal(t, sim.Duration(3*time.Second), redis.FailoverAfter.Of(sc), f)
		case "redlock":
			assert.Equal(t, 5, redlock.Nodes.Of(sc), f)
			assert.Equal(t, 0.01, redlock.DriftFactor.Of(sc), f)
		case "zookeeper":
			assert.True(t, zookeeper.Herd.Of(sc), f)
			assert.True(t, zookeeper.RespectSuspended.Of(sc), f)
		case "etcd":
			assert.True(t, etcd.PreVote.Of(sc), f)
		}
	}
}

// What a file may say of another design's options: its zero (Refused),
// any value (Ignored) or a value its check takes (IgnoredIfValid), all
// dropped; anything else is refused naming the member, as before.
func TestAnotherDesignsOptions(t *testing.T) {
	for _, doc := range []string{
		`{"mode": "etcd", "replica": false, "plainDel": false, "watchdog": false, "sequential": false,
			"failoverAfter": "0s", "contextTimeout": false, "checkValidity": false}`,
		`{"mode": "redis", "nodes": 99, "respectSuspended": true, "driftFactor": 0.2, "herd": false, "preVote": false}`,
	} {
		sc, err := sim.ParseScenario([]byte(doc))
		require.NoError(t, err, doc)
		saved, err := sc.Marshal()
		require.NoError(t, err)
		want, err := sim.Defaults(sc.Mode)
		require.NoError(t, err)
		wantDoc, err := want.Marshal()
		require.NoError(t, err)
		assert.Equal(t, string(wantDoc), string(saved), "dropped: %s", doc)
	}
	for doc, want := range map[string]string{
		`{"mode": "redis", "driftFactor": 0.9}`:     "driftFactor: 0.9, want 0 to 0.5",
		`{"mode": "redis", "herd": "yes"}`:          "herd: want bool, got string",
		`{"mode": "redis", "herd": true}`:           "herd: only zookeeper and etcd have watches to herd",
		`{"mode": "redis", "nodes": "five"}`:        "nodes: want int, got string",
		`{"mode": "etcd", "failoverAfter": "x"}`:    `failoverAfter: want a duration such as "10s", got "x"`,
		`{"mode": "redis", "bogus": 1}`:             "bogus: unknown field",
		`{"mode": "redis", "failoverAfter": "-1s"}`: "failoverAfter: -1s is negative",
	} {
		_, err := sim.ParseScenario([]byte(doc))
		assert.EqualError(t, err, want, doc)
	}
}

// A design's handle reads and sets its design's option in a scenario of
// another design that declares the same key, the zero where it declares
// none; set there, the value is refused as a file's would be, and set
// back to the zero it is gone.
func TestOptionHandlesAcrossDesigns(t *testing.T) {
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	zookeeper.Herd.Set(sc, true)
	assert.True(t, etcd.Herd.Of(sc), "one herd member in the file: etcd's")
	require.NoError(t, sc.Validate())

	rl, err := sim.Defaults("redlock")
	require.NoError(t, err)
	assert.False(t, redis.Replica.Of(rl), "redlock has no replica")
	assert.Equal(t, sim.Duration(0), redis.FailoverAfter.Of(rl))
	assert.Equal(t, redlock.Watchdog.Of(rl), redis.Watchdog.Of(rl))
	redis.Replica.Set(rl, true)
	assert.False(t, redis.Replica.Of(rl), "another design's value is not read")
	assert.EqualError(t, rl.Validate(), "replica: Redlock masters are independent and have no replica; use redis mode for one")
	doc, err := rl.Marshal()
	require.NoError(t, err)
	_, err = sim.ParseScenario(doc)
	assert.EqualError(t, err, "replica: Redlock masters are independent and have no replica; use redis mode for one", "the file says what the scenario does")
	redis.Replica.Set(rl, false)
	assert.NoError(t, rl.Validate())

	var literal sim.Scenario // a scenario built in code: every option at its zero
	literal.Mode = "zookeeper"
	assert.False(t, zookeeper.RespectSuspended.Of(&literal))
	assert.Equal(t, 0, zookeeper.Nodes.Of(&literal))
	zookeeper.Nodes.Set(&literal, 3)
	assert.Equal(t, 3, zookeeper.Nodes.Of(&literal))
	assert.Equal(t, 3, sim.OptionOf("zookeeper", "nodes").Value(&literal))
}

// A sweep's fields are those every design has and the options with an
// axis; an option a design does not declare is set as a file sets it.
func TestSweepFieldsFromTheOptions(t *testing.T) {
	assert.Equal(t, []string{"ttl", "work", "pause", "clockDrift", "latency", "clients", "nodes", "readTimeout"}, sim.SweepFields())
	assert.Equal(t, []string{"ttl", "work", "pause", "clockDrift", "latency", "clients"}, sim.SweepFieldsOf("redis"))
	assert.Equal(t, []string{"ttl", "work", "pause", "clockDrift", "latency", "clients", "nodes"}, sim.SweepFieldsOf("etcd"))
	assert.Equal(t, []string{"ttl", "work", "pause", "clockDrift", "latency", "clients", "nodes", "readTimeout"}, sim.SweepFieldsOf("redlock"))
	a, err := sweep.ParseAxis("nodes=3:7:3")
	require.NoError(t, err)
	assert.Equal(t, []float64{3, 5, 7}, a.Values)
	assert.False(t, a.IsDuration())
	_, err = sweep.ParseAxis("herd=0:1:2")
	assert.EqualError(t, err, "herd: cannot sweep this field (one of ttl, work, pause, clockDrift, latency, clients, nodes, readTimeout)")

	sc, err := sweep.Base("redlock")
	require.NoError(t, err)
	sim.SetSweepField(sc, "nodes", 7)
	assert.Equal(t, 7, redlock.Nodes.Of(sc))
	v, ok := sim.SweepValue(sc, "nodes")
	assert.True(t, ok)
	assert.Equal(t, 7.0, v)
	r, err := sweep.Base("redis")
	require.NoError(t, err)
	before, _ := r.Marshal()
	sim.SetSweepField(r, "nodes", 7)
	after, _ := r.Marshal()
	assert.Equal(t, string(before), string(after), "redis has no number of servers: nothing changes")
	_, ok = sim.SweepValue(r, "nodes")
	assert.False(t, ok)
}

// optionMode is a test's mode that declares the options it is given.
type optionMode struct {
	timerMode
	name    string
	options []*sim.Option
}

func (m optionMode) Name() string { return m.name }
func (m optionMode) Traits() sim.Traits {
	tr := m.timerMode.Traits() // takes what has no refusal words
	tr.Options = m.options
	return tr
}

// A mode whose options cannot be bound is a mistake found when it
// registers, and it is not registered.
func TestRegisterModeChecksItsOptions(t *testing.T) {
	fresh := func(key string) *sim.Option {
		return sim.NewBool(sim.Option{Key: key, Elsewhere: sim.Ignored}, false).Option
	}
	for want, opts := range map[string][]*sim.Option{
		"sim: mode options-test declares option twin twice":              {fresh("twin"), fresh("twin")},
		"sim: mode options-test: option replica is mode redis's already": {redis.Replica.Option},
		"sim: mode options-test: option ttl is a field every design has": {fresh("ttl")},
		"sim: mode options-test: option herd is not declared as the other designs declare it (its kind, a choice's values, Changeable and Elsewhere must agree)": {
			sim.NewInt(sim.Option{Key: "herd"}, 0, nil).Option},
		"sim: mode options-test: an option not made by sim.NewBool, NewInt, NewFloat, NewDuration or NewChoice": {{Key: "bare"}},
	} {
		assert.PanicsWithValue(t, want, func() { sim.RegisterMode(optionMode{name: "options-test", options: opts}) })
		_, err := sim.LookupMode("options-test")
		assert.Error(t, err, "not registered")
	}
	// An option the others must refuse, with no words for it.
	mute := sim.NewBool(sim.Option{Key: "mute"}, false).Option
	assert.PanicsWithValue(t, "sim: mode dynamodb does not read mute, which mode options-test declares, and says nothing of why (Traits.Refusals)",
		func() { sim.RegisterMode(optionMode{name: "options-test", options: []*sim.Option{mute}}) })
	assert.Empty(t, sim.OptionsOf("options-test"))
}

// A choice (sim.NewChoice, Redis's client) is stored as its value's place
// and written as its value's string; a string none of its values is
// refused with the values listed, another design refuses any but its
// first value, a change may not set it (it is not Changeable) and no
// sweep varies it.
func TestChoiceOption(t *testing.T) {
	sc, err := sim.Defaults("redis")
	require.NoError(t, err)
	assert.Equal(t, redis.ClientRedisson, redis.Client.Of(sc), "the default")
	o := sim.OptionOf("redis", "client")
	require.NotNil(t, o)
	assert.Equal(t, sim.OptionChoice, o.Kind())
	assert.Equal(t, []string{"redisson", "redisson-fair", "redisson-3.16", "plain"}, o.Values())
	assert.Equal(t, "redisson", o.Default())
	assert.False(t, o.IsOn(sc))

	redis.Client.Set(sc, redis.ClientPlain)
	assert.Equal(t, "plain", o.Value(sc))
	assert.True(t, o.IsOn(sc))
	doc, err := sc.Marshal()
	require.NoError(t, err)
	assert.Contains(t, string(doc), `"client": "plain"`)
	back, err := sim.ParseScenario(doc)
	require.NoError(t, err)
	assert.Equal(t, redis.ClientPlain, redis.Client.Of(back))
	o.SetValue(back, "redisson")
	assert.Equal(t, redis.ClientRedisson, redis.Client.Of(back))
	assert.Panics(t, func() { redis.Client.Set(back, "jedis") }, "no value of the choice")
	assert.Panics(t, func() { o.SetValue(back, true) }, "not a string")

	for doc, want := range map[string]string{
		`{"mode": "redis", "client": "jedis"}`:   `client: want one of redisson, redisson-fair, redisson-3.16, plain, got "jedis"`,
		`{"mode": "redis", "client": true}`:      "client: want string, got bool",
		`{"mode": "redlock", "client": "plain"}`: "client: only for redis (its lock client, Redisson or a plain SET NX one)",
		`{"mode": "redis", "changes": [{"at": "1s", "set": {"client": "plain"}}]}`: "changes[0].set.client: cannot change during a run (one of " +
			strings.Join(sim.ChangeableFields(), ", ") + ")",
	} {
		_, err := sim.ParseScenario([]byte(doc))
		assert.EqualError(t, err, want, doc)
	}
	_, err = sim.ParseScenario([]byte(`{"mode": "redlock", "client": "redisson"}`))
	assert.NoError(t, err, "another design takes the first value and drops it")
	assert.NotContains(t, sim.SweepFields(), "client")

	assert.Panics(t, func() { sim.NewChoice(sim.Option{Key: "x"}, "c", []string{"a", "b"}) }, "a default none of the values")
	assert.Panics(t, func() { sim.NewChoice(sim.Option{Key: "x"}, "a", []string{"a"}) }, "one value")
	assert.Panics(t, func() { sim.NewChoice(sim.Option{Key: "x", Axis: "0:1:2"}, "a", []string{"a", "b"}) }, "an axis")
}
