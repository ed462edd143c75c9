package redlock

import (
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
)

// redlockMaster is one of the N independent masters: a RedisServer that
// never replicates, whatever its name.
type redlockMaster struct{ *redis.RedisServer }

func (m *redlockMaster) Start(ctx sim.Ctx) {
	m.RedisServer.Start(ctx)
	m.Replica = sim.None
}

func (m *redlockMaster) Restart(ctx sim.Ctx, persist bool) {
	m.RedisServer.Restart(ctx, persist)
	m.Replica = sim.None
}

func (m *redlockMaster) Clone() sim.Process {
	return &redlockMaster{m.RedisServer.Clone().(*redis.RedisServer)}
}
