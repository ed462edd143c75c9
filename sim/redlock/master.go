package redlock

import (
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
)

// redlockMaster is one of the N independent masters: a redis.Server built
// to stand alone (redis.NewMaster), so it never replicates.
type redlockMaster struct{ *redis.Server }

func (m *redlockMaster) Clone() sim.Process {
	return &redlockMaster{m.Server.Clone().(*redis.Server)}
}
