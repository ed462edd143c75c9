package redlock

import (
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
)

// redlockMaster is one of the N independent masters: a redis.Server that
// never replicates, whatever its name.
type redlockMaster struct{ *redis.Server }

func (m *redlockMaster) Start(ctx sim.Ctx) {
	m.Server.Start(ctx)
	m.Replica = sim.None
}

func (m *redlockMaster) Restart(ctx sim.Ctx, persist bool) {
	m.Server.Restart(ctx, persist)
	m.Replica = sim.None
}

func (m *redlockMaster) Clone() sim.Process {
	return &redlockMaster{m.Server.Clone().(*redis.Server)}
}
