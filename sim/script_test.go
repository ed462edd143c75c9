package sim_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
)

// scriptScenario is a redis run with a fixed 2 ms latency and no jitter, so
// every reply time is exact.
func scriptScenario(t *testing.T) *sim.Scenario {
	t.Helper()
	sc, err := sim.Defaults("redis")
	require.NoError(t, err)
	sc.Latency = sim.Duration(2 * time.Millisecond)
	sc.Jitter = 0
	sc.Stagger = 0
	sc.Duration = sim.Duration(5 * time.Second)
	return sc
}

func TestScriptClientPlaysAndRecords(t *testing.T) {
	ms := time.Millisecond
	a := sim.NewScriptClient(
		sim.ScriptStep{At: 0, To: "redis-1", Msg: sim.Msg{Op: redis.OpSet, Key: "k", Value: "a", TTL: 100 * ms}},
		sim.ScriptStep{At: 50 * ms, To: "redis-1", Msg: sim.Msg{Op: redis.OpCAD, Key: "k", Value: "a"}},
	)
	b := sim.NewScriptClient(
		sim.ScriptStep{At: 10 * ms, To: "redis-1", Msg: sim.Msg{Op: redis.OpSet, Key: "k", Value: "b", TTL: 100 * ms}},
		sim.ScriptStep{At: 60 * ms, To: "redis-1", Msg: sim.Msg{Op: redis.OpSet, Key: "k", Value: "b", TTL: 100 * ms}},
	)
	sc := scriptScenario(t)
	s, err := sim.NewScripted(sc, a, b)
	require.NoError(t, err)
	s.Run()

	tests := []struct {
		c    *sim.ScriptClient
		step int
		at   time.Duration
		op   sim.Op
		n    int64
	}{
		{a, 0, 4 * ms, redis.OpOK, 0},
		{b, 0, 14 * ms, redis.OpNil, 0},
		{a, 1, 54 * ms, redis.OpInt, 1},
		{b, 1, 64 * ms, redis.OpOK, 0},
	}
	for _, tt := range tests {
		r, ok := tt.c.Reply(tt.step)
		require.True(t, ok, "step %d answered", tt.step)
		assert.Equal(t, tt.at, r.At)
		assert.Equal(t, "redis-1", r.From)
		assert.Equal(t, tt.op, r.Msg.Op)
		assert.Equal(t, tt.n, r.Msg.N)
		assert.Equal(t, int64(tt.step+1), r.Msg.Seq, "the reply names its step")
	}
	assert.Len(t, a.Replies, 2)
	assert.Equal(t, 2, sc.Clients, "NewScripted works on a copy of the scenario")
}

func TestNewScriptedAddsClientsAndKeepsModeClients(t *testing.T) {
	sc := scriptScenario(t)
	sc.Clients = 1
	script := sim.NewScriptClient(sim.ScriptStep{At: time.Second, To: "redis-1", Msg: sim.Msg{Op: redis.OpSet, Key: redis.LockKey, Value: "x", TTL: time.Second}})
	s, err := sim.NewScripted(sc, nil, script)
	require.NoError(t, err)
	require.Len(t, s.Nodes, 4, "two clients, redis-1 and the storage")
	sum := s.Run()
	// client-1 is the mode's own client: it takes the lock at once and
	// holds it 5 s, so the script's SET NX at 1 s finds it held.
	assert.Equal(t, 1, sum.Acquisitions)
	r, ok := script.Reply(0)
	require.True(t, ok)
	assert.Equal(t, redis.OpNil, r.Msg.Op)
}

func TestScriptClientCloneIsDeep(t *testing.T) {
	script := sim.NewScriptClient(
		sim.ScriptStep{At: 0, To: "redis-1", Msg: sim.Msg{Op: redis.OpSet, Key: "k", Value: "a", TTL: time.Second}},
		sim.ScriptStep{At: 100 * time.Millisecond, To: "redis-1", Msg: sim.Msg{Op: redis.OpDel, Key: "k"}},
	)
	s, err := sim.NewScripted(scriptScenario(t), script)
	require.NoError(t, err)
	s.RunUntil(50 * time.Millisecond)
	c := s.Clone()
	s.Run()
	c.Run()
	require.Len(t, script.Replies, 2)
	cp := c.Nodes[c.Lookup("client-1")].Proc.(*sim.ScriptClient)
	assert.Equal(t, script.Replies, cp.Replies, "the clone replays the same answers")
	cp.Replies[0].Msg.Op = redis.OpNil
	assert.Equal(t, redis.OpOK, script.Replies[0].Msg.Op, "and shares no memory with the original")
}

// opNoSuch is an op no server knows.
var opNoSuch = sim.NewOp("NOSUCH")

func TestScriptClientUnansweredStep(t *testing.T) {
	script := sim.NewScriptClient(sim.ScriptStep{At: 0, To: "redis-1", Msg: sim.Msg{Op: opNoSuch}})
	s, err := sim.NewScripted(scriptScenario(t), script)
	require.NoError(t, err)
	s.Run()
	_, ok := script.Reply(0)
	assert.False(t, ok, "a server that ignores an op sends nothing back")
}

func TestScriptStepKeepSeq(t *testing.T) {
	script := sim.NewScriptClient(
		sim.ScriptStep{At: 0, To: "redis-1", Msg: sim.Msg{Op: redis.OpSet, Key: "k", Value: "a", TTL: time.Second}, KeepSeq: true},
		sim.ScriptStep{At: time.Millisecond, To: "redis-1", Msg: sim.Msg{Op: redis.OpSet, Key: "k", Value: "a", TTL: time.Second}},
	)
	s, err := sim.NewScripted(scriptScenario(t), script)
	require.NoError(t, err)
	s.Run()
	require.Len(t, script.Replies, 2)
	assert.Equal(t, int64(0), script.Replies[0].Msg.Seq, "KeepSeq sends Seq 0 as it is")
	assert.Equal(t, int64(2), script.Replies[1].Msg.Seq, "a step without it gets its index + 1")
}

func TestScriptStepMakeUsesEarlierReplies(t *testing.T) {
	script := sim.NewScriptClient(
		sim.ScriptStep{At: 0, To: "redis-1", Msg: sim.Msg{Op: redis.OpSet, Key: "k", Value: "a", TTL: time.Second, N: 1}},
		sim.ScriptStep{At: 10 * time.Millisecond, To: "redis-1", Make: func(replies []sim.ScriptReply) sim.Msg {
			// Release with a value taken from the first answer: its token.
			return sim.Msg{Op: redis.OpCAD, Key: "k", Value: fmt.Sprintf("token-%d", replies[0].Msg.Token)}
		}},
	)
	sc := scriptScenario(t)
	sc.Fencing = true
	s, err := sim.NewScripted(sc, script)
	require.NoError(t, err)
	s.Run()
	r, ok := script.Reply(1)
	require.True(t, ok)
	assert.Equal(t, int64(0), r.Msg.N, "the CAD carried token-1, not the stored value a: nothing deleted")
	assert.Equal(t, int64(2), r.Msg.Seq, "a made message still gets its step's Seq")
}
