package redis

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// LockKey is the key every Redis-based lock uses.
const LockKey = "lock"

// RequestTimeout is how long a Redis client waits for a reply before the
// command times out (Redisson's default `timeout`, 3000 ms, BaseConfig
// at 3.16.8 and 4.7.0); a WAIT batch waits slavesSyncTimeout longer
// (BaseRedisBatchExecutor.timeout).
const RequestTimeout = 3 * time.Second

// Mode is the design's simulator side, a value: the list of designs
// (package designs) installs it with sim.AddMode at start.
var Mode sim.Mode = redisMode{}

type redisMode struct{}

func (redisMode) Name() string { return "redis" }

// redisTraits: one master (and its replica), a key with a TTL, and a
// fencing token only when the client INCRs a counter for one.
var redisTraits = sim.Traits{
	Place:     1,
	LeaseWord: "ttl", ServerWord: "servers", Token: sim.TokenWhenFencing,
	Options: options,
	Fields:  []string{"fencing"},
}

func (redisMode) Traits() sim.Traits { return redisTraits }

// SentinelDownAfter is Redis Sentinel's default down-after-milliseconds,
// 30000 (redis/redis src/sentinel.c at 7.0.15: sentinel_default_down_after): how long
// the master must not answer PING before a Sentinel calls it subjectively
// down. The whole failover takes longer still: the quorum's agreement
// (is-master-down-by-addr, asked every SENTINEL_ASK_PERIOD of 1 s), the
// leader election (a random start delay of up to SENTINEL_MAX_DESYNC, 1 s)
// and the replica's promotion confirmed by INFO.
const SentinelDownAfter = 30 * time.Second

// DefaultFailoverAfter is LockScope's default Sentinel delay: short enough
// to watch, long enough to see the clients talk to a dead master first.
const DefaultFailoverAfter = 3 * time.Second

func (redisMode) Defaults(sc *sim.Scenario) { sc.Tries = 0 }

// Validate checks reenter against the client and the work
// (validateReenter) and what readers goes with (rwlock.go); the fields Redis does not read are refused from its
// Traits, its options checked by their declarations (sentinels without a
// replica, like failoverAfter, apply to nothing: Servers adds no Sentinel).
func (redisMode) Validate(sc *sim.Scenario) error {
	if err := validateReenter(sc); err != nil {
		return err
	}
	return checkReadersWith(sc) // rwlock.go
}

// Servers are the master, its replica and, with sentinels, the Sentinel
// processes (sentinel.go).
func (redisMode) Servers(sc *sim.Scenario) []string {
	if !Replica.Of(sc) {
		return []string{"redis-1"}
	}
	out := []string{"redis-1", "redis-2"}
	for i := 0; i < Sentinels.Of(sc); i++ {
		out = append(out, SentinelName(i))
	}
	return out
}

func (redisMode) CanFailover(sc *sim.Scenario, node string) error {
	if !Replica.Of(sc) {
		return sim.FieldErr("", sim.Say("field.failoverReplica"), "failover needs a replica: set \"replica\": true")
	}
	if node != "redis-1" {
		return sim.FieldErr("", sim.Say("field.notMaster", "node", node), "%s is not the master; fail over redis-1", node)
	}
	return nil
}

func (redisMode) NewServer(sc *sim.Scenario, i int) sim.Process {
	if i >= 2 {
		return newSentinel()
	}
	s := NewMaster()
	s.paired = true
	if i == 0 && Replica.Of(sc) {
		s.replicaName = "redis-2"
	}
	if i == 1 {
		s.Role = RoleReplica
	}
	return s
}

func (redisMode) NewClient(sc *sim.Scenario, i int) sim.Process {
	return &redisClient{idx: i}
}

// Failover is the master's failure that Sentinel acts on: the master
// crashes now, and failoverAfter later Sentinel promotes the replica
// (SLAVEOF NO ONE, a message to the replica, so a paused replica obeys
// late) and publishes +switch-master, which the clients follow (Redisson's
// sentinel manager subscribes to it). Until then the clients talk to the
// dead master: their requests time out, and are resent there where the
// client's release resends them. A request the old master never
// answered, resent after the switch, goes to the new one; a reply it sent
// before dying still arrives. With failoverAfter 0 the promotion is
// immediate. Sentinel's decision is drawn on the timeline as a mark.
//
// With Sentinel processes (sentinels > 0) the fault is an operator's
// SENTINEL FAILOVER on a master that then dies: the promotion comes
// failoverAfter later as before, and the Sentinels take the new
// configuration at once (the forced failover's leader publishes it with a
// new config epoch, sentinelFailoverSwitchToPromotedSlave), so they do not
// fail the dead master over a second time.
func (redisMode) Failover(s *sim.Sim, node sim.NodeID) {
	rid := s.Lookup("redis-2")
	s.CrashNode(node)
	if rid == sim.None || s.Nodes[rid].Crashed {
		return
	}
	if d := FailoverAfter.Of(s.Scenario).D(); d > 0 {
		s.Ctx(rid).After(d, sim.Timer{Kind: timerSentinel, Seq: int64(node)})
		return
	}
	sentinelPromote(s.Ctx(rid), node)
}

// sentinelPromote promotes the replica of ctx and points every client at
// it, unless the failed master came back first (then Sentinel's SDOWN
// clears and there is no failover).
func sentinelPromote(ctx sim.Ctx, failed sim.NodeID) {
	s := ctx.Sim()
	if !s.Nodes[failed].Crashed {
		ctx.TraceSaid(traceSentinel, "", "the master answers again: no failover", sim.Say("note.redis.sentinelNoFailover"))
		return
	}
	rep := s.Nodes[ctx.ID()].Proc.(*Server)
	if rep.Role != RoleReplica {
		return
	}
	rep.promote(ctx)
	s.Check.Fault(s.Now(), sim.FaultPromote, s.Nodes[ctx.ID()].Name, "")
	for _, id := range s.Servers() {
		if t, ok := s.Nodes[id].Proc.(*Sentinel); ok && !s.Nodes[id].Crashed {
			t.epoch++
			t.configEpoch = t.epoch
			t.switchTo(s.Ctx(id), ctx.ID(), s.Nodes[id].Clock.Mono(s.Now()))
		}
	}
	for i := range s.Nodes {
		if c, ok := s.Nodes[i].Proc.(*redisClient); ok && !s.Nodes[i].Crashed {
			c.master = ctx.ID()
		}
	}
}
